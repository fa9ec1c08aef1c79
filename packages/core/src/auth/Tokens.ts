/** Tokens: issue, verify and revoke HS256 JWTs (docs/security.md, "Bearer tokens" and "Revocation"). */
import { Clock, Context, DateTime, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import type { Account } from "../Account.js"
import {
  AccountBlocked,
  InvalidCredentials,
  TokenInvalid,
  TokenNotFound,
  TokenRevoked
} from "../Errors.js"
import { StorageUnavailable } from "../Errors.js"
import type { VerifyError } from "../Errors.js"
import { ApiKey, Jti } from "../Ids.js"
import type { AccountId } from "../Ids.js"
import { AccountStore } from "../ports/AccountStore.js"
import type { StoredAccount } from "../ports/AccountStore.js"
import { SigningKeys } from "../ports/SigningKeys.js"
import type { SigningKey } from "../ports/SigningKeys.js"
import { TokenStore } from "../ports/TokenStore.js"
import type { RevokedAll } from "../ports/TokenStore.js"
import { Randomness } from "../Randomness.js"
import { TOKEN_ISSUER } from "../Token.js"
import type { IssuedToken, RevokeResult, RevokeTarget, TokenClaims } from "../Token.js"
import { AccessSnapshot } from "./AccessSnapshot.js"
import { Credentials } from "./Credentials.js"
import { checkJwt, readJwt, signJwt, unexpired, unknownKey } from "./Jwt.js"
import { makeVerifiedTokens } from "./VerifiedTokens.js"
import type { VerifiedTokens } from "./VerifiedTokens.js"

/** A caller whose bearer token verified: the claims and the account as the snapshot knows it. */
export interface Caller {
  readonly claims: TokenClaims
  readonly account: Account
}

/**
 * Bearer tokens: HS256 JWTs issued for an API key and secret, verified on every call (signature,
 * issuer, expiry, the access snapshot), revoked one by one or all at once.
 */
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

/** The Tokens service's tag. */
export const Tokens = Context.GenericTag<Tokens>("@ridequote/core/Tokens")

/** One message for unknown key and wrong secret alike: the answer must not tell them apart. */
const INVALID_CREDENTIALS = "invalid API key or secret"

const isApiKey = Schema.is(ApiKey)

/**
 * Revoke-all's cutoff, at whole seconds because `iat` is: a token from an earlier second is
 * refused whatever its jti. Tokens issued within the cutoff's own second were recorded before it
 * (revoked by jti) or after it (valid, as the contract requires), so the jti decides those.
 */
export const issuedBeforeCutoff = (claims: TokenClaims, cutoffMs: number | undefined): boolean =>
  cutoffMs !== undefined && claims.iat < Math.floor(cutoffMs / 1000)

/** Applies a revoke-all made on this instance to its snapshot at once. */
export const applyRevokedAll = (snapshot: AccessSnapshot, revoked: RevokedAll): Effect.Effect<void> =>
  Effect.zipRight(
    Effect.forEach(revoked.tokens, (r) => snapshot.markRevoked(r.jti, r.expiresAtMs), { discard: true }),
    Option.match(revoked.account, { onNone: () => Effect.void, onSome: snapshot.accountChanged })
  )

/**
 * Builds the Tokens service from the signing keys, the stores and the access snapshot, keeping
 * checked tokens in `verified` (tests pass their own to see which path a verify took).
 */
export const makeTokensWith = (verified: VerifiedTokens) => Effect.gen(function*() {
  const keys = yield* SigningKeys
  const accountStore = yield* AccountStore
  const tokenStore = yield* TokenStore
  const snapshot = yield* AccessSnapshot
  const credentials = yield* Credentials
  const randomness = yield* Randomness

  // Compared against when the key is unknown, so that case costs the same hash and compare as a
  // wrong secret. It is the hash of a value no caller can know (fresh random bytes).
  const decoyHash = credentials.hash(yield* credentials.generateSecret)

  const issue = (apiKey: string, apiSecret: Redacted.Redacted<string>) =>
    Effect.gen(function*() {
      // Straight from storage, never a cache: a new account or a rotated secret works at once.
      const found = isApiKey(apiKey) ? yield* accountStore.findByApiKey(apiKey) : Option.none()
      const secretMatches = credentials.verify(
        apiSecret,
        Option.match(found, { onNone: () => decoyHash, onSome: (f) => f.secretHash })
      )
      if (Option.isNone(found) || !secretMatches) {
        return yield* new InvalidCredentials({ message: INVALID_CREDENTIALS })
      }
      // Status only after the secret checked out: it is not disclosed to someone without it.
      const { account } = found.value
      if (account.status !== "Active") {
        return yield* new AccountBlocked({
          message: `the account is ${account.status}: it cannot obtain tokens`,
          status: account.status
        })
      }
      let ring = yield* keys.ring
      // The current key was retired at once elsewhere: sign with the one that replaced it.
      if (snapshot.isKeyRetired(ring.current.kid)) {
        if (keys.reload !== undefined) yield* keys.reload
        ring = yield* keys.ring
        if (snapshot.isKeyRetired(ring.current.kid)) {
          return yield* new StorageUnavailable({ message: "the current signing key was retired and no new one is loaded yet" })
        }
      }
      const nowMs = yield* Clock.currentTimeMillis
      const iat = Math.floor(nowMs / 1000)
      const exp = iat + account.tokenTtlSeconds
      const jti = Jti.make(yield* randomness.uuidV4)
      const claims: TokenClaims = { iss: TOKEN_ISSUER, sub: account.id, jti, iat, exp }
      const token = signJwt(claims, ring.current)
      // Recorded before it is handed out, so a revoke-all from now on always sees it.
      yield* tokenStore.record({ jti, accountId: account.id, issuedAtMs: nowMs, expiresAtMs: exp * 1000 })
      const issued: IssuedToken = { token, jti, expiresAt: DateTime.unsafeMake(exp * 1000), ttlSeconds: exp - iat }
      return issued
    })

  /**
   * The ring answers from memory. A kid it does not know may be a key another instance has just
   * made current, so adapters that can reload (`verifyingKey`) get one chance to find it.
   */
  const signingKeyFor = (kid: string): Effect.Effect<SigningKey, TokenInvalid | StorageUnavailable> =>
    Effect.flatMap(keys.ring, (ring) => {
      // Retired at once (`keys retire`), perhaps on another instance: refused even while this
      // instance's ring still holds the key (a cached token is checked here too).
      if (snapshot.isKeyRetired(kid)) return Effect.fail(retiredKey)
      const known = ring.verifying.get(kid)
      if (known !== undefined) return Effect.succeed(known)
      if (keys.verifyingKey === undefined) return Effect.fail(unknownKey)
      return Effect.flatMap(
        keys.verifyingKey(kid),
        Option.match({ onNone: () => Effect.fail(unknownKey), onSome: Effect.succeed })
      )
    })

  const retiredKey = new TokenInvalid({ message: "the token's signing key has been retired" })

  /**
   * Signature and claims, checked once per token: later calls only re-check expiry and that
   * the key is still the one the ring answers for the token's kid (a removed or replaced key
   * drops the token back to a full check, which records it under the ring's new key object).
   */
  const claimsOf = (token: string, nowMs: number) => {
    const full = Effect.gen(function*() {
      const jwt = yield* readJwt(token)
      const key = yield* signingKeyFor(jwt.kid)
      const claims = yield* checkJwt(jwt, key, nowMs)
      verified.remember(token, claims, jwt.kid, key)
      return claims
    })
    const hit = verified.get(token)
    if (hit === undefined) return full
    return Effect.flatMap(signingKeyFor(hit.kid), (key) => (key === hit.key ? unexpired(hit.claims, nowMs) : full))
  }

  const revoked = () => new TokenRevoked({ message: "the token has been revoked" })

  /** The caller, unless a revoke-all since the token was issued covers it. */
  const callerOf = (claims: TokenClaims, stored: StoredAccount): Either.Either<Caller, TokenRevoked> =>
    issuedBeforeCutoff(claims, stored.tokensRevokedBeforeMs)
      ? Either.left(revoked())
      : Either.right({ claims, account: stored.account })

  // Plain callbacks and one clock read rather than Effect.gen: this runs on every bearer call,
  // and each generator step is a trip through the fiber's run loop (docs/performance.md).
  const verify = (token: string): Effect.Effect<Caller, VerifyError | StorageUnavailable> =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
      Effect.flatMap(claimsOf(token, nowMs), (claims): Effect.Effect<Caller, VerifyError | StorageUnavailable> => {
        // Fail closed: a view that may be missing revocations does not honour any token.
        const fresh = snapshot.freshAt(nowMs)
        if (Either.isLeft(fresh)) return Either.left(fresh.left)
        if (snapshot.isRevoked(claims.jti)) return Either.left(revoked())
        const cached = snapshot.cachedAccount(claims.sub)
        if (cached !== undefined) return callerOf(claims, cached)
        return Effect.flatMap(
          snapshot.account(claims.sub),
          (stored): Either.Either<Caller, TokenInvalid | TokenRevoked> =>
            Option.isNone(stored)
              ? Either.left(new TokenInvalid({ message: "the token's account does not exist" }))
              : callerOf(claims, stored.value)
        )
      }))

  const revoke = (accountId: AccountId, target: RevokeTarget) =>
    Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      if (target._tag === "AllTokens") {
        const revoked = yield* tokenStore.revokeAll(accountId, nowMs)
        yield* applyRevokedAll(snapshot, revoked)
        const result: RevokeResult = { revoked: revoked.tokens.length }
        return result
      }
      const outcome = yield* tokenStore.revoke(accountId, target.jti, nowMs)
      if (outcome._tag === "NotFound") return yield* new TokenNotFound({ message: "no such token for this account" })
      // Also when already revoked (perhaps on another instance): effective here at once either way,
      // and forgotten exactly when the token would have expired.
      yield* snapshot.markRevoked(target.jti, outcome.expiresAtMs)
      const result: RevokeResult = { revoked: outcome._tag === "Revoked" ? 1 : 0 }
      return result
    })

  return Tokens.of({ issue, verify, revoke })
})

/** Builds the Tokens service with a cache of verified tokens of its own. */
export const makeTokens = Effect.suspend(() => makeTokensWith(makeVerifiedTokens()))

/** Tokens as a layer (part of `makeEngineLive`). */
export const TokensLive: Layer.Layer<
  Tokens,
  never,
  SigningKeys | AccountStore | TokenStore | AccessSnapshot | Credentials | Randomness
> = Layer.effect(Tokens, makeTokens)
