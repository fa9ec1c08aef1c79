/**
 * @ridequote/storage-sql — core's storage ports on @effect/sql, written once for SQLite and
 * PostgreSQL (dialect differences live in `Dialect`). Bring a `SqlClient`; run `migrate`; then
 * provide `SqlStorageLive`.
 */
export { migrate, migrations } from "./Migrations.js"
export { SqlStorageLive } from "./SqlStorage.js"
export type { SqlStorageOptions, StoragePorts } from "./SqlStorage.js"

export { SqlAccessFeedLive, FEED_BATCH } from "./AccessFeed.js"
export { SqlAccountStoreLive } from "./AccountStore.js"
export { auditQueueDepth, pageStatement as auditPageStatement, SqlAuditLogLive } from "./AuditLog.js"
export type { AuditLogOptions } from "./AuditLog.js"
export { makeGroupCommit } from "./GroupCommit.js"
export type { GroupCommit, GroupCommitOptions } from "./GroupCommit.js"
export { dialect, chunkRows } from "./Dialect.js"
export type { Dialect } from "./Dialect.js"
export { prune, RetentionLive, FEED_RETENTION_MS, EXPIRED_TOKEN_RETENTION_MS } from "./Retention.js"
export { SqlSigningKeysLive, RETIRED_KEY_GRACE_MS } from "./SigningKeys.js"
export { SqlStorageHealthLive } from "./StorageHealth.js"
export { SqlTokenStoreLive } from "./TokenStore.js"
