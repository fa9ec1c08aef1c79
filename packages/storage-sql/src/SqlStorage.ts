/** Every storage port of core over one `SqlClient`. */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { StoragePorts, StorageUnavailable } from "@ridequote/core"
import { Layer } from "effect"
import type { Redacted } from "effect"
import { SqlAccessFeedLive } from "./AccessFeed.js"
import { SqlAccountStoreLive } from "./AccountStore.js"
import { SqlAuditLogLive } from "./AuditLog.js"
import { RetentionLive } from "./Retention.js"
import { SqlSigningKeysLive } from "./SigningKeys.js"
import { SqlStorageHealthLive } from "./StorageHealth.js"
import { SqlTokenStoreLive } from "./TokenStore.js"

export type { StoragePorts }

export interface SqlStorageOptions {
  /** RIDEQUOTE_JWT_SECRET (≥ 32 bytes): one fixed signing key instead of the `signing_keys` table. */
  readonly jwtSecret?: Redacted.Redacted<string> | undefined
  /** Upper bound on the rows of one audit group-commit transaction. */
  readonly auditMaxBatch?: number | undefined
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
    SqlAccessFeedLive,
    SqlAuditLogLive({ maxBatch: options.auditMaxBatch }),
    SqlSigningKeysLive(options.jwtSecret),
    SqlStorageHealthLive,
    RetentionLive
  )
