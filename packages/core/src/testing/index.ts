/**
 * @ridequote/core/testing — run the whole engine with no database: in-memory adapters for
 * every port, and fast-check arbitraries for the domain.
 */
// First: refuse an unsupported effect before any module of ours runs on it.
import "../EffectVersion.js"

export * from "./auth.js"
export * from "./pricing.js"
export * from "./arbitraries.js"
export * from "./engine.js"
