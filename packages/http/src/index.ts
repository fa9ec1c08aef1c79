/**
 * @ridequote/http — the HTTP adapter: the `RidequoteApi` contract, its handlers, the bearer
 * middleware, the error table, and `HttpHostLive`, the whole application as one layer.
 */
export * from "./Api.js"
export * from "./BearerAuth.js"
export * from "./ContentEncoding.js"
export * from "./CurrentRequest.js"
export * from "./DocsPage.js"
export * from "./Edge.js"
export * from "./ErrorTable.js"
export * from "./Handlers.js"
export * from "./Host.js"
export * from "./HttpConfig.js"
export * from "./HttpErrors.js"
export * from "./JsonBody.js"
export * from "./Metrics.js"
export * from "./RateLimiter.js"
