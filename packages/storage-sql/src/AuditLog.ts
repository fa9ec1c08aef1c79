/**
 * AuditLog over SQL. Appends go through group commit (one transaction per burst, each append
 * answered only after its commit). Pages are keyset seeks on
 * `(account_id, received_at_ms DESC, request_id DESC)`: constant cost at any depth, where
 * OFFSET grows with it and the OR-expanded cursor makes SQLite sort in a temp B-tree.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { AuditDone, AuditPage, AuditPageJson, AuditQuery, AuditRecord, RequestId } from "@ridequote/core"
import { AuditEntry, AuditLog, MAX_AUDIT_PAGE_SIZE, StorageUnavailable, trustedDecoder, trustedJson } from "@ridequote/core"
import { DateTime, Effect, Layer, Metric, Schema } from "effect"
import type { Scope } from "effect"
import { DbInt, millisOf } from "./Columns.js"
import type { Dialect } from "./Dialect.js"
import { chunkRows, dialect } from "./Dialect.js"
import { makeGroupCommit } from "./GroupCommit.js"
import type { CallbackCommit } from "./GroupCommit.js"
import { orUnavailable } from "./Unavailable.js"

/** Appends waiting for their transaction to commit (rendered on GET /metrics). */
export const auditQueueDepth = Metric.gauge("ridequote_audit_queue_depth", {
  description: "Audit appends queued or being committed, not yet acknowledged"
})

/** One audit row as stored. */
export interface AuditRow {
  readonly request_id: string
  readonly account_id: string
  readonly received_at_ms: number
  /** The wire entry (requestId, receivedAt, request, decision) as JSON. */
  readonly entry: string
}

const COLUMNS = 4

/**
 * The audit's unique key (the page index): the same request recorded twice is the same account,
 * time and id, so a retried append is skipped. The request id alone is not indexed: a random key
 * scattered every append over an index larger than the page cache (migration 4).
 */
export const AUDIT_KEY = "(account_id, received_at_ms, request_id)"

/**
 * Entries are built by core and read back from our own table: encoded and decoded without
 * re-checking every refinement (core's `trustedJson`/`trustedDecoder`); a page of 50 full
 * entries through `Schema.decodeUnknown(parseJson(AuditEntry))` cost ~3 ms, the SQL 0.1 ms.
 */
const entryJson = trustedJson(AuditEntry)
const decodeEntry = trustedDecoder(AuditEntry)
/** What a page reads: the stored wire JSON, and the two columns that make the next cursor. */
const PageRows = Schema.Array(Schema.Struct({ request_id: Schema.String, received_at_ms: DbInt, entry: Schema.String }))
type PageRow = typeof PageRows.Type[number]

const corruptRow = () =>
  new StorageUnavailable({ message: "storage failed during audit page: a stored row is not a valid audit entry" })

const decodeEntries = (rows: ReadonlyArray<PageRow>) =>
  Effect.try({
    try: () => rows.map((row) => decodeEntry(JSON.parse(row.entry) as typeof AuditEntry.Encoded)),
    catch: corruptRow
  })

const toRow = (record: AuditRecord): AuditRow => ({
    request_id: record.requestId,
    account_id: record.accountId,
    received_at_ms: millisOf(record.receivedAt),
    // The record is an entry plus its owner; the writer takes the entry's fields only.
    entry: entryJson(record)
  })

/**
 * One transaction for the whole batch, in multi-row INSERTs under the bind-parameter limit. An
 * entry already stored (same account, time and request id) is skipped, so retrying an append whose outcome was unknown is safe
 * and one duplicate cannot fail everybody else's batch.
 *
 * A batch that fits one statement (up to 500 rows) is that statement alone: a single INSERT is
 * atomic and durable by itself in both dialects, and on PostgreSQL skipping BEGIN and COMMIT
 * saves two of its three round trips per batch.
 */
const commitRows = (sql: SqlClient.SqlClient, d: Dialect) => (rows: ReadonlyArray<AuditRow>) => {
  const chunks = chunkRows(rows, COLUMNS, d.maxBindParameters)
  const insert = (chunk: ReadonlyArray<AuditRow>) =>
    sql`INSERT INTO audit ${sql.insert(chunk.map((row) => ({ ...row })))} ON CONFLICT ${sql.literal(AUDIT_KEY)} DO NOTHING`
  const [only] = chunks
  const all = chunks.length === 1 && only !== undefined
    ? Effect.asVoid(insert(only))
    : Effect.forEach(chunks, insert, { discard: true }).pipe(sql.withTransaction)
  return all.pipe(orUnavailable("audit append"))
}

const pageLimit = (query: AuditQuery): number => Math.max(1, Math.min(MAX_AUDIT_PAGE_SIZE, Math.floor(query.limit)))

/**
 * One page, newest first, plus one row to tell whether another page follows. The account is
 * always in the WHERE clause (tenant isolation); `from` is inclusive, `to` exclusive.
 */
export const pageStatement = (sql: SqlClient.SqlClient, query: AuditQuery) => {
  const conditions = [sql`account_id = ${query.accountId}`]
  if (query.from !== undefined) conditions.push(sql`received_at_ms >= ${millisOf(query.from)}`)
  if (query.to !== undefined) conditions.push(sql`received_at_ms < ${millisOf(query.to)}`)
  if (query.after !== undefined) {
    // A row value, not `a < x OR (a = x AND b < y)`: only this form seeks the index.
    conditions.push(sql`(received_at_ms, request_id) < (${millisOf(query.after.receivedAt)}, ${query.after.requestId})`)
  }
  return sql`SELECT request_id, received_at_ms, entry FROM audit WHERE ${sql.and(conditions)}
    ORDER BY received_at_ms DESC, request_id DESC LIMIT ${pageLimit(query) + 1}`
}

/**
 * Commits a batch of rows in one transaction, answering only after the commit is durable: as an
 * effect, or in callback form (`CallbackCommit`) for a committer that is callback-based itself.
 */
export type AuditCommit =
  | ((rows: ReadonlyArray<AuditRow>) => Effect.Effect<void, StorageUnavailable>)
  | CallbackCommit<AuditRow>

/** Settings of `SqlAuditLogLive`; the defaults suit any dialect. */
export interface AuditLogOptions {
  /** Upper bound on the rows of one group-commit transaction. */
  readonly maxBatch?: number | undefined
  /**
   * Where batches are committed, built in the log's scope; default: on the SqlClient. SQLite
   * uses a writer thread (`@ridequote/storage-sqlite`), so fsyncs do not hold the event loop.
   */
  readonly commit?: Effect.Effect<AuditCommit, StorageUnavailable, Scope.Scope> | undefined
  /**
   * Batches committing at once (default 1). More than one only where the commit can run
   * batches side by side, e.g. each on a pooled PostgreSQL connection; a retried append is still
   * skipped by the unique key whichever batch commits first.
   */
  readonly batchesInFlight?: number | undefined
}

export const makeAuditLog = (
  options: AuditLogOptions = {}
): Effect.Effect<AuditLog, StorageUnavailable, SqlClient.SqlClient | Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const d = yield* dialect
    // Built before the group commit: its finalizer (drain the queue) then runs first.
    const commit = options.commit === undefined ? commitRows(sql, d) : yield* options.commit
    const group = yield* makeGroupCommit({
      commit,
      depth: auditQueueDepth,
      maxBatch: options.maxBatch,
      maxInFlight: options.batchesInFlight
    })

    const append = (record: AuditRecord) => Effect.suspend(() => group.submit(toRow(record)))
    // The same queue and batches, answered by callback (the port's `submit`).
    const submit = (record: AuditRecord, done: AuditDone) => group.enqueue(toRow(record), done)

    /** The page's rows (at most `limit`) and the cursor after them when more follow. */
    const pageRows = (query: AuditQuery) =>
      Effect.gen(function*() {
        const limit = pageLimit(query)
        const rows = yield* pageStatement(sql, query).pipe(Effect.flatMap(Schema.decodeUnknown(PageRows)))
        const last = rows[limit - 1]
        return {
          rows: rows.length > limit ? rows.slice(0, limit) : rows,
          next: rows.length > limit && last !== undefined
            ? { receivedAt: DateTime.unsafeMake(last.received_at_ms), requestId: last.request_id as RequestId }
            : undefined
        }
      })

    const pageJson = (query: AuditQuery) =>
      Effect.map(pageRows(query), ({ next, rows }): AuditPageJson => ({ entries: rows.map((row) => row.entry), next })).pipe(
        orUnavailable("audit page")
      )

    const page = (query: AuditQuery) =>
      Effect.flatMap(pageRows(query), ({ next, rows }) =>
        Effect.map(decodeEntries(rows), (entries): AuditPage => ({ entries, next }))).pipe(orUnavailable("audit page"))

    return AuditLog.of({ append, submit, page, pageJson })
  })

/**
 * `AuditLog` on the `audit` table (needs a `SqlClient`). Appends are group-committed and
 * answered once durable; closing the layer commits everything queued first. Fails with
 * `StorageUnavailable` only when `options.commit` cannot be built (e.g. SQLite's writer thread).
 */
export const SqlAuditLogLive = (
  options: AuditLogOptions = {}
): Layer.Layer<AuditLog, StorageUnavailable, SqlClient.SqlClient> =>
  Layer.scoped(AuditLog, makeAuditLog(options))
