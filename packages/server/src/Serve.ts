/**
 * `ridequote serve`: the HTTP service, composed from the adapters.
 *
 *   GracefulHttpServer ─┐
 *                       ├─ HttpHostLive (API, health, metrics, OpenAPI, docs)
 *   EngineLive ─────────┘     └─ needs storage ports + MarketData + RouteResolver + Randomness
 *     ├─ markets (fitted models and/or the sample market) + offline route estimator
 *     └─ storage (SQLite file; migrated when built)
 *
 * Shutdown order is the reverse of construction, which is what makes SIGTERM graceful: the
 * server stops accepting and finishes in-flight requests first (GracefulHttpServer), then the
 * engine stops, and the storage layer closes last, after its finalizer has flushed the audit
 * queue. Storage is therefore built first (innermost `provideMerge`), the HTTP server last.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { makeEngineLive, OfflineRouteResolverLive, RandomnessLive } from "@ridequote/core"
import { HttpHostLive, rateLimitPerSecond } from "@ridequote/http"
import { MarketsLive } from "@ridequote/markets"
import { GracefulHttpServerLive } from "./GracefulHttpServer.js"
import type { ServeSettings } from "./Settings.js"
import { describeDatabase } from "./Settings.js"
import { StorageLive } from "./Storage.js"

/** Markets: a folder of fitted models (sample fallback optional), or the sample market alone. */
const MarketDataLive = (settings: ServeSettings) =>
  Option.match(settings.marketsDir, {
    onNone: () => MarketsLive({ fallbackToSample: true }),
    onSome: (dir) => MarketsLive({ dir, fallbackToSample: settings.sampleFallback })
  })

export const ServeLive = (settings: ServeSettings) => {
  // provideMerge: the HTTP host needs the storage ports (audit paging, health) as well.
  const core = makeEngineLive({ refreshInterval: settings.refreshInterval }).pipe(
    Layer.provideMerge(Layer.mergeAll(MarketDataLive(settings), OfflineRouteResolverLive, RandomnessLive)),
    Layer.provideMerge(StorageLive(settings.database, settings.jwtSecret))
  )
  return HttpHostLive({ rateLimit: rateLimitPerSecond(settings.rateLimit) }).pipe(
    Layer.provideMerge(GracefulHttpServerLive({ port: settings.port, host: settings.host })),
    Layer.provide(core),
    // Logged once the API is attached to the listening socket: from this line on, requests
    // are answered. Operators and tests wait for it.
    Layer.tap((context) => {
      const address = HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address)
      return Effect.logInfo(`Listening on ${address}`).pipe(
        Effect.annotateLogs({
          event: "listening",
          address,
          database: describeDatabase(settings.database),
          markets: Option.getOrElse(settings.marketsDir, () => "sample"),
          refreshIntervalSeconds: Duration.toSeconds(settings.refreshInterval),
          rateLimit: settings.rateLimit
        })
      )
    })
  )
}

/** Runs the service until SIGTERM/SIGINT; layer finalizers do the graceful part. */
export const serve = (settings: ServeSettings) => Layer.launch(ServeLive(settings))
