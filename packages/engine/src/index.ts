/**
 * @ridequote/engine — the ride-quote engine ready to run, two ways:
 *
 * - for Effect programs, one-call engines as layers: `MemoryEngineLive`, `SqliteEngineLive`,
 *   `PostgresEngineLive` (or `RidequoteEngineLive` with a storage choice), each with the
 *   shipped markets and the offline route resolver unless told otherwise;
 * - for everyone else, `createRidequote`: the same engine behind Promise methods and plain
 *   types, rejecting with `RidequoteError` (the HTTP contract's error body).
 *
 * The database adapters (`@ridequote/storage-sqlite`, `@ridequote/storage-postgres`) are
 * optional peer dependencies, loaded only when that storage is chosen. See docs/embedding.md.
 */
export { composeEngine } from "./Compose.js"
export type { EngineParts, RidequoteEngine } from "./Compose.js"
export {
  MemoryEngineLive,
  PostgresEngineLive,
  RidequoteEngineLive,
  SqliteEngineLive
} from "./Engine.js"
export type { EngineOptions, EngineStartError, RidequoteEngineOptions } from "./Engine.js"
export { MarketDataLive, marketsOptions, RoutesLive } from "./Pricing.js"
export type { MarketsChoice, RoutesChoice } from "./Pricing.js"
export { describeStorage, MemoryStorageLive, StorageAdapterMissing, StorageLive } from "./Storage.js"
export type { PostgresChoice, SqliteChoice, SqlStorageChoice, StorageChoice, StorageStartError } from "./Storage.js"
export { createRidequote, facadeOn } from "./Facade.js"
export type {
  Ridequote,
  RidequoteAccounts,
  RidequoteAudit,
  RidequoteOptions,
  RidequoteTokens,
  SqlStorageOptions,
  StorageOption
} from "./Facade.js"
export { isRidequoteError, RidequoteError } from "./FacadeErrors.js"
export type * from "./FacadeTypes.js"
