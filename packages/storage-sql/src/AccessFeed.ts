/**
 * AccessFeed over SQL: `access_changes` read in `seq` order. SQLite has one writer at a time,
 * so `seq` order is commit order. (PostgreSQL assigns a sequence value at INSERT, not at
 * COMMIT; its adapter must account for that before relying on this reader.)
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { AccessChange, AccessFeedStart, FeedCursor } from "@ridequote/core"
import { AccessFeed, AccountId, Jti, KeyId } from "@ridequote/core"
import { Effect, Layer, Schema } from "effect"
import { DbInt } from "./Columns.js"
import { orUnavailable } from "./Unavailable.js"

/** Changes returned by one `since`: bounded, so a far-behind reader catches up in steps. */
export const FEED_BATCH = 10_000

const TokenRevokedRow = Schema.Struct({
  seq: DbInt,
  kind: Schema.Literal("TokenRevoked"),
  account_id: AccountId,
  jti: Jti,
  expires_at_ms: DbInt
})
const AccountChangedRow = Schema.Struct({ seq: DbInt, kind: Schema.Literal("AccountChanged"), account_id: AccountId })
const KeyRetiredRow = Schema.Struct({ seq: DbInt, kind: Schema.Literal("KeyRetired"), jti: KeyId })
const decodeChanges = Schema.decodeUnknown(
  Schema.Array(Schema.Union(TokenRevokedRow, AccountChangedRow, KeyRetiredRow))
)

const HeadRow = Schema.Struct({ head: DbInt })
const decodeHead = Schema.decodeUnknown(Schema.Array(HeadRow))
const decodeRevoked = Schema.decodeUnknown(Schema.Array(Schema.Struct({ jti: Jti, expires_at_ms: DbInt })))

/**
 * The feed reader on the current `SqlClient`, unwrapped so an adapter can extend it before
 * providing it (PostgreSQL adds `wakeups`); `SqlAccessFeedLive` provides it as is.
 */
export const makeAccessFeed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** Head and revocations from one read transaction: nothing committed between them is missed. */
  const start = (nowMs: number) =>
    Effect.gen(function*() {
      const head = yield* sql`SELECT COALESCE(MAX(seq), 0) AS head FROM access_changes`.pipe(Effect.flatMap(decodeHead))
      const revoked = yield* sql`SELECT jti, expires_at_ms FROM tokens
        WHERE revoked_at_ms IS NOT NULL AND expires_at_ms > ${nowMs}`.pipe(Effect.flatMap(decodeRevoked))
      return {
        cursor: head[0]?.head ?? 0,
        revoked: revoked.map((row) => ({ jti: row.jti, expiresAtMs: row.expires_at_ms }))
      } satisfies AccessFeedStart
    }).pipe(sql.withTransaction, orUnavailable("access feed start"))

  const since = (cursor: FeedCursor) =>
    sql`SELECT seq, kind, account_id, jti, expires_at_ms FROM access_changes
        WHERE seq > ${cursor} ORDER BY seq LIMIT ${FEED_BATCH}`.pipe(
      Effect.flatMap(decodeChanges),
      Effect.map((rows) => ({
        cursor: rows.at(-1)?.seq ?? cursor,
        changes: rows.map((row): AccessChange =>
          row.kind === "TokenRevoked"
            ? { _tag: "TokenRevoked", accountId: row.account_id, jti: row.jti, expiresAtMs: row.expires_at_ms }
            : row.kind === "KeyRetired"
            ? { _tag: "KeyRetired", kid: row.jti }
            : { _tag: "AccountChanged", accountId: row.account_id }
        )
      })),
      orUnavailable("access feed read")
    )

  return AccessFeed.of({ start, since })
})

/**
 * `AccessFeed` read from `access_changes`, without wake-ups: the access snapshot polls it. Needs
 * a `SqlClient` on a migrated database.
 */
export const SqlAccessFeedLive: Layer.Layer<AccessFeed, never, SqlClient.SqlClient> = Layer.effect(
  AccessFeed,
  makeAccessFeed
)
