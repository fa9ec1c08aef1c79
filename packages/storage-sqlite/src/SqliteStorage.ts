/** The embedded default: every storage port on one SQLite file, migrated when the layer starts. */
import type { StorageUnavailable } from "@ridequote/core"
import { migrate, SqlStorageLive } from "@ridequote/storage-sql"
import type { SqlStorageOptions, StoragePorts } from "@ridequote/storage-sql"
import { Layer } from "effect"
import { SqliteClientLive } from "./SqliteClient.js"

export interface SqliteStorageOptions extends Omit<SqlStorageOptions, "accessFeed"> {
  /** Path of the database file; its directory is created when missing. */
  readonly filename: string
}

/**
 * Opens (or creates) the file, applies pending migrations, and provides all six ports. Closing
 * the layer commits the queued audit appends, then closes the connection.
 */
export const SqliteStorageLive = (options: SqliteStorageOptions): Layer.Layer<StoragePorts, StorageUnavailable> => {
  const { filename, ...storage } = options
  return SqlStorageLive(storage).pipe(
    Layer.provide(Layer.effectDiscard(migrate).pipe(Layer.provideMerge(SqliteClientLive(filename))))
  )
}
