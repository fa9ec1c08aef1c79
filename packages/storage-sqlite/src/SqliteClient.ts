/**
 * The SQLite connection ridequote runs on: better-sqlite3 through @effect/sql-sqlite-node, in
 * WAL mode (set by the client) with the pragmas below applied to its one connection.
 */
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { StorageUnavailable } from "@ridequote/core"
import { migrate } from "@ridequote/storage-sql"
import { Cause, Effect, Layer } from "effect"
import type { ConfigError } from "effect"
import type { SqlError } from "@effect/sql/SqlError"

/** How long a write waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000

/**
 * - `busy_timeout`: several `serve` processes and the CLI share one file; a writer waits for
 *   the lock rather than failing at once. (better-sqlite3 is synchronous: the wait blocks
 *   this process's event loop, so long transactions elsewhere are felt here.)
 * - `synchronous = FULL`: in WAL mode NORMAL may lose the last commits on power loss, and an
 *   acknowledged audit entry must survive that; group commit amortises the extra fsync.
 * - `foreign_keys = ON`: SQLite leaves REFERENCES unchecked unless asked.
 */
const applyPragmas = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  yield* sql`PRAGMA synchronous = FULL`
  yield* sql`PRAGMA foreign_keys = ON`
})

/** A path on disk, as opposed to `:memory:` or a `file:` URI. */
export const isFile = (filename: string): boolean => filename !== ":memory:" && !filename.startsWith("file:")

const createParentDirectory = (filename: string) =>
  Effect.try({
    try: () => {
      if (isFile(filename)) mkdirSync(dirname(filename), { recursive: true })
    },
    catch: (cause) =>
      new StorageUnavailable({
        message: `cannot create the directory of ${filename}: ${cause instanceof Error ? cause.message : String(cause)}`
      })
  })

const cannotOpen = (filename: string) => (cause: Cause.Cause<StorageUnavailable | ConfigError.ConfigError | SqlError>) => {
  const error = Cause.squash(cause)
  return Layer.fail(
    error instanceof StorageUnavailable
      ? error
      : new StorageUnavailable({
        message: `cannot open the SQLite database ${filename}: ${error instanceof Error ? error.message : String(error)}`
      })
  )
}

/** A SqliteClient (also provided as the generic SqlClient) on `filename`, directory created if missing. */
export const SqliteClientLive = (
  filename: string
): Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient, StorageUnavailable> =>
  Layer.effectDiscard(applyPragmas).pipe(
    Layer.provideMerge(SqliteClient.layer({ filename })),
    Layer.provide(Layer.effectDiscard(createParentDirectory(filename))),
    Layer.catchAllCause(cannotOpen(filename))
  )

/** `ridequote migrate`: brings the file's schema up to date and closes it. */
export const migrateSqlite = (filename: string): Effect.Effect<void, StorageUnavailable> =>
  migrate.pipe(Effect.provide(SqliteClientLive(filename)))
