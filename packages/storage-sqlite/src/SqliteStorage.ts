/** The embedded default: every storage port on one SQLite file, migrated when the layer starts. */
import type { StorageUnavailable } from "@ridequote/core"
import { migrate, SqlStorageLive } from "@ridequote/storage-sql"
import type { SqlStorageOptions, StoragePorts } from "@ridequote/storage-sql"
import { Effect, Layer } from "effect"
import { auditWriterThread } from "./AuditWriterThread.js"
import { isFile, SqliteClientLive } from "./SqliteClient.js"

/**
 * What `SqliteStorageLive` needs: the file, and the same storage settings as the SQL layer
 * except the access feed (SQLite has no wake-ups; instances poll) and where audit batches commit
 * and retention deletes, which `auditWriter` chooses instead.
 */
export interface SqliteStorageOptions
  extends Omit<SqlStorageOptions, "accessFeed" | "auditCommit" | "auditBatchesInFlight" | "auditDeleteBatch">
{
  /** Path of the database file; its directory is created when missing. */
  readonly filename: string
  /**
   * Where audit batches commit: `"thread"` (default for a file) on a writer thread with its own
   * connection, so fsyncs never hold the event loop; `"connection"` on the main connection (the
   * only choice for `:memory:` and `file:` URIs, which a second connection cannot share).
   */
  readonly auditWriter?: "thread" | "connection" | undefined
}

/**
 * Opens (or creates) the file, applies pending migrations, and provides all six ports. Closing
 * the layer commits the queued audit appends, then closes the connection. On a file, audit
 * appends and retention's deletes run on one writer thread (`auditWriter`, default "thread").
 */
export const SqliteStorageLive = (options: SqliteStorageOptions): Layer.Layer<StoragePorts, StorageUnavailable> => {
  const { auditWriter, filename, ...storage } = options
  const onThread = (auditWriter ?? "thread") === "thread" && isFile(filename)
  // Started after the migrations (its statements need the tables); it stops after everything
  // built on it, so the audit log's last commits still reach it.
  const ports = onThread
    ? Layer.unwrapScoped(Effect.map(auditWriterThread(filename), (writer) =>
      SqlStorageLive({ ...storage, auditCommit: Effect.succeed(writer.commit), auditDeleteBatch: writer.deleteBatch })))
    : SqlStorageLive(storage)
  return ports.pipe(Layer.provide(Layer.effectDiscard(migrate).pipe(Layer.provideMerge(SqliteClientLive(filename)))))
}
