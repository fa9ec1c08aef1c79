/**
 * The full HTTP application as one layer: the API with its handlers and bearer middleware,
 * the edge, /openapi.json, /docs, health and metrics. It needs an `HttpServer` (e.g.
 * `NodeHttpServer.layer`) and core's services; nothing here is tied to Node but the docs
 * page's compression (`node:zlib`, which Bun and Deno provide as well).
 */
import { HttpApiBuilder } from "@effect/platform"
import type { HttpApi, HttpRouter, HttpServer } from "@effect/platform"
import type { AuditLog, MarketData, Quotes, Randomness, StorageHealth, Tokens } from "@ridequote/core"
import { Layer } from "effect"
import { RidequoteApi } from "./Api.js"
import { BearerAuthLive } from "./BearerAuth.js"
import { DocsPageLive, OPENAPI_PATH } from "./internal/DocsPage.js"
import { EdgeLive } from "./Edge.js"
import { ApiHandlersLive } from "./Handlers.js"
import { RidequoteHttpConfig } from "./HttpConfig.js"
import type { RidequoteHttpOptions } from "./HttpConfig.js"
import { AccountRateLimiterLive } from "./internal/RateLimiter.js"

/** What the application needs from core (and storage). */
export type HttpHostRequirements = Tokens | Quotes | AuditLog | Randomness | StorageHealth | MarketData

/**
 * `RidequoteApi` implemented: handlers and bearer middleware (with its rate limiter). For
 * hosts that serve it themselves, together with `EdgeLive` for the contract's error bodies.
 */
export const RidequoteApiLive: Layer.Layer<HttpApi.Api, never, HttpHostRequirements | RidequoteHttpConfig> =
  HttpApiBuilder.api(RidequoteApi).pipe(
    Layer.provide(ApiHandlersLive),
    Layer.provide(BearerAuthLive),
    Layer.provide(AccountRateLimiterLive)
  )

/**
 * What the HttpApi application serves besides its handlers — /openapi.json, /docs, the edge —
 * and the API itself, around a layer that turns it into a server (`HttpApiBuilder.serve()`
 * here, the Node listener in `@ridequote/http/node`): one composition for both hosts.
 */
export const withRidequoteApp = <A, E, R>(server: Layer.Layer<A, E, R>) =>
  server.pipe(
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: OPENAPI_PATH })),
    Layer.provide(DocsPageLive),
    Layer.provide(EdgeLive),
    Layer.provide(RidequoteApiLive)
  )

/** The whole application, served on the `HttpServer` it is given. */
export const HttpHostLive = (
  options?: Partial<RidequoteHttpOptions>
): Layer.Layer<never, never, HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices | HttpHostRequirements> =>
  withRidequoteApp(HttpApiBuilder.serve()).pipe(Layer.provide(RidequoteHttpConfig.layer(options)))
