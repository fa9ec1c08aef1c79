/**
 * The full HTTP application as one layer: the API with its handlers and bearer middleware,
 * the edge, /openapi.json, /docs, health and metrics. It needs an `HttpServer` (e.g.
 * `NodeHttpServer.layer`) and core's services; nothing here is tied to Node.
 */
import { HttpApiBuilder, HttpApiScalar } from "@effect/platform"
import type { HttpApi, HttpRouter, HttpServer } from "@effect/platform"
import type { AuditLog, Quotes, Randomness, StorageHealth, Tokens } from "@ridequote/core"
import { Layer } from "effect"
import { RidequoteApi } from "./Api.js"
import { BearerAuthLive } from "./BearerAuth.js"
import { EdgeLive } from "./Edge.js"
import { ApiHandlersLive } from "./Handlers.js"
import { RidequoteHttpConfig } from "./HttpConfig.js"
import type { RidequoteHttpOptions } from "./HttpConfig.js"
import { AccountRateLimiterLive } from "./RateLimiter.js"

/** What the application needs from core (and storage). */
export type HttpHostRequirements = Tokens | Quotes | AuditLog | Randomness | StorageHealth

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

/** The whole application, served on the `HttpServer` it is given. */
export const HttpHostLive = (
  options?: Partial<RidequoteHttpOptions>
): Layer.Layer<never, never, HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices | HttpHostRequirements> =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(EdgeLive),
    Layer.provide(RidequoteApiLive),
    Layer.provide(RidequoteHttpConfig.layer(options))
  )
