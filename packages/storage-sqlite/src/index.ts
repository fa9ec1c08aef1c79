/**
 * @ridequote/storage-sqlite — the embedded storage: core's ports on one SQLite file (WAL,
 * synchronous FULL, busy timeout), shareable by several processes.
 */
export { driverPath } from "./Driver.js"
export { BUSY_TIMEOUT_MS, migrateSqlite, SqliteClientLive } from "./SqliteClient.js"
export { SqliteStorageLive } from "./SqliteStorage.js"
export type { SqliteStorageOptions } from "./SqliteStorage.js"
// Where the key-encryption key sealing the signing keys comes from (one implementation, in
// @ridequote/storage-sql): re-exported so an embedder that loads only this adapter has it.
export {
  decodeKeyEncryptionKey,
  KEY_ENCRYPTION_KEY_FILE_NAME,
  KeyEncryptionKeyInvalid,
  keyEncryptionKeyFromFile
} from "@ridequote/storage-sql"
