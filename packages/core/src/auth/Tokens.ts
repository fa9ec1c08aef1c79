/** Tokens: issue, verify and revoke HS256 JWTs (contract §2). */
import { Context } from "effect"
import type { Effect, Redacted } from "effect"
import type { Account } from "../Account.js"
import type {
  AccountBlocked,
  InvalidCredentials,
  StorageUnavailable,
  TokenNotFound,
  VerifyError
} from "../Errors.js"
import type { AccountId } from "../Ids.js"
import type { IssuedToken, RevokeResult, RevokeTarget, TokenClaims } from "../Token.js"

/** A caller whose bearer token verified: the claims and the account as the snapshot knows it. */
export interface Caller {
  readonly claims: TokenClaims
  readonly account: Account
}

export interface Tokens {
  /** Exchanges an API key and secret for a token; the account must be Active. */
  readonly issue: (
    apiKey: string,
    apiSecret: Redacted.Redacted<string>
  ) => Effect.Effect<IssuedToken, InvalidCredentials | AccountBlocked | StorageUnavailable>
  /** Checks signature (HS256 only), issuer, expiry and the access snapshot; never touches storage on the hot path. */
  readonly verify: (token: string) => Effect.Effect<Caller, VerifyError | StorageUnavailable>
  /** Revokes one token of the account, or all it holds; effective at once on this instance. */
  readonly revoke: (
    accountId: AccountId,
    target: RevokeTarget
  ) => Effect.Effect<RevokeResult, TokenNotFound | StorageUnavailable>
}

export const Tokens = Context.GenericTag<Tokens>("@ridequote/core/Tokens")
