/**
 * What storage may forget. Nothing is needed of a token once it can no longer verify, and a
 * feed row matters only to a reader whose cursor is older than it; no token outlives the
 * maximum lifetime (366 days), so rows older than that are dropped. Expired tokens are kept a
 * week more, so a revoke naming one that just expired still answers "0 revoked", not 404.
 *
 * Audit entries are kept forever unless the operator sets a retention (in days); then entries
 * older than that are deleted oldest first, walking the audit's own key (`seq`, arrival order)
 * in small batches, each its own short transaction. Between batches retention rests nineteen
 * times as long as the last one took in the database, and at least `AUDIT_DELETE_MIN_GAP` from
 * the start of one batch to the next: deleting holds the database at most a twentieth of the
 * time and at most
 * `AUDIT_DELETE_BATCH / AUDIT_DELETE_MIN_GAP` rows a second, whatever the backlog. A dialect
 * may run the batches elsewhere than on the SqlClient (SQLite: on its audit writer thread, so
 * neither a delete nor its fsync ever holds the event loop).
 *
 * Runs hourly in the background of each process (deletes are idempotent across processes).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { MAX_TOKEN_TTL_SECONDS } from "@ridequote/core"
import type { StorageUnavailable } from "@ridequote/core"
import { Clock, Duration, Effect, Layer, Schema } from "effect"
import { DbInt } from "./Columns.js"
import { orUnavailable } from "./Unavailable.js"

/** Age after which a feed row is deleted: the maximum token lifetime, beyond which no reader can still need it. */
export const FEED_RETENTION_MS = MAX_TOKEN_TTL_SECONDS * 1000
/**
 * How long an expired token's row is kept: a week, so revoking a token that just expired still
 * finds it ("0 revoked") instead of answering 404.
 */
export const EXPIRED_TOKEN_RETENTION_MS = Duration.toMillis(Duration.days(7))
export const PRUNE_INTERVAL = Duration.hours(1)
/** Audit rows per delete statement: a few milliseconds of work, one short lock each. */
export const AUDIT_DELETE_BATCH = 500

/**
 * Least time from the start of one delete batch to the start of the next: with batches of
 * `AUDIT_DELETE_BATCH` rows, at most 10,000 rows a second (docs/performance.md, "Retention that
 * keeps up").
 */
export const AUDIT_DELETE_MIN_GAP = Duration.millis(50)

/** What storage may delete besides expired rows; the operator's choice (RIDEQUOTE_AUDIT_RETENTION_DAYS). */
export interface RetentionOptions {
  /** Delete audit entries received more than this many days ago; absent keeps them all. */
  readonly auditRetentionDays?: number | undefined
  /** Where the audit's delete batches run (default: `sqlDeleteAuditBatch` on the SqlClient). */
  readonly deleteAuditBatch?: DeleteAuditBatch | undefined
}

/** One delete batch: among the `limit` entries after `afterSeq` in arrival order, those received before `beforeMs`. */
export interface AuditDeleteRequest {
  readonly beforeMs: number
  /** The walk's position: the batch looks only at entries whose `seq` is greater. */
  readonly afterSeq: number
  readonly limit: number
}

/** What one batch deleted: how many entries, and the greatest `seq` among them (absent when none). */
export interface AuditDeleted {
  readonly deleted: number
  readonly lastSeq: number | undefined
  /**
   * Milliseconds the batch itself held the database, when the runner knows it apart from the
   * wait before it (SQLite's writer thread runs it after the appends posted earlier); otherwise
   * retention paces by the batch's time as it saw it.
   */
  readonly busyMs?: number | undefined
}

/** Runs one delete batch, in a transaction of its own. */
export type DeleteAuditBatch = (request: AuditDeleteRequest) => Effect.Effect<AuditDeleted, StorageUnavailable>

const decodeCount = Schema.decodeUnknown(Schema.Array(Schema.Struct({ n: DbInt })))
const decodeSeqs = Schema.decodeUnknown(Schema.Array(Schema.Struct({ seq: DbInt })))

/**
 * The statement of one batch, in the form both dialects accept (neither allows LIMIT on DELETE
 * by default): the window is the next `limit` rows on the primary key, a range seek that never
 * revisits rows an earlier batch deleted (on PostgreSQL those stay in the index until vacuum).
 */
export const AUDIT_DELETE_STATEMENT = "DELETE FROM audit WHERE seq IN (SELECT seq FROM audit WHERE seq > ? ORDER BY seq LIMIT ?) " +
  "AND received_at_ms < ? RETURNING seq"

/**
 * `DeleteAuditBatch` on the current SqlClient. Retention paces it by its time as the client saw
 * it, commit included: on PostgreSQL a delete batch's commit flushes its WAL (full-page images of
 * the pages it emptied, ~2 KB a row measured), which the quotes' commits then queue behind.
 */
export const sqlDeleteAuditBatch = (sql: SqlClient.SqlClient): DeleteAuditBatch => (request) =>
  sql`DELETE FROM audit WHERE seq IN (
      SELECT seq FROM audit WHERE seq > ${request.afterSeq} ORDER BY seq LIMIT ${request.limit}
    ) AND received_at_ms < ${request.beforeMs} RETURNING seq`.pipe(
    Effect.flatMap(decodeSeqs),
    Effect.map((rows): AuditDeleted => ({
      deleted: rows.length,
      lastSeq: rows.reduce<number | undefined>((max, row) => (max === undefined || row.seq > max ? row.seq : max), undefined)
    })),
    orUnavailable("audit retention")
  )

/**
 * Time retention rests between two delete batches, per millisecond the last batch took: 19, so
 * that deleting holds the database (on SQLite, the audit writer) at most a twentieth of the time
 * while quotes arrive. Nine (a tenth) measured ~×0.88 of the throughput on
 * SQLite, where the writer shares the server's core (docs/performance.md, "Retention that keeps up").
 */
export const AUDIT_DELETE_REST_PER_MS = 19

/** How `pruneAudit` runs its batches: their size, where, and what it does between two of them. */
export interface PruneOptions {
  /** Rows per delete statement. */
  readonly batch?: number | undefined
  /** Run after every full batch with the milliseconds it took (e.g. a proportional sleep). */
  readonly rest?: ((batchMs: number) => Effect.Effect<void>) | undefined
  /** Where each batch runs (default: on the SqlClient). */
  readonly deleteBatch?: DeleteAuditBatch | undefined
}

/**
 * Sleeps AUDIT_DELETE_REST_PER_MS times the batch's duration, and at least what is left of
 * AUDIT_DELETE_MIN_GAP since the batch started: the pace of the background retention.
 */
export const restBetweenBatches = (batchMs: number): Effect.Effect<void> => {
  const restMs = Math.max(batchMs * AUDIT_DELETE_REST_PER_MS, Duration.toMillis(AUDIT_DELETE_MIN_GAP) - batchMs)
  return restMs > 0 ? Effect.sleep(Duration.millis(restMs)) : Effect.yieldNow()
}

/**
 * Deletes audit entries received before `beforeMs`, oldest first, in windows of `batch` entries
 * along `seq` (arrival order), until a window holds none of them (the walk reached entries inside
 * the retention) or the audit ends; returns how many went. A window that also holds newer
 * entries (clocks of several processes a few seconds apart) is deleted from and passed, so an
 * old entry stored after a newer one goes too, as long as the walk gets there; one stored after
 * a whole window of newer entries waits for the next hourly pass, or until those age out as well.
 * `rest` runs after every window that deleted something, with the time the batch held the
 * connection (`AuditDeleted.busyMs`, or as measured here).
 */
export const pruneAudit = (beforeMs: number, options: PruneOptions = {}) =>
  Effect.gen(function*() {
    const deleteBatch = options.deleteBatch ?? sqlDeleteAuditBatch(yield* SqlClient.SqlClient)
    const limit = Math.max(1, options.batch ?? AUDIT_DELETE_BATCH)
    let deleted = 0
    let afterSeq = 0
    for (;;) {
      // Nanoseconds: a batch takes a few milliseconds, and whole milliseconds would round some to 0.
      const started = yield* Clock.currentTimeNanos
      const batch = yield* deleteBatch({ beforeMs, afterSeq, limit })
      if (batch.lastSeq === undefined) return deleted
      deleted += batch.deleted
      afterSeq = batch.lastSeq
      if (options.rest !== undefined) {
        yield* options.rest(batch.busyMs ?? Number((yield* Clock.currentTimeNanos) - started) / 1e6)
      }
    }
  })

/** Audit entries older than `beforeMs` still stored (for tests and operators). */
export const countAuditBefore = (beforeMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`SELECT COUNT(*) AS n FROM audit WHERE received_at_ms < ${beforeMs}`.pipe(
      Effect.flatMap(decodeCount)
    )
    return rows[0]?.n ?? 0
  }).pipe(orUnavailable("audit count"))

/** Deletes feed rows, expired tokens and (with a retention set) old audit entries at `nowMs`. */
export const prune = (nowMs: number, options: RetentionOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM access_changes WHERE at_ms < ${nowMs - FEED_RETENTION_MS}`
    yield* sql`DELETE FROM tokens WHERE expires_at_ms < ${nowMs - EXPIRED_TOKEN_RETENTION_MS}`
  }).pipe(
    orUnavailable("retention"),
    Effect.zipRight(
      options.auditRetentionDays === undefined
        ? Effect.void
        : Effect.asVoid(
          pruneAudit(nowMs - Duration.toMillis(Duration.days(options.auditRetentionDays)), {
            rest: restBetweenBatches,
            deleteBatch: options.deleteAuditBatch
          })
        )
    )
  )

/** Prunes at start and then every hour; a failure is logged and retried at the next round. */
export const RetentionLive = (options: RetentionOptions = {}): Layer.Layer<never, never, SqlClient.SqlClient> =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      Clock.currentTimeMillis.pipe(
        Effect.flatMap((nowMs) => prune(nowMs, options)),
        Effect.catchAll((error) => Effect.logWarning("storage retention failed; retrying next round", error)),
        Effect.zipRight(Effect.sleep(PRUNE_INTERVAL)),
        Effect.forever
      )
    )
  )
