/**
 * @ridequote/http — the HTTP adapter, as an embedder composing a host of their own needs it:
 *
 * - the contract: `RidequoteApi` (also for `HttpApiClient.make`), its groups and the bearer
 *   middleware's tag with `CurrentCaller`;
 * - the application: `HttpHostLive(options)` whole, or its parts — `RidequoteApiLive`,
 *   `ApiHandlersLive` and each group's handlers, `BearerAuthLive` with the rate limiter,
 *   `EdgeLive` (request ids, error bodies, 404/405, CORS, log line, metrics), `withRidequoteApp`;
 * - settings: `RidequoteHttpConfig` and its options (also at `@ridequote/http/config`);
 * - the error vocabulary: the edge's error classes, the error table and `errorWire` for
 *   declaring them on endpoints of one's own.
 *
 * `@ridequote/http/node` is the same application as a `node:http` listener. The machinery
 * behind these (body reading, metrics, docs page, CORS policy, …) lives in `internal/` and is
 * not part of the package's interface.
 */
export {
  AuditGroup,
  AuditQueryParams,
  AuthGroup,
  BearerAuth,
  CredentialHeaders,
  CurrentCaller,
  CustomerGroup,
  HealthStatus,
  issueToken,
  MarketsGroup,
  MarketsQueryParams,
  OperationsGroup,
  PROMETHEUS_CONTENT_TYPE,
  QuotesGroup,
  revokeToken,
  RidequoteApi
} from "./Api.js"
export { BearerAuthLive } from "./BearerAuth.js"
export { EdgeLive, errorHead } from "./Edge.js"
export type { ErrorHead } from "./Edge.js"
export {
  ErrorBody,
  errorBody,
  errorStatus,
  errorTable,
  errorWire,
  isRenderableError,
  RenderableErrors,
  STATUS_OF_CODE
} from "./ErrorTable.js"
export type { ErrorRow, ErrorWire, RenderableError, RenderableErrorClass, WireBody } from "./ErrorTable.js"
export {
  AccountRateLimiter,
  AccountRateLimiterLive
} from "./internal/RateLimiter.js"
export {
  ApiHandlersLive,
  AuditHandlersLive,
  AuthHandlersLive,
  CustomerHandlersLive,
  MarketsHandlersLive,
  OperationsHandlersLive,
  QuotesHandlersLive
} from "./Handlers.js"
export { HttpHostLive, RidequoteApiLive, withRidequoteApp } from "./Host.js"
export type { HttpHostRequirements } from "./Host.js"
export * from "./HttpConfig.js"
export * from "./HttpErrors.js"
