/**
 * The SQLite connection ridequote runs on: the libsql driver (Driver.ts) through our own
 * SqlClient (LibsqlClient.ts), in WAL mode with the pragmas below applied to its one connection.
 */
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import { StorageUnavailable } from "@ridequote/core"
import { driverReason, migrate } from "@ridequote/storage-sql"
import * as LibsqlClient from "./LibsqlClient.js"
import { Cause, Duration, Effect, Layer, Schedule } from "effect"
import { SqlError } from "@effect/sql/SqlError"

/** How long a write waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000

/** Whether a statement failed on another connection's lock (SQLITE_BUSY or SQLITE_LOCKED and their extended codes). */
const isBusy = (error: SqlError): boolean => {
  const code = (error.cause as { code?: unknown } | undefined)?.code
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
}

/**
 * Switching a file to WAL can be refused at once, without the busy timeout's wait: SQLite
 * returns SQLITE_BUSY rather than risk a deadlock when another connection holds the write lock
 * of a file still in rollback-journal mode, which is what a second process meets when it opens
 * a new file while the first is switching it (seen once in CI: two `serve` started together on
 * a fresh file, one exited "cannot open the SQLite database"). So the switch is retried every
 * 20 ms for as long as the busy timeout would have waited.
 */
const LOCK_RETRY = Schedule.spaced(Duration.millis(20)).pipe(Schedule.upTo(Duration.millis(BUSY_TIMEOUT_MS)))

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
  yield* sql`PRAGMA journal_mode = WAL`.pipe(Effect.retry({ schedule: LOCK_RETRY, while: isBusy }))
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
        message: `cannot open the SQLite database ${filename}: ${
          error instanceof SqlError ? driverReason(error) : error instanceof Error ? error.message : String(error)
        }`
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
