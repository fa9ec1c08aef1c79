/**
 * A team's own HTTP host: the ridequote API mounted next to a route of the team's own
 * (`GET /fleet/status`), on any engine of `@ridequote/compose`: `pnpm start` runs it on a
 * SQLite file (`SqliteEngineLive`), the test on the in-memory engine (`MemoryEngineLive`).
 *
 * `HttpHostLive` is the complete ridequote application (API, contract error bodies, request
 * ids, /openapi.json, /docs, health, metrics); `HttpApiBuilder.Router.use` adds routes to the
 * same router, so both are served by one server.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Accounts } from "@ridequote/core"
import { MemoryEngineLive } from "@ridequote/compose"
import type { EngineStartError, RidequoteEngine } from "@ridequote/compose"
import { HttpHostLive, rateLimitPerSecond } from "@ridequote/http"
import { Effect, Layer } from "effect"

/** The team's own route: how many accounts the engine knows, as an example of using core services in a handler. */
export const FleetStatusRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    yield* router.get(
      "/fleet/status",
      Effect.gen(function*() {
        const all = yield* accounts.list
        return yield* HttpServerResponse.json({ service: "fleet", accounts: all.length })
      }).pipe(Effect.orDie)
    )
  })
)

/** ridequote's API and the team's route on one server, on `engine`; needs only an `HttpServer`. */
export const CustomHostOn = (engine: Layer.Layer<RidequoteEngine, EngineStartError>) =>
  Layer.mergeAll(HttpHostLive({ rateLimit: rateLimitPerSecond(50) }), FleetStatusRoute).pipe(Layer.provideMerge(engine))

/** The host on the in-memory engine (shipped markets, offline routes). */
export const CustomHostLive = CustomHostOn(MemoryEngineLive())
