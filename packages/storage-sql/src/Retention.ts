/**
 * What storage may forget. Nothing is needed of a token once it can no longer verify, and a
 * feed row matters only to a reader whose cursor is older than it; no token outlives the
 * maximum lifetime (366 days), so rows older than that are dropped. Expired tokens are kept a
 * week more, so a revoke naming one that just expired still answers "0 revoked", not 404.
 * Runs hourly in the background of each process (deletes are idempotent across processes).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { MAX_TOKEN_TTL_SECONDS } from "@ridequote/core"
import { Clock, Duration, Effect, Layer } from "effect"
import { orUnavailable } from "./Unavailable.js"

export const FEED_RETENTION_MS = MAX_TOKEN_TTL_SECONDS * 1000
export const EXPIRED_TOKEN_RETENTION_MS = Duration.toMillis(Duration.days(7))
export const PRUNE_INTERVAL = Duration.hours(1)

/** Deletes feed rows and expired tokens past their retention at `nowMs`. */
export const prune = (nowMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM access_changes WHERE at_ms < ${nowMs - FEED_RETENTION_MS}`
    yield* sql`DELETE FROM tokens WHERE expires_at_ms < ${nowMs - EXPIRED_TOKEN_RETENTION_MS}`
  }).pipe(orUnavailable("retention"))

/** Prunes at start and then every hour; a failure is logged and retried at the next round. */
export const RetentionLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.scopedDiscard(
  Effect.forkScoped(
    Clock.currentTimeMillis.pipe(
      Effect.flatMap(prune),
      Effect.catchAll((error) => Effect.logWarning("storage retention failed; retrying next round", error)),
      Effect.zipRight(Effect.sleep(PRUNE_INTERVAL)),
      Effect.forever
    )
  )
)
