/**
 * @ridequote/storage-sql — core's storage ports on @effect/sql, written once for SQLite and
 * PostgreSQL (dialect differences live in `Dialect`). Bring a `SqlClient`; run `migrate`; then
 * provide `SqlStorageLive`.
 */
export { migrate, migrations } from "./Migrations.js"
export { COPIED_TABLES, copyDatabase } from "./Copy.js"
export type { CopyReport } from "./Copy.js"
export { SqlStorageLive } from "./SqlStorage.js"
export type { SqlStorageOptions, StoragePorts } from "./SqlStorage.js"

export { FEED_BATCH, makeAccessFeed, SqlAccessFeedLive } from "./AccessFeed.js"
export { SqlAccountStoreLive } from "./AccountStore.js"
export { AUDIT_KEY, auditQueueDepth, pageStatement as auditPageStatement, SqlAuditLogLive } from "./AuditLog.js"
export type { AuditCommit, AuditLogOptions, AuditRow } from "./AuditLog.js"
export { makeGroupCommit } from "./GroupCommit.js"
export type { CallbackCommit, GroupCommit, GroupCommitOptions } from "./GroupCommit.js"
export { chunkRows, dialect, FEED_CHANNEL } from "./Dialect.js"
export type { Dialect } from "./Dialect.js"
export {
  AUDIT_DELETE_BATCH,
  AUDIT_DELETE_MIN_GAP,
  AUDIT_DELETE_REST_PER_MS,
  AUDIT_DELETE_STATEMENT,
  countAuditBefore,
  EXPIRED_TOKEN_RETENTION_MS,
  FEED_RETENTION_MS,
  prune,
  pruneAudit,
  restBetweenBatches,
  RetentionLive,
  sqlDeleteAuditBatch
} from "./Retention.js"
export type { AuditDeleted, AuditDeleteRequest, DeleteAuditBatch, PruneOptions, RetentionOptions } from "./Retention.js"
export { isSealed, KEK_BYTES, kekId, open as openStoredKey, seal as sealKey } from "./SigningKeyCipher.js"
export type { KeyEncryption } from "./SigningKeyCipher.js"
export {
  decodeKeyEncryptionKey,
  KEY_ENCRYPTION_KEY_FILE_NAME,
  KeyEncryptionKeyInvalid,
  keyEncryptionKeyFromFile
} from "./KeyEncryptionKeys.js"
export { SqlSigningKeysLive, RETIRED_KEY_GRACE_MS } from "./SigningKeys.js"
export { SqlStorageHealthLive } from "./StorageHealth.js"
export { SqlTokenStoreLive } from "./TokenStore.js"
export { driverReason } from "./Unavailable.js"
