/**
 * @ridequote/core/testing — run the whole engine with no database: in-memory adapters for
 * every port, and fast-check arbitraries for the domain.
 */
export * from "./auth.js"
export * from "./pricing.js"
export * from "./arbitraries.js"
export * from "./engine.js"
