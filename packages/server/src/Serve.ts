/**
 * `ridequote serve`: the HTTP service, composed from the adapters.
 *
 *   GracefulHttpServer (node:http, drain on stop)
 *     └─ NodeHostLive (hot routes on Node's objects; API, metrics, OpenAPI, docs via HttpApi)
 *          └─ EngineLive: needs storage ports + MarketData + RouteResolver + Randomness
 *     ├─ markets (fitted models and/or the sample market) + route resolver (@ridequote/routes)
 *     └─ storage (SQLite file; migrated when built)
 *
 * Shutdown order is the reverse of construction, which is what makes SIGTERM graceful: the
 * server stops accepting and finishes in-flight requests first (GracefulHttpServer), then the
 * engine stops, and the storage layer closes last, after its finalizer has flushed the audit
 * queue. Storage is therefore built first (innermost `provideMerge`), the HTTP server last.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { composeEngine } from "@ridequote/compose"
import { rateLimitPerSecond } from "@ridequote/http"
import { NodeHostLive } from "@ridequote/http/node"
import { describeMarkets, MarketsLive } from "@ridequote/markets"
import { describeRoutes, RouteResolverLive } from "@ridequote/routes"
import { GracefulHttpServerLive, HttpListening } from "./GracefulHttpServer.js"
import { collectBeforeServing, tuneHeapForServing } from "./HeapTuning.js"
import type { ServeSettings } from "./Settings.js"
import { describeDatabase } from "./Settings.js"
import { requestLogLine } from "./Logging.js"
import { handleStopSignals, STOP_LIMIT } from "./Signals.js"
import { StorageLive } from "./Storage.js"

/** Markets: the shipped models or a folder of fitted ones (sample fallback optional), or the sample market alone. */
const MarketDataLive = (settings: ServeSettings) => MarketsLive(settings.markets)

export const ServeLive = (settings: ServeSettings) => {
  // The engine as embedders build it (@ridequote/compose), on the storage, markets and routes
  // the settings choose. It provides the storage ports too: the HTTP host pages the audit and
  // checks health through them.
  const core = composeEngine(
    {
      storage: StorageLive(settings.database, settings.jwtSecret),
      markets: MarketDataLive(settings),
      routes: RouteResolverLive(settings.routes)
    },
    { refreshInterval: settings.refreshInterval }
  )
  return GracefulHttpServerLive({
    port: settings.port,
    host: settings.host,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxConnections: settings.maxConnections,
    headersTimeoutMs: settings.headersTimeoutMs,
    maxConnectionsPerAddress: settings.maxConnectionsPerAddress
  }).pipe(
    Layer.provide(NodeHostLive(
      { rateLimit: rateLimitPerSecond(settings.rateLimit), corsOrigins: settings.corsOrigins },
      { requestLog: requestLogLine }
    ).pipe(
      // Everything is built and loaded: one full collection before the socket listens.
      Layer.tap(() => Effect.sync(() => collectBeforeServing()))
    )),
    Layer.provide(core),
    // Logged once the API is attached to the listening socket: from this line on, requests
    // are answered. Operators and tests wait for it.
    Layer.tap((context) => {
      const address = Context.get(context, HttpListening).url
      return Effect.logInfo(`Listening on ${address}`).pipe(
        Effect.annotateLogs({
          event: "listening",
          address,
          database: describeDatabase(settings.database),
          markets: describeMarkets(settings.markets),
          routes: describeRoutes(settings.routes),
          refreshIntervalSeconds: Duration.toSeconds(settings.refreshInterval),
          rateLimit: settings.rateLimit,
          requestTimeoutMs: settings.requestTimeoutMs,
          maxConnections: settings.maxConnections,
          headersTimeoutMs: settings.headersTimeoutMs,
          maxConnectionsPerAddress: settings.maxConnectionsPerAddress,
          corsOrigins: settings.corsOrigins
        })
      )
    })
  )
}

/**
 * Runs the service until SIGTERM/SIGINT; layer finalizers do the graceful part, and further
 * signals during it are counted, not fatal (Signals.ts; its listeners outlive the layers). The
 * heap's growth is capped first (HeapTuning.ts): a server's resident size should stay flat.
 */
export const serve = (settings: ServeSettings) =>
  Effect.scoped(
    handleStopSignals({ limit: STOP_LIMIT, exit: (code) => process.exit(code) }).pipe(
      Effect.zipRight(Effect.sync(() => tuneHeapForServing())),
      Effect.zipRight(Layer.launch(ServeLive(settings)))
    )
  )
