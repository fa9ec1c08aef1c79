/**
 * What storage may forget. Nothing is needed of a token once it can no longer verify, and a
 * feed row matters only to a reader whose cursor is older than it; no token outlives the
 * maximum lifetime (366 days), so rows older than that are dropped. Expired tokens are kept a
 * week more, so a revoke naming one that just expired still answers "0 revoked", not 404.
 *
 * Audit entries are kept forever unless the operator sets a retention (in days); then entries
 * older than that are deleted oldest first in small batches, each its own short transaction,
 * resting between batches nine times as long as the last one took, so neither SQLite's single
 * writer nor PostgreSQL's row locks hold up the quotes being recorded for more than a tenth of
 * the time.
 *
 * Runs hourly in the background of each process (deletes are idempotent across processes).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { MAX_TOKEN_TTL_SECONDS } from "@ridequote/core"
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

/** What storage may delete besides expired rows; the operator's choice (RIDEQUOTE_AUDIT_RETENTION_DAYS). */
export interface RetentionOptions {
  /** Delete audit entries received more than this many days ago; absent keeps them all. */
  readonly auditRetentionDays?: number | undefined
}

const decodeCount = Schema.decodeUnknown(Schema.Array(Schema.Struct({ n: DbInt })))

/**
 * Time retention rests between two delete batches, per millisecond the last batch took: 9, so
 * that deleting holds the connection (and, on SQLite, the event loop and the write lock) at
 * most a tenth of the time while quotes arrive. At ~10-20 µs a row that still deletes 5,000+
 * rows a second, more than one core can quote (docs/performance.md, "Retention that keeps up").
 */
export const AUDIT_DELETE_REST_PER_MS = 9

/** How `pruneAudit` runs its batches: their size, and what it does between two of them. */
export interface PruneOptions {
  /** Rows per delete statement. */
  readonly batch?: number | undefined
  /** Run after every full batch with the milliseconds it took (e.g. a proportional sleep). */
  readonly rest?: ((batchMs: number) => Effect.Effect<void>) | undefined
}

/** Sleeps AUDIT_DELETE_REST_PER_MS times the batch's duration: the pace of the background retention. */
export const restBetweenBatches = (batchMs: number): Effect.Effect<void> =>
  batchMs > 0 ? Effect.sleep(Duration.millis(batchMs * AUDIT_DELETE_REST_PER_MS)) : Effect.yieldNow()

/**
 * Deletes audit entries received before `beforeMs`, `batch` rows per statement, until none is
 * left; returns how many went. The subquery walks the `audit_received` index oldest first and
 * names rows by `seq`, the table's own key (a form both dialects accept; neither allows LIMIT
 * on DELETE by default). Each statement is its own short transaction; `rest` runs between them.
 */
export const pruneAudit = (beforeMs: number, options: PruneOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const batch = Math.max(1, options.batch ?? AUDIT_DELETE_BATCH)
    let deleted = 0
    for (;;) {
      // Nanoseconds: a batch takes a few milliseconds, and whole milliseconds would round some to 0.
      const started = yield* Clock.currentTimeNanos
      const rows = yield* sql`DELETE FROM audit WHERE seq IN (
          SELECT seq FROM audit WHERE received_at_ms < ${beforeMs} ORDER BY received_at_ms LIMIT ${batch}
        ) RETURNING 1 AS n`
      deleted += rows.length
      if (rows.length < batch) return deleted
      if (options.rest !== undefined) yield* options.rest(Number((yield* Clock.currentTimeNanos) - started) / 1e6)
    }
  }).pipe(orUnavailable("audit retention"))

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
          pruneAudit(nowMs - Duration.toMillis(Duration.days(options.auditRetentionDays)), { rest: restBetweenBatches })
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
