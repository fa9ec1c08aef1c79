/**
 * @ridequote/core — the ride-quote pricing engine as an embeddable Effect library.
 *
 * Domain schemas and typed errors, the ports adapters implement, and the services built on
 * them. Layers are named `<Service>Live`; in-memory adapters and fast-check arbitraries are in
 * `@ridequote/core/testing`.
 */
// First: refuse an unsupported effect before any module of ours runs on it.
export * from "./EffectVersion.js"

export * from "./Account.js"
export * from "./Audit.js"
export * from "./Errors.js"
export * from "./Geo.js"
export * from "./Ids.js"
export * from "./Money.js"
export * from "./Quote.js"
export * from "./MarketCoverage.js"
export * from "./MarketSummary.js"
export * from "./Timestamp.js"
export * from "./Token.js"
export * from "./Randomness.js"
export * from "./Encoding.js"
export * from "./FieldIssues.js"
export * from "./QuoteRequestFast.js"

export * from "./ports/AccessFeed.js"
export * from "./ports/AccountStore.js"
export * from "./ports/AuditLog.js"
export * from "./ports/MarketData.js"
export * from "./ports/RouteResolver.js"
export * from "./ports/SigningKeys.js"
export * from "./ports/StorageHealth.js"
export * from "./ports/TokenStore.js"

export * from "./auth/index.js"
export * from "./pricing/index.js"
export * from "./Engine.js"
