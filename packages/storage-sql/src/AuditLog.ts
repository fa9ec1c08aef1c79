/**
 * AuditLog over SQL. Appends go through group commit (one transaction per burst, each append
 * answered only after its commit). Pages are keyset seeks on
 * `(account_id, received_at_ms DESC, request_id DESC)`: constant cost at any depth, where
 * OFFSET grows with it and the OR-expanded cursor makes SQLite sort in a temp B-tree.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { AuditPage, AuditQuery, AuditRecord } from "@ridequote/core"
import { AuditEntry, AuditLog, MAX_AUDIT_PAGE_SIZE } from "@ridequote/core"
import { Effect, Layer, Metric, Schema } from "effect"
import type { Scope } from "effect"
import { millisOf } from "./Columns.js"
import type { Dialect } from "./Dialect.js"
import { chunkRows, dialect } from "./Dialect.js"
import { makeGroupCommit } from "./GroupCommit.js"
import { orUnavailable, unavailable } from "./Unavailable.js"

/** Appends waiting for their transaction to commit (rendered on GET /metrics). */
export const auditQueueDepth = Metric.gauge("ridequote_audit_queue_depth", {
  description: "Audit appends queued or being committed, not yet acknowledged"
})

interface AuditRow {
  readonly request_id: string
  readonly account_id: string
  readonly received_at_ms: number
  /** The wire entry (requestId, receivedAt, request, decision) as JSON. */
  readonly entry: string
}

const COLUMNS = 4

const encodeEntry = Schema.encode(Schema.parseJson(AuditEntry))
const decodeEntries = Schema.decodeUnknown(Schema.Array(Schema.Struct({ entry: Schema.parseJson(AuditEntry) })))

const toRow = (record: AuditRecord) =>
  Effect.map(
    encodeEntry({
      requestId: record.requestId,
      receivedAt: record.receivedAt,
      ...(record.request !== undefined ? { request: record.request } : {}),
      decision: record.decision
    }),
    (entry): AuditRow => ({
      request_id: record.requestId,
      account_id: record.accountId,
      received_at_ms: millisOf(record.receivedAt),
      entry
    })
  )

/**
 * One transaction for the whole batch, in multi-row INSERTs under the bind-parameter limit. A
 * request id already stored is skipped, so retrying an append whose outcome was unknown is safe
 * and one duplicate cannot fail everybody else's batch.
 */
const commitRows = (sql: SqlClient.SqlClient, d: Dialect) => (rows: ReadonlyArray<AuditRow>) =>
  Effect.forEach(
    chunkRows(rows, COLUMNS, d.maxBindParameters),
    (chunk) =>
      sql`INSERT INTO audit ${sql.insert(chunk.map((row) => ({ ...row })))} ON CONFLICT (request_id) DO NOTHING`,
    { discard: true }
  ).pipe(sql.withTransaction, orUnavailable("audit append"))

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
  return sql`SELECT entry FROM audit WHERE ${sql.and(conditions)}
    ORDER BY received_at_ms DESC, request_id DESC LIMIT ${pageLimit(query) + 1}`
}

export interface AuditLogOptions {
  /** Upper bound on the rows of one group-commit transaction. */
  readonly maxBatch?: number | undefined
}

export const makeAuditLog = (
  options: AuditLogOptions = {}
): Effect.Effect<AuditLog, never, SqlClient.SqlClient | Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const d = yield* dialect
    const group = yield* makeGroupCommit({
      commit: commitRows(sql, d),
      depth: auditQueueDepth,
      maxBatch: options.maxBatch
    })

    const append = (record: AuditRecord) =>
      toRow(record).pipe(
        Effect.mapError((error) => unavailable("audit append", error)),
        Effect.flatMap(group.submit)
      )

    const page = (query: AuditQuery) =>
      Effect.gen(function*() {
        const limit = pageLimit(query)
        const rows = yield* pageStatement(sql, query).pipe(Effect.flatMap(decodeEntries))
        const entries = rows.slice(0, limit).map((row) => row.entry)
        const last = entries.at(-1)
        return {
          entries,
          next: rows.length > limit && last !== undefined
            ? { receivedAt: last.receivedAt, requestId: last.requestId }
            : undefined
        } satisfies AuditPage
      }).pipe(orUnavailable("audit page"))

    return AuditLog.of({ append, page })
  })

export const SqlAuditLogLive = (options: AuditLogOptions = {}): Layer.Layer<AuditLog, never, SqlClient.SqlClient> =>
  Layer.scoped(AuditLog, makeAuditLog(options))
