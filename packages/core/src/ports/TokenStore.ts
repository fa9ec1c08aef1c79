/** Port: the record of issued tokens, so they can be revoked by jti or all at once. */
import type { Effect } from "effect"
import { Context } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { AccountId, Jti } from "../Ids.js"
import type { TokenRecord } from "../Token.js"

export type RevokeOutcome = "revoked" | "already-revoked" | "not-found"

export interface TokenStore {
  /** Called before a token is handed out, so revoke-all always sees every token a caller holds. */
  readonly record: (token: TokenRecord) => Effect.Effect<void, StorageUnavailable>
  /**
   * Revokes one token of `accountId`; a jti of another account is `not-found`. Publishes a
   * `TokenRevoked` change on the access feed in the same transaction.
   */
  readonly revoke: (accountId: AccountId, jti: Jti, atMs: number) => Effect.Effect<RevokeOutcome, StorageUnavailable>
  /**
   * Revokes every token of the account recorded before this call (atomically: a token recorded
   * afterwards, even in the same millisecond, stays valid). Returns the jtis newly revoked, with
   * their expiry, and publishes each on the access feed.
   */
  readonly revokeAll: (
    accountId: AccountId,
    atMs: number
  ) => Effect.Effect<ReadonlyArray<{ readonly jti: Jti; readonly expiresAtMs: number }>, StorageUnavailable>
}

export const TokenStore = Context.GenericTag<TokenStore>("@ridequote/core/TokenStore")
