/**
 * Audit commits straight on the pool's node-postgres connections, in callback form (storage-sql's
 * `CallbackCommit`), as SQLite's writer thread does: no fiber and no @effect/sql statement per
 * batch on the event loop that serves the quotes.
 *
 * - A batch is one multi-row INSERT (up to 500 rows), which PostgreSQL commits by itself: with
 *   `synchronous_commit` on (the server's default, which this never changes) it answers only
 *   after the commit's WAL is flushed, so an append is still acknowledged once durable. A batch
 *   of more rows is several INSERTs in one transaction.
 * - Statements of up to `NAMED_ROWS` rows are named prepared statements, one per row count, so
 *   each connection parses and plans each shape once; measured here, planning a fresh 50-row
 *   INSERT cost the backend ~5 µs a row, a third of its work on the row
 *   (docs/performance.md, "Throughput that holds"). Larger batches (a backlog) stay unnamed: a
 *   cached plan's memory grows with its row count (~28 MB a connection for every count up to 200).
 * - An entry already stored (a retried append) is skipped by the audit's unique key, as on the
 *   SQL path.
 */
import type { AuditDone } from "@ridequote/core"
import { StorageUnavailable } from "@ridequote/core"
import { AUDIT_KEY, chunkRows } from "@ridequote/storage-sql"
import type { AuditRow, CallbackCommit } from "@ridequote/storage-sql"
import type * as Pg from "pg"

/** Row counts up to this one run as named prepared statements (see above). */
export const NAMED_ROWS = 64

const COLUMNS = 4
/** PostgreSQL's limit on bind parameters in one statement. */
const MAX_BIND_PARAMETERS = 65_535

const failed = (error: unknown) =>
  new StorageUnavailable({
    message: `storage failed during audit append: ${error instanceof Error ? error.message : String(error)}`
  })

/** node-postgres answers `null` (or nothing) for no error. */
const isError = (error: Error | null | undefined): error is Error => error !== null && error !== undefined

const texts: Array<string> = []

/** `INSERT … VALUES ($1,$2,$3,$4),(…) ON CONFLICT … DO NOTHING` for `n` rows, built once per n. */
const insertText = (n: number): string => {
  const cached = texts[n]
  if (cached !== undefined) return cached
  const values: Array<string> = []
  for (let i = 0; i < n; i++) {
    const p = i * COLUMNS
    values.push(`($${p + 1},$${p + 2},$${p + 3},$${p + 4})`)
  }
  const text = `INSERT INTO audit (request_id, account_id, received_at_ms, entry) VALUES ${values.join(",")} ` +
    `ON CONFLICT ${AUDIT_KEY} DO NOTHING`
  texts[n] = text
  return text
}

const insertQuery = (rows: ReadonlyArray<AuditRow>): Pg.QueryConfig => {
  const values: Array<string | number> = new Array(rows.length * COLUMNS)
  let p = 0
  for (const row of rows) {
    values[p++] = row.request_id
    values[p++] = row.account_id
    values[p++] = row.received_at_ms
    values[p++] = row.entry
  }
  const text = insertText(rows.length)
  return rows.length <= NAMED_ROWS ? { name: `ridequote_audit_insert_${rows.length}`, text, values } : { text, values }
}

/** Several INSERTs in one transaction on one connection; ROLLBACK on the first failure. */
const inTransaction = (pool: Pg.Pool, chunks: ReadonlyArray<ReadonlyArray<AuditRow>>, done: AuditDone): void => {
  pool.connect((connectError, client, release) => {
    if (isError(connectError) || client === undefined) return done(failed(connectError ?? "no connection"))
    const fail = (error: unknown) =>
      client.query("ROLLBACK", (rollbackError) => {
        // A connection whose rollback failed is not returned to the pool.
        release(isError(rollbackError) ? rollbackError : undefined)
        done(failed(error))
      })
    const next = (i: number): void => {
      const chunk = chunks[i]
      if (chunk === undefined) {
        client.query("COMMIT", (error) => {
          release(isError(error) ? error : undefined)
          done(isError(error) ? failed(error) : undefined)
        })
        return
      }
      client.query(insertQuery(chunk), (error) => (isError(error) ? fail(error) : next(i + 1)))
    }
    client.query("BEGIN", (error) => (isError(error) ? fail(error) : next(0)))
  })
}

/**
 * The audit log's commit on `pool` (a pool on the migrated database, open for as long as the log
 * is): each batch on a connection of its own, so the group commit may run several at once.
 */
export const postgresAuditCommit = (pool: Pg.Pool): CallbackCommit<AuditRow> => ({
  withCallback: (rows, done) => {
    const chunks = chunkRows(rows, COLUMNS, MAX_BIND_PARAMETERS)
    const [only] = chunks
    if (chunks.length === 1 && only !== undefined) {
      pool.query(insertQuery(only), (error) => done(isError(error) ? failed(error) : undefined))
      return
    }
    inTransaction(pool, chunks, done)
  }
})
