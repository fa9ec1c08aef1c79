/**
 * The SQLite connection ridequote runs on: the libsql driver (Driver.ts) through our own
 * SqlClient (LibsqlClient.ts), in WAL mode with the pragmas below applied to its one connection.
 */
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import { StorageUnavailable } from "@ridequote/core"
import { migrate } from "@ridequote/storage-sql"
import * as LibsqlClient from "./LibsqlClient.js"
import { Cause, Effect, Layer } from "effect"
import type { SqlError } from "@effect/sql/SqlError"

/** How long a write waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000

/**
 * - `busy_timeout` (first, so that the pragmas below wait too): several `serve` processes and
 *   the CLI share one file; a writer waits for the lock rather than failing at once. (The
 *   driver is synchronous: the wait blocks this process's event loop, so long transactions
 *   elsewhere are felt here.)
 * - `journal_mode = WAL`: readers never block the writer; several processes share the file.
 *   (`:memory:` has no WAL: SQLite answers "memory" and carries on.)
 * - `synchronous = FULL`: in WAL mode NORMAL may lose the last commits on power loss, and an
 *   acknowledged audit entry must survive that; group commit amortises the extra fsync.
 * - `foreign_keys = ON`: SQLite leaves REFERENCES unchecked unless asked.
 */
const applyPragmas = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  yield* sql`PRAGMA journal_mode = WAL`
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

const cannotOpen = (filename: string) => (cause: Cause.Cause<StorageUnavailable | SqlError>) => {
  const error = Cause.squash(cause)
  return Layer.fail(
    error instanceof StorageUnavailable
      ? error
      : new StorageUnavailable({
        message: `cannot open the SQLite database ${filename}: ${error instanceof Error ? error.message : String(error)}`
      })
  )
}

/**
 * The SqlClient on `filename`, directory created if missing. Its transactions begin IMMEDIATE
 * (they take the write lock first, waiting under the busy timeout), so several processes may
 * run transactions that read before they write on one file.
 */
export const SqliteClientLive = (filename: string): Layer.Layer<SqlClient.SqlClient, StorageUnavailable> =>
  Layer.effectDiscard(applyPragmas).pipe(
    Layer.provideMerge(LibsqlClient.layer({ filename, timeoutMs: BUSY_TIMEOUT_MS })),
    Layer.provide(Layer.effectDiscard(createParentDirectory(filename))),
    Layer.catchAllCause(cannotOpen(filename))
  )

/** `ridequote migrate`: brings the file's schema up to date and closes it. */
export const migrateSqlite = (filename: string): Effect.Effect<void, StorageUnavailable> =>
  migrate.pipe(Effect.provide(SqliteClientLive(filename)))
