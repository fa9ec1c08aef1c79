/** Port: the record of issued tokens, so they can be revoked by jti or all at once. */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { AccountId, Jti } from "../Ids.js"
import type { TokenRecord } from "../Token.js"
import type { StoredAccount } from "./AccountStore.js"

/** What a revoke by jti found; the expiry lets the snapshot forget the jti exactly when the token dies. */
export type RevokeOutcome =
  | { readonly _tag: "Revoked"; readonly expiresAtMs: number }
  | { readonly _tag: "AlreadyRevoked"; readonly expiresAtMs: number }
  | { readonly _tag: "NotFound" }

/** What a revoke-all did. */
export interface RevokedAll {
  /** The tokens newly revoked, with their expiry. */
  readonly tokens: ReadonlyArray<{ readonly jti: Jti; readonly expiresAtMs: number }>
  /** The account with its new cutoff and version (none when the account does not exist). */
  readonly account: Option.Option<StoredAccount>
}

/** The record of issued tokens, which storage adapters implement. */
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
   * afterwards, even in the same millisecond, stays valid) and sets the account's cutoff to
   * `atMs`, so tokens storage never recorded are refused too. Publishes each jti and the account
   * change on the access feed, in the same transaction.
   */
  readonly revokeAll: (accountId: AccountId, atMs: number) => Effect.Effect<RevokedAll, StorageUnavailable>
}

/** The TokenStore port's tag. */
export const TokenStore = Context.GenericTag<TokenStore>("@ridequote/core/TokenStore")
