import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, DateTime, Effect, Exit, FastCheck, Layer, Option, Redacted, Schema, TestClock } from "effect"
import { Accounts } from "../../src/auth/Accounts.js"
import { Credentials, makeCredentials } from "../../src/auth/Credentials.js"
import { signJwt } from "../../src/auth/Jwt.js"
import { makeTokensWith, Tokens } from "../../src/auth/Tokens.js"
import { makeVerifiedTokens } from "../../src/auth/VerifiedTokens.js"
import type { VerifiedTokens } from "../../src/auth/VerifiedTokens.js"
import type { Caller } from "../../src/auth/Tokens.js"
import { AccountId, Jti } from "../../src/Ids.js"
import type { SecretHash } from "../../src/ports/AccountStore.js"
import { SigningKeys } from "../../src/ports/SigningKeys.js"
import type { SigningKey } from "../../src/ports/SigningKeys.js"
import { Randomness, seededRandomness } from "../../src/Randomness.js"
import { InMemoryStorageControl, makeInMemorySigningKeys, makeInMemoryStorage } from "../../src/testing/auth.js"
import { IssuedToken } from "../../src/Token.js"
import { accountWithToken, createAccount, instance, segment, T0, withEngine, wrongSecret } from "./fixtures.js"

const errorOf = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

describe("token issue", () => {
  it.effect("an Active account gets a token, jti, expiresAt and ttlSeconds; the token verifies", () =>
    withEngine(Effect.gen(function*() {
      const { account, issued } = yield* accountWithToken()
      const caller = yield* (yield* Tokens).verify(issued.token)
      expect(caller.account).toEqual(account)
      expect(caller.claims).toMatchObject({ iss: "ridequote", sub: account.id, jti: issued.jti })
      // The response encodes with the wire schema (ISO timestamp with milliseconds).
      const wire = Schema.encodeSync(IssuedToken)(issued)
      expect(wire.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/)
    })))

  it.effect("token issue: Pending account gets result:account-blocked", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount({ status: "Pending" })
      const error = yield* errorOf((yield* Tokens).issue(created.apiKey, created.apiSecret))
      expect(error._tag).toBe("AccountBlocked")
      expect(error.code).toBe("result:account-blocked")
    })))

  it.effect("token issue: Blocked account gets result:account-blocked", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount({ status: "Blocked" })
      const error = yield* errorOf((yield* Tokens).issue(created.apiKey, created.apiSecret))
      expect(error._tag === "AccountBlocked" && error.status).toBe("Blocked")
      expect(error.code).toBe("result:account-blocked")
    })))

  it.effect("token issue: unknown key and wrong secret fail alike with result:invalid-credentials", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount()
      const tokens = yield* Tokens
      const wrong = yield* errorOf(tokens.issue(created.apiKey, wrongSecret))
      const unknown = yield* errorOf(tokens.issue("rqk_" + "B".repeat(24), created.apiSecret))
      const malformed = yield* errorOf(tokens.issue("not-a-key", created.apiSecret))
      for (const e of [wrong, unknown, malformed]) {
        expect(e._tag).toBe("InvalidCredentials")
        expect(e.code).toBe("result:invalid-credentials")
        expect(e.message).toBe(wrong.message)
      }
    })))

  it.effect("token issue: an unknown key still costs one secret comparison, like a wrong secret", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(9)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const compared: Array<string> = []
      const counting = Layer.effect(
        Credentials,
        Effect.map(makeCredentials, (real) => ({
          ...real,
          verify: (secret: Redacted.Redacted<string>, stored: SecretHash) => {
            compared.push(stored)
            return real.verify(secret, stored)
          }
        }))
      )
      yield* Effect.gen(function*() {
        const created = yield* createAccount()
        const tokens = yield* Tokens
        yield* Effect.flip(tokens.issue(created.apiKey, wrongSecret))
        yield* Effect.flip(tokens.issue("rqk_" + "D".repeat(24), created.apiSecret))
        yield* Effect.flip(tokens.issue("malformed", created.apiSecret))
      }).pipe(Effect.provide(instance(storage, randomness, undefined, counting)))
      expect(compared).toHaveLength(3)
      // The two unknown-key attempts compared against a well-formed decoy hash, not nothing.
      for (const hash of compared) expect(hash).toMatch(/^[0-9a-f]{64}$/)
    }))

  it.effect("token issue: a Pending account with a wrong secret learns nothing about its status", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount({ status: "Pending" })
      const error = yield* errorOf((yield* Tokens).issue(created.apiKey, wrongSecret))
      expect(error._tag).toBe("InvalidCredentials")
    })))

  it.effect("secret is never in error messages", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount({ status: "Blocked" })
      const tokens = yield* Tokens
      const secret = Redacted.value(created.apiSecret)
      const attempts = [
        tokens.issue(created.apiKey, created.apiSecret),
        tokens.issue(created.apiKey, Redacted.make(secret + "x")),
        tokens.issue("rqk_" + "C".repeat(24), created.apiSecret)
      ]
      for (const attempt of attempts) {
        const exit = yield* Effect.exit(attempt)
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit)) {
          const texts = [Cause.pretty(exit.cause), JSON.stringify(exit.cause), String(Cause.squash(exit.cause))]
          for (const text of texts) expect(text).not.toContain(secret.slice(4))
        }
      }
      expect(String(created.apiSecret)).not.toContain(secret.slice(4))
      expect(JSON.stringify(created)).not.toContain(secret.slice(4))
    })))

  it.effect("token issue reads storage directly: a new account works the moment create returns", () =>
    withEngine(Effect.gen(function*() {
      const tokens = yield* Tokens
      // The first issue happens before anything could have cached the account.
      const created = yield* createAccount({ name: "Fresh" })
      const issued = yield* tokens.issue(created.apiKey, created.apiSecret)
      expect((yield* tokens.verify(issued.token)).account.name).toBe("Fresh")
    })))

  it.effect("token issue: storage unreachable is StorageUnavailable, not invalid credentials", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount()
      yield* (yield* InMemoryStorageControl).setAvailable(false)
      const error = yield* errorOf((yield* Tokens).issue(created.apiKey, created.apiSecret))
      expect(error._tag).toBe("StorageUnavailable")
      expect(error.code).toBe("result:unavailable")
    })))

  it.effect("jti is a UUID v4 and differs for every token", () =>
    withEngine(Effect.gen(function*() {
      const created = yield* createAccount()
      const tokens = yield* Tokens
      const issued = yield* Effect.all(Array.from({ length: 20 }, () => tokens.issue(created.apiKey, created.apiSecret)))
      for (const t of issued) expect(t.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(new Set(issued.map((t) => t.jti)).size).toBe(20)
    })))
})

describe("ttl", () => {
  it.effect("ttl: expiresAt equals exp and ttlSeconds = exp - iat", () =>
    withEngine(Effect.gen(function*() {
      const { issued } = yield* accountWithToken({ tokenTtlSeconds: 3600 })
      const claims = segment(issued.token, 1) as { iat: number; exp: number }
      expect(claims.iat).toBe(Math.floor(T0 / 1000))
      expect(claims.exp).toBe(claims.iat + 3600)
      expect(DateTime.toEpochMillis(issued.expiresAt)).toBe(claims.exp * 1000)
      expect(issued.ttlSeconds).toBe(claims.exp - claims.iat)
      expect(Schema.encodeSync(IssuedToken)(issued).expiresAt).toBe(new Date(claims.exp * 1000).toISOString())
    })))

  it.effect("ttl: default token lifetime is 86400 seconds", () =>
    withEngine(Effect.gen(function*() {
      const { issued } = yield* accountWithToken()
      expect(issued.ttlSeconds).toBe(86_400)
    })))

  it.effect("ttl: the account's setting applies to tokens issued after it changes", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret } = yield* accountWithToken()
      yield* (yield* Accounts).setTokenTtl(account.id, 31_622_400)
      const issued = yield* (yield* Tokens).issue(apiKey, apiSecret)
      expect(issued.ttlSeconds).toBe(31_622_400)
    })))

  it.effect("expiry at exactly exp (TestClock)", () =>
    withEngine(Effect.gen(function*() {
      const { issued } = yield* accountWithToken({ tokenTtlSeconds: 60 })
      const tokens = yield* Tokens
      const expMs = DateTime.toEpochMillis(issued.expiresAt)
      yield* TestClock.setTime(expMs - 1)
      yield* tokens.verify(issued.token)
      yield* TestClock.setTime(expMs)
      const error = yield* errorOf(tokens.verify(issued.token))
      expect(error._tag).toBe("TokenExpired")
      expect(error.code).toBe("result:token-expired")
    })))
})

describe("token verify", () => {
  it.effect("a token of a Pending or Blocked account still verifies (quote checks the status)", () =>
    withEngine(Effect.gen(function*() {
      const { account, issued } = yield* accountWithToken()
      yield* (yield* Accounts).setStatus(account.id, "Blocked")
      const caller = yield* (yield* Tokens).verify(issued.token)
      expect(caller.account.status).toBe("Blocked")
    })))

  it.effect("a validly signed token for an account that does not exist is token-invalid", () =>
    withEngine(Effect.gen(function*() {
      const { issued } = yield* accountWithToken()
      const ring = yield* (yield* SigningKeys).ring
      const claims = segment(issued.token, 1) as { iat: number; exp: number }
      const forged = signJwt({
        iss: "ridequote",
        sub: AccountId.make("00000000-0000-4000-8000-000000000000"),
        jti: Jti.make("00000000-0000-4000-8000-000000000001"),
        iat: claims.iat,
        exp: claims.exp
      }, ring.current)
      const error = yield* errorOf((yield* Tokens).verify(forged))
      expect(error._tag).toBe("TokenInvalid")
    })))

  it.effect("not a JWT is result:unauthorized", () =>
    withEngine(Effect.gen(function*() {
      const error = yield* errorOf((yield* Tokens).verify("Bearer nonsense"))
      expect(error.code).toBe("result:unauthorized")
    })))

  it.effect("no storage access on the hot path once the account is cached", () =>
    withEngine(Effect.gen(function*() {
      const { issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      yield* tokens.verify(issued.token)
      yield* (yield* InMemoryStorageControl).setAvailable(false)
      const caller = yield* tokens.verify(issued.token)
      expect(caller.claims.jti).toBe(issued.jti)
    })))

  it.effect("key rotation: old token still verifies, new tokens use the new kid", () =>
    withEngine(Effect.gen(function*() {
      const { apiKey, apiSecret, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      const keys = yield* SigningKeys
      const oldKid = (segment(issued.token, 0) as { kid: string }).kid
      const rotated = yield* keys.rotate
      expect(rotated.kid).not.toBe(oldKid)
      yield* tokens.verify(issued.token)
      const fresh = yield* tokens.issue(apiKey, apiSecret)
      expect((segment(fresh.token, 0) as { kid: string }).kid).toBe(rotated.kid)
      yield* tokens.verify(fresh.token)
    })))
})

describe("signing keys made elsewhere", () => {
  it.effect("key rotation on another instance: a kid this ring does not know is looked up through verifyingKey", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(11)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const shared = Context.get(storage, SigningKeys)
      // What another instance just made current; this instance's ring has not reloaded yet.
      const elsewhere = yield* Effect.provideService(makeInMemorySigningKeys, Randomness, seededRandomness(12))
      const newKey = (yield* elsewhere.ring).current
      const lookups: Array<string> = []
      const reloading = SigningKeys.of({
        ring: shared.ring,
        rotate: shared.rotate,
        verifyingKey: (kid) =>
          Effect.sync(() => {
            lookups.push(kid)
            return kid === newKey.kid ? Option.some(newKey) : Option.none()
          })
      })
      const tokenFor = (key: SigningKey, sub: Caller["account"]["id"]) =>
        signJwt({
          iss: "ridequote",
          sub,
          jti: Jti.make("00000000-0000-4000-8000-00000000000b"),
          iat: Math.floor(T0 / 1000),
          exp: Math.floor(T0 / 1000) + 600
        }, key)
      yield* Effect.gen(function*() {
        const { account } = yield* createAccount()
        const tokens = yield* Tokens
        expect((yield* tokens.verify(tokenFor(newKey, account.id))).account.id).toBe(account.id)
        const stranger = (yield* Effect.provideService(makeInMemorySigningKeys, Randomness, seededRandomness(13)).pipe(
          Effect.flatMap((k) => k.ring)
        )).current
        expect((yield* Effect.flip(tokens.verify(tokenFor(stranger, account.id))))._tag).toBe("TokenInvalid")
      }).pipe(Effect.provide(instance(Context.add(storage, SigningKeys, reloading), randomness)))
      expect(lookups).toHaveLength(2)
    }))
})

describe("verified tokens", () => {
  it.effect("a token verified before stops verifying once its key leaves the ring", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(21)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const shared = Context.get(storage, SigningKeys)
      let dropped: string | undefined
      // A ring from which a key can be withdrawn (e.g. one found to be leaked).
      const withdrawing = SigningKeys.of({
        ring: Effect.map(shared.ring, (ring) => {
          const verifying = new Map(ring.verifying)
          if (dropped !== undefined) verifying.delete(dropped)
          return { ...ring, verifying }
        }),
        rotate: shared.rotate
      })
      yield* Effect.gen(function*() {
        const { issued } = yield* accountWithToken()
        const tokens = yield* Tokens
        yield* tokens.verify(issued.token)
        yield* tokens.verify(issued.token)
        dropped = (segment(issued.token, 0) as { kid: string }).kid
        expect((yield* Effect.flip(tokens.verify(issued.token)))._tag).toBe("TokenInvalid")
      }).pipe(Effect.provide(instance(Context.add(storage, SigningKeys, withdrawing), randomness)))
    }))

  it.effect("after the ring is reloaded with new objects for the same keys, the cache answers again after one full check", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(22)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const shared = Context.get(storage, SigningKeys)
      // What a stored-key adapter's periodic reload may do: the same kids and bytes, read
      // again into new objects.
      const copy = (key: SigningKey): SigningKey => ({
        kid: key.kid,
        secret: Redacted.make(new Uint8Array(Redacted.value(key.secret)))
      })
      let reloaded: { current: SigningKey; verifying: ReadonlyMap<string, SigningKey> } | undefined
      const reloading = SigningKeys.of({
        ring: Effect.suspend(() => (reloaded === undefined ? shared.ring : Effect.succeed(reloaded))),
        rotate: shared.rotate,
        reload: Effect.map(shared.ring, (ring) => {
          reloaded = { current: copy(ring.current), verifying: new Map([...ring.verifying].map(([kid, key]) => [kid, copy(key)])) }
        })
      })
      // The cache as Tokens uses it, counting the tokens recorded after a full check.
      const cache = makeVerifiedTokens()
      let fullChecks = 0
      const counting: VerifiedTokens = {
        ...cache,
        remember: (token, claims, kid, key) => {
          fullChecks++
          cache.remember(token, claims, kid, key)
        }
      }
      yield* Effect.gen(function*() {
        const { issued } = yield* accountWithToken()
        const tokens = yield* makeTokensWith(counting)
        yield* tokens.verify(issued.token)
        yield* tokens.verify(issued.token)
        expect(fullChecks).toBe(1)
        yield* Effect.flatMap(SigningKeys, (keys) => keys.reload ?? Effect.void)
        const kid = (segment(issued.token, 0) as { kid: string }).kid
        const reloadedKey = reloaded?.verifying.get(kid)
        expect(reloadedKey).toBeDefined()
        // The first call after the reload checks the token in full against the new object ...
        yield* tokens.verify(issued.token)
        expect(fullChecks).toBe(2)
        // ... and the cache answers every call after it, as before the reload,
        for (let i = 0; i < 5; i++) yield* tokens.verify(issued.token)
        expect(fullChecks).toBe(2)
        // holding the token under the key object the ring answers now.
        expect(cache.get(issued.token)?.key).toBe(reloadedKey)
      }).pipe(Effect.provide(instance(Context.add(storage, SigningKeys, reloading), randomness)))
    }))

  /** Claims the cache tests remember, and a distinct key object of kid "k" each call (the cache compares objects). */
  const claims = {
    iss: "ridequote" as const,
    sub: AccountId.make("00000000-0000-4000-8000-00000000000a"),
    jti: Jti.make("00000000-0000-4000-8000-00000000000b"),
    iat: 1,
    exp: 2
  }
  const cacheKey = () => ({ kid: "k", secret: new Uint8Array(32) }) as unknown as SigningKey

  it("remember replaces a held token's entry: the same token re-checked under another key object", () => {
    const cache = makeVerifiedTokens(2)
    const before = cacheKey()
    const after = cacheKey()
    cache.remember("t1", claims, "k", before)
    cache.remember("t2", claims, "k", before)
    cache.remember("t1", claims, "k", after)
    expect(cache.get("t1")?.key).toBe(after)
    // an update is not an addition: nothing was evicted
    expect(cache.size()).toBe(2)
    expect(cache.get("t2")?.key).toBe(before)
  })

  it("the cache is bounded: past its capacity the oldest token is forgotten", () => {
    const cache = makeVerifiedTokens(2)
    const key = cacheKey()
    cache.remember("t1", claims, "k", key)
    cache.remember("t2", claims, "k", key)
    cache.remember("t3", claims, "k", key)
    expect(cache.size()).toBe(2)
    expect(cache.get("t1")).toBeUndefined()
    expect(cache.get("t3")?.claims).toEqual(claims)
  })
})

describe("revoke", () => {
  it.effect("revoke by jti is effective at once on this instance", () =>
    withEngine(Effect.gen(function*() {
      const { account, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      expect(yield* tokens.revoke(account.id, { _tag: "Token", jti: issued.jti })).toEqual({ revoked: 1 })
      const error = yield* errorOf(tokens.verify(issued.token))
      expect(error._tag).toBe("TokenRevoked")
      expect(error.code).toBe("result:token-revoked")
    })))

  it.effect("revoke: an already revoked jti answers revoked 0", () =>
    withEngine(Effect.gen(function*() {
      const { account, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      yield* tokens.revoke(account.id, { _tag: "Token", jti: issued.jti })
      expect(yield* tokens.revoke(account.id, { _tag: "Token", jti: issued.jti })).toEqual({ revoked: 0 })
    })))

  it.effect("revoke: a jti of another account, or unknown, is result:not-found and stays valid", () =>
    withEngine(Effect.gen(function*() {
      const mine = yield* accountWithToken({ name: "Mine" })
      const theirs = yield* accountWithToken({ name: "Theirs" })
      const tokens = yield* Tokens
      const foreign = yield* errorOf(tokens.revoke(mine.account.id, { _tag: "Token", jti: theirs.issued.jti }))
      const unknown = yield* errorOf(
        tokens.revoke(mine.account.id, { _tag: "Token", jti: Jti.make("00000000-0000-4000-8000-000000000009") })
      )
      for (const e of [foreign, unknown]) {
        expect(e._tag).toBe("TokenNotFound")
        expect(e.code).toBe("result:not-found")
      }
      expect(foreign.message).toBe(unknown.message)
      yield* tokens.verify(theirs.issued.token)
    })))

  it.effect("revoke-all: revokes every token of the account, the calling one included, and no other account's", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret, issued } = yield* accountWithToken()
      const other = yield* accountWithToken({ name: "Other" })
      const tokens = yield* Tokens
      const more = yield* Effect.all([tokens.issue(apiKey, apiSecret), tokens.issue(apiKey, apiSecret)])
      expect(yield* tokens.revoke(account.id, { _tag: "AllTokens" })).toEqual({ revoked: 3 })
      for (const t of [issued, ...more]) expect((yield* errorOf(tokens.verify(t.token)))._tag).toBe("TokenRevoked")
      yield* tokens.verify(other.issued.token)
      expect(yield* tokens.revoke(account.id, { _tag: "AllTokens" })).toEqual({ revoked: 0 })
    })))

  it.effect("revoke-all: a token issued in the same second right after stays valid", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      yield* tokens.revoke(account.id, { _tag: "AllTokens" })
      // Same clock reading, hence same second (and millisecond), as the revoke.
      const after = yield* tokens.issue(apiKey, apiSecret)
      expect((segment(after.token, 1) as { iat: number }).iat).toBe((segment(issued.token, 1) as { iat: number }).iat)
      yield* tokens.verify(after.token)
      expect((yield* errorOf(tokens.verify(issued.token)))._tag).toBe("TokenRevoked")
    })))

  it.effect.prop(
    "property: revoke-all never revokes a later token, and revokes every earlier one",
    {
      before: FastCheck.integer({ min: 0, max: 4 }),
      after: FastCheck.integer({ min: 1, max: 3 }),
      startMs: FastCheck.integer({ min: 0, max: 999 }),
      gapMs: FastCheck.integer({ min: 0, max: 998 })
    },
    ({ after, before, gapMs, startMs }) =>
      withEngine(Effect.gen(function*() {
        yield* TestClock.setTime(T0 - (T0 % 1000) + startMs)
        const created = yield* createAccount()
        const tokens = yield* Tokens
        const issue = tokens.issue(created.apiKey, created.apiSecret)
        const earlier = yield* Effect.all(Array.from({ length: before }, () => issue))
        expect(yield* tokens.revoke(created.account.id, { _tag: "AllTokens" })).toEqual({ revoked: before })
        yield* TestClock.adjust(Math.min(gapMs, 999 - startMs))
        const later = yield* Effect.all(Array.from({ length: after }, () => issue))
        for (const t of later) yield* tokens.verify(t.token)
        for (const t of earlier) expect((yield* errorOf(tokens.verify(t.token)))._tag).toBe("TokenRevoked")
      })),
    { fastCheck: { numRuns: 30 } }
  )

  it.effect("revoke by jti is recorded in storage: a new instance starting later knows it", () =>
    withEngine(Effect.gen(function*() {
      const { account, issued } = yield* accountWithToken()
      yield* (yield* Tokens).revoke(account.id, { _tag: "Token", jti: issued.jti })
      const feed = yield* (yield* InMemoryStorageControl).feed
      expect(feed).toContainEqual({
        _tag: "TokenRevoked",
        accountId: account.id,
        jti: issued.jti,
        expiresAtMs: DateTime.toEpochMillis(issued.expiresAt)
      })
    })))
})

describe("rotate-secret", () => {
  it.effect("rotate-secret: same key, the new secret works at once and the old secret stops", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret } = yield* accountWithToken()
      const tokens = yield* Tokens
      const rotated = yield* (yield* Accounts).rotateSecret(account.id)
      expect(rotated.apiKey).toBe(apiKey)
      expect(Redacted.value(rotated.apiSecret)).not.toBe(Redacted.value(apiSecret))
      expect((yield* errorOf(tokens.issue(apiKey, apiSecret)))._tag).toBe("InvalidCredentials")
      const issued = yield* tokens.issue(apiKey, rotated.apiSecret)
      expect((yield* tokens.verify(issued.token)).account.id).toBe(account.id)
    })))
})
