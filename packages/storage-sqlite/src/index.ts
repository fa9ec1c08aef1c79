/**
 * @ridequote/storage-sqlite — the embedded storage: core's ports on one SQLite file (WAL,
 * synchronous FULL, busy timeout), shareable by several processes.
 */
export { BUSY_TIMEOUT_MS, migrateSqlite, SqliteClientLive } from "./SqliteClient.js"
export { SqliteStorageLive } from "./SqliteStorage.js"
export type { SqliteStorageOptions } from "./SqliteStorage.js"
