/**
 * @ridequote/compose — the ride-quote engine as Effect layers, for programs written with
 * Effect 3:
 *
 * - one-call engines: `MemoryEngineLive`, `SqliteEngineLive`, `PostgresEngineLive` (or
 *   `RidequoteEngineLive` with a storage choice), each with the shipped markets and the offline
 *   route resolver unless told otherwise;
 * - `composeEngine({ storage, markets, routes })`: an engine from layers of one's own (the
 *   `ridequote` server builds its engine this way), and the parts it takes (`StorageLive`,
 *   `MarketDataLive`, `RoutesLive`).
 *
 * `effect` is a peer dependency: the program's own Effect 3 runs the engine. A service that does
 * not use Effect takes `@ridequote/engine` instead (Promises, its own Effect inside). The
 * database adapters (`@ridequote/storage-sqlite`, `@ridequote/storage-postgres`) are optional
 * peer dependencies, loaded only when that storage is chosen. See docs/embedding.md.
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
export {
  describeStorage,
  KeyEncryptionKeyRefused,
  MemoryStorageLive,
  StorageAdapterMissing,
  StorageLive
} from "./Storage.js"
export type { PostgresChoice, SqliteChoice, SqlStorageChoice, StorageChoice, StorageStartError } from "./Storage.js"
