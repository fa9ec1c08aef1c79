/** The embedded default: every storage port on one SQLite file, migrated when the layer starts. */
import type { StorageUnavailable } from "@ridequote/core"
import { migrate, SqlStorageLive } from "@ridequote/storage-sql"
import type { StoragePorts } from "@ridequote/storage-sql"
import { Layer } from "effect"
import type { Redacted } from "effect"
import { SqliteClientLive } from "./SqliteClient.js"

export interface SqliteStorageOptions {
  /** Path of the database file; its directory is created when missing. */
  readonly filename: string
  /** RIDEQUOTE_JWT_SECRET (≥ 32 bytes): one fixed signing key instead of keys stored in the file. */
  readonly jwtSecret?: Redacted.Redacted<string> | undefined
  /** Upper bound on the rows of one audit group-commit transaction. */
  readonly auditMaxBatch?: number | undefined
}

/**
 * Opens (or creates) the file, applies pending migrations, and provides all six ports. Closing
 * the layer commits the queued audit appends, then closes the connection.
 */
export const SqliteStorageLive = (options: SqliteStorageOptions): Layer.Layer<StoragePorts, StorageUnavailable> =>
  SqlStorageLive({ jwtSecret: options.jwtSecret, auditMaxBatch: options.auditMaxBatch }).pipe(
    Layer.provide(Layer.effectDiscard(migrate).pipe(Layer.provideMerge(SqliteClientLive(options.filename))))
  )
