/**
 * Port: the change feed behind `AccessSnapshot`. Every revocation and account change made by
 * any process sharing the storage appears here, in commit order, after a cursor.
 */
import type { Effect, Stream } from "effect"
import { Context } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { AccountId, Jti, KeyId } from "../Ids.js"

/** One entry of the change feed: a token revoked, or an account changed (status, settings, revoke-all cutoff). */
export type AccessChange =
  | { readonly _tag: "TokenRevoked"; readonly accountId: AccountId; readonly jti: Jti; readonly expiresAtMs: number }
  | { readonly _tag: "AccountChanged"; readonly accountId: AccountId }
  /** A signing key retired at once (`keys retire`): tokens it signed stop verifying everywhere. */
  | { readonly _tag: "KeyRetired"; readonly kid: KeyId }

/** Opaque, monotonically increasing position in the feed. */
export type FeedCursor = number

/** Where a new access snapshot starts reading. */
export interface AccessFeedStart {
  readonly cursor: FeedCursor
  /** Every revoked token not yet expired at `nowMs`. */
  readonly revoked: ReadonlyArray<{ readonly jti: Jti; readonly expiresAtMs: number }>
}

/** The change feed's reader, which storage adapters implement. */
export interface AccessFeed {
  /** Where a fresh snapshot starts: the head of the feed and the revocations still in force. */
  readonly start: (nowMs: number) => Effect.Effect<AccessFeedStart, StorageUnavailable>
  /** Changes after `cursor`, oldest first, and the cursor to ask from next time. */
  readonly since: (
    cursor: FeedCursor
  ) => Effect.Effect<{ readonly cursor: FeedCursor; readonly changes: ReadonlyArray<AccessChange> }, StorageUnavailable>
  /**
   * Optional push: emits when changes may have been committed (e.g. PostgreSQL NOTIFY), and once
   * after every reconnect of the push channel. The snapshot then reads `since` at once. It is
   * only a hint: the feed stays the truth, so a lost hint costs at most one refresh interval.
   * Meant for one consumer (the snapshot built on this feed): adapters may hand each wake-up
   * to whichever reader takes it first.
   */
  readonly wakeups?: Stream.Stream<void> | undefined
}

/** The AccessFeed port's tag. */
export const AccessFeed = Context.GenericTag<AccessFeed>("@ridequote/core/AccessFeed")
