/**
 * @ridequote/storage-postgres — core's storage ports on PostgreSQL, for many `serve` processes
 * on one database: the repositories of `@ridequote/storage-sql` on a configured pool, and the
 * access feed's LISTEN/NOTIFY wake-ups on a watched, self-healing connection.
 */
export {
  clientConfig,
  DEFAULT_CONNECT_TIMEOUT,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT,
  migratePostgres,
  PostgresClientLive
} from "./PostgresClient.js"
export type { PostgresConnection } from "./PostgresClient.js"
export { makeFeedWakeups } from "./FeedListener.js"
export { PostgresAccessFeedLive, PostgresStorageLive } from "./PostgresStorage.js"
export type { PostgresStorageOptions } from "./PostgresStorage.js"
// Where the key-encryption key sealing the signing keys comes from (one implementation, in
// @ridequote/storage-sql): re-exported so an embedder that loads only this adapter has it.
export {
  decodeKeyEncryptionKey,
  KEY_ENCRYPTION_KEY_FILE_NAME,
  KeyEncryptionKeyInvalid,
  keyEncryptionKeyFromFile
} from "@ridequote/storage-sql"
