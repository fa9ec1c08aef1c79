/** Every storage port of core over one `SqlClient`. */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { StoragePorts, StorageUnavailable } from "@ridequote/core"
import { Layer } from "effect"
import type { Redacted } from "effect"
import { SqlAccessFeedLive } from "./AccessFeed.js"
import { SqlAccountStoreLive } from "./AccountStore.js"
import { SqlAuditLogLive } from "./AuditLog.js"
import type { AuditLogOptions } from "./AuditLog.js"
import type { AccessFeed } from "@ridequote/core"
import { RetentionLive } from "./Retention.js"
import type { DeleteAuditBatch } from "./Retention.js"
import type { KeyEncryption } from "./SigningKeyCipher.js"
import { SqlSigningKeysLive } from "./SigningKeys.js"
import { SqlStorageHealthLive } from "./StorageHealth.js"
import { SqlTokenStoreLive } from "./TokenStore.js"

export type { StoragePorts }

/**
 * Settings of `SqlStorageLive`, all optional: without any, signing keys live unsealed in the
 * `signing_keys` table and audit entries are kept for ever. Dialect adapters fill in
 * `auditCommit` and `accessFeed`; the others come from the operator's environment.
 */
export interface SqlStorageOptions {
  /** RIDEQUOTE_JWT_SECRET (≥ 32 bytes): one fixed signing key instead of the `signing_keys` table. */
  readonly jwtSecret?: Redacted.Redacted<string> | undefined
  /** Upper bound on the rows of one audit group-commit transaction. */
  readonly auditMaxBatch?: number | undefined
  /** Where audit batches commit (default: on the SqlClient; SQLite passes its writer thread). */
  readonly auditCommit?: AuditLogOptions["commit"]
  /** Audit batches committing at once (default 1; see `AuditLogOptions.batchesInFlight`). */
  readonly auditBatchesInFlight?: number | undefined
  /** Delete audit entries older than this many days (in small batches, hourly); absent keeps them. */
  readonly auditRetentionDays?: number | undefined
  /** Where retention's audit delete batches run (default: on the SqlClient; SQLite passes its writer thread). */
  readonly auditDeleteBatch?: DeleteAuditBatch | undefined
  /** Seal stored signing keys under this key-encryption key (RIDEQUOTE_KEY_ENCRYPTION_KEY). */
  readonly keyEncryption?: KeyEncryption | undefined
  /** The access feed, when a dialect adds to the plain SQL reader (PostgreSQL: LISTEN/NOTIFY wake-ups). */
  readonly accessFeed?: Layer.Layer<AccessFeed, StorageUnavailable, SqlClient.SqlClient> | undefined
}

/**
 * All six ports. Expects a migrated database (see `migrate`). Closing the layer first commits
 * every audit append already queued.
 */
export const SqlStorageLive = (
  options: SqlStorageOptions = {}
): Layer.Layer<StoragePorts, StorageUnavailable, SqlClient.SqlClient> =>
  Layer.mergeAll(
    SqlAccountStoreLive,
    SqlTokenStoreLive,
    options.accessFeed ?? SqlAccessFeedLive,
    SqlAuditLogLive({
      maxBatch: options.auditMaxBatch,
      commit: options.auditCommit,
      batchesInFlight: options.auditBatchesInFlight
    }),
    SqlSigningKeysLive(options.jwtSecret, options.keyEncryption),
    SqlStorageHealthLive,
    RetentionLive({ auditRetentionDays: options.auditRetentionDays, deleteAuditBatch: options.auditDeleteBatch })
  )
