/** Tokens: what issue returns, the JWT claims, and the revoke request (docs/security.md, "Bearer tokens"). */
import { Schema } from "effect"
import { AccountId, Jti } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** The `iss` claim of every token, pinned on verification. */
export const TOKEN_ISSUER = "ridequote"

/** Response of `POST /v1/auth/token`; `expiresAt` equals the token's `exp`, `ttlSeconds = exp - iat`. */
export const IssuedToken = Schema.Struct({
  token: Schema.String,
  jti: Jti,
  expiresAt: Timestamp,
  ttlSeconds: Schema.Int
}).annotations({ identifier: "IssuedToken" })
export type IssuedToken = typeof IssuedToken.Type

/**
 * The JWT payload. Times are seconds since the epoch.
 *
 * Any claim beyond these five is refused, not ignored: a token carrying `admin: true` or a
 * `scope` was not made by us (we never add one), and accepting it would let a later reader of
 * the claims trust a field no issuer vouched for. `docs/security.md` promises this exact shape.
 */
export const TokenClaims = Schema.Struct({
  iss: Schema.Literal(TOKEN_ISSUER),
  sub: AccountId,
  jti: Jti,
  iat: Schema.Int,
  exp: Schema.Int
}).annotations({ identifier: "TokenClaims", parseOptions: { onExcessProperty: "error" } })
export type TokenClaims = typeof TokenClaims.Type

/** Body of `POST /v1/auth/revoke`: exactly one of `jti` or `all: true`. */
export const RevokeRequest = Schema.Struct({
  jti: Schema.optional(Jti),
  all: Schema.optional(Schema.Boolean)
}).pipe(
  Schema.filter((r) =>
    (r.jti !== undefined) === (r.all !== undefined)
      ? "send exactly one of jti or all"
      : r.all === false
      ? "all must be true when sent"
      : undefined
  )
).annotations({ identifier: "RevokeRequest" })
export type RevokeRequest = typeof RevokeRequest.Type

/** What a revoke aims at, once the request is validated. */
export type RevokeTarget =
  | { readonly _tag: "Token"; readonly jti: Jti }
  | { readonly _tag: "AllTokens" }

/** The target of a validated revoke request. */
export const revokeTarget = (r: RevokeRequest): RevokeTarget =>
  r.jti !== undefined ? { _tag: "Token", jti: r.jti } : { _tag: "AllTokens" }

/** Response of `POST /v1/auth/revoke`: tokens newly revoked (0 when already revoked). */
export const RevokeResult = Schema.Struct({ revoked: Schema.Int }).annotations({ identifier: "RevokeResult" })
export type RevokeResult = typeof RevokeResult.Type

/** A token as storage keeps it: enough to revoke by jti or by account, never the token itself. */
export interface TokenRecord {
  readonly jti: Jti
  readonly accountId: AccountId
  /** Issue time in milliseconds: revoke-all compares it, so a token issued right after in the same second survives. */
  readonly issuedAtMs: number
  readonly expiresAtMs: number
}

/** A verified bearer token. */
export interface VerifiedToken {
  readonly claims: TokenClaims
}

