// Every entry point of every library, used enough that the compiler reads their types.
import * as Core from "@ridequote/core"
import * as CoreTesting from "@ridequote/core/testing"
import * as Routes from "@ridequote/routes"
import * as Markets from "@ridequote/markets"
import * as MarketsModel from "@ridequote/markets/model"
import * as Calibration from "@ridequote/calibration"
import * as CalibrationCli from "@ridequote/calibration/cli"
import * as Http from "@ridequote/http"
import * as HttpConfig from "@ridequote/http/config"
import * as HttpNode from "@ridequote/http/node"
import * as StorageSql from "@ridequote/storage-sql"
import * as StorageSqlTesting from "@ridequote/storage-sql/testing"
import * as StorageSqlite from "@ridequote/storage-sqlite"
import * as StoragePostgres from "@ridequote/storage-postgres"
import * as StoragePostgresTesting from "@ridequote/storage-postgres/testing"
import * as Compose from "@ridequote/compose"
import * as Engine from "@ridequote/engine"
import { Effect, Layer } from "effect"

const request: Core.QuoteRequest = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
}

// A whole engine on the SQLite storage, the offline routes and the sample market: the layer's
// types must line up across packages (one Effect, one set of service tags).
const engine = Core.makeEngineLive().pipe(
  Layer.provideMerge(Layer.mergeAll(Core.SampleMarketLive, Routes.OfflineRouteResolverLive, Core.RandomnessLive)),
  Layer.provideMerge(StorageSqlite.SqliteStorageLive({ filename: ":memory:" }))
)

export const program = Effect.gen(function*() {
  const accounts = yield* Core.Accounts
  const created = yield* accounts.create({ name: "Typed" })
  return created.account.id
}).pipe(Effect.provide(engine))

export const used = [
  request,
  CoreTesting.makeInMemoryEngineLive,
  Markets.MarketsLive,
  MarketsModel.parseTariff,
  Calibration.fitMarket,
  CalibrationCli.marketCommand,
  Http.HttpHostLive,
  HttpConfig,
  HttpNode.NodeHostLive,
  StorageSql,
  StorageSqlTesting,
  StoragePostgres,
  StoragePostgresTesting,
  Compose.composeEngine,
  Compose.MemoryEngineLive,
  Engine.createRidequote,
  Engine.isRidequoteError
]

// The one-call engine of @ridequote/compose provides core's services on the program's own Effect.
export const onCompose = Effect.gen(function*() {
  const accounts = yield* Core.Accounts
  return (yield* accounts.list).length
}).pipe(Effect.provide(Compose.MemoryEngineLive({ markets: "sample" })))

// The facade's options and answers are plain types.
export const facadeOptions: Engine.RidequoteOptions = { storage: { sqlite: "./data/ridequote.db" }, markets: "shipped" }
export const firstQuote = async (): Promise<Engine.Quote> => {
  const rq = await Engine.createRidequote(facadeOptions)
  const { apiKey, apiSecret } = await rq.accounts.create({ name: "Typed" })
  const { token } = await rq.tokens.issue(apiKey, apiSecret)
  return rq.quote({ token }, { pickup: { latitude: 40.758, longitude: -73.9855 }, destination: { latitude: 40.6413, longitude: -73.7781 } })
}
