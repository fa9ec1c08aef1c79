/** Tokens: issue, verify and revoke HS256 JWTs (contract §2). */
import { Clock, Context, DateTime, Effect, Layer, Option, Redacted, Schema } from "effect"
import type { Account } from "../Account.js"
import { MAX_TOKEN_TTL_SECONDS } from "../Account.js"
import {
  AccountBlocked,
  InvalidCredentials,
  TokenInvalid,
  TokenNotFound,
  TokenRevoked
} from "../Errors.js"
import type { StorageUnavailable, VerifyError } from "../Errors.js"
import { ApiKey, Jti } from "../Ids.js"
import type { AccountId } from "../Ids.js"
import { AccountStore } from "../ports/AccountStore.js"
import { SigningKeys } from "../ports/SigningKeys.js"
import type { SigningKey } from "../ports/SigningKeys.js"
import { TokenStore } from "../ports/TokenStore.js"
import { Randomness } from "../Randomness.js"
import { TOKEN_ISSUER } from "../Token.js"
import type { IssuedToken, RevokeResult, RevokeTarget, TokenClaims } from "../Token.js"
import { AccessSnapshot } from "./AccessSnapshot.js"
import { Credentials } from "./Credentials.js"
import { checkJwt, readJwt, signJwt, unknownKey } from "./Jwt.js"

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

/** One message for unknown key and wrong secret alike: the answer must not tell them apart. */
const INVALID_CREDENTIALS = "invalid API key or secret"

/**
 * Expiry recorded for a token revoked here by jti, whose real expiry the store does not return:
 * the longest a token can live. The feed brings the real value back at the next refresh.
 */
const PLACEHOLDER_EXPIRY_MS = MAX_TOKEN_TTL_SECONDS * 1000

const isApiKey = Schema.is(ApiKey)

export const makeTokens = Effect.gen(function*() {
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
      const ring = yield* keys.ring
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
      const known = ring.verifying.get(kid)
      if (known !== undefined) return Effect.succeed(known)
      if (keys.verifyingKey === undefined) return Effect.fail(unknownKey)
      return Effect.flatMap(
        keys.verifyingKey(kid),
        Option.match({ onNone: () => Effect.fail(unknownKey), onSome: Effect.succeed })
      )
    })

  const verify = (token: string) =>
    Effect.gen(function*() {
      const jwt = yield* readJwt(token)
      const key = yield* signingKeyFor(jwt.kid)
      const claims = yield* checkJwt(jwt, key, yield* Clock.currentTimeMillis)
      // Fail closed: a view that may be missing revocations does not honour any token.
      yield* snapshot.ensureFresh
      if (snapshot.isRevoked(claims.jti)) return yield* new TokenRevoked({ message: "the token has been revoked" })
      const account = yield* snapshot.account(claims.sub)
      if (Option.isNone(account)) return yield* new TokenInvalid({ message: "the token's account does not exist" })
      const caller: Caller = { claims, account: account.value }
      return caller
    })

  const revoke = (accountId: AccountId, target: RevokeTarget) =>
    Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      if (target._tag === "AllTokens") {
        const revoked = yield* tokenStore.revokeAll(accountId, nowMs)
        yield* Effect.forEach(revoked, (r) => snapshot.markRevoked(r.jti, r.expiresAtMs), { discard: true })
        const result: RevokeResult = { revoked: revoked.length }
        return result
      }
      const outcome = yield* tokenStore.revoke(accountId, target.jti, nowMs)
      if (outcome === "not-found") return yield* new TokenNotFound({ message: "no such token for this account" })
      // Also when already revoked (perhaps on another instance): effective here at once either way.
      yield* snapshot.markRevoked(target.jti, nowMs + PLACEHOLDER_EXPIRY_MS)
      const result: RevokeResult = { revoked: outcome === "revoked" ? 1 : 0 }
      return result
    })

  return Tokens.of({ issue, verify, revoke })
})

export const TokensLive: Layer.Layer<
  Tokens,
  never,
  SigningKeys | AccountStore | TokenStore | AccessSnapshot | Credentials | Randomness
> = Layer.effect(Tokens, makeTokens)
