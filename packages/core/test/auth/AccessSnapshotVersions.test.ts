/**
 * What the snapshot holds beyond "revoked or not": the real expiry of a jti revoked here, the
 * revoke-all cutoff (which refuses tokens storage never recorded), the newest account version
 * whatever order reads finish in, and reads triggered by pushed wake-ups.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Option, Queue, Stream, TestClock } from "effect"
import { AccessSnapshot } from "../../src/auth/AccessSnapshot.js"
import { Accounts } from "../../src/auth/Accounts.js"
import { signJwt } from "../../src/auth/Jwt.js"
import { Tokens } from "../../src/auth/Tokens.js"
import { Jti } from "../../src/Ids.js"
import { AccessFeed } from "../../src/ports/AccessFeed.js"
import { AccountStore } from "../../src/ports/AccountStore.js"
import { SigningKeys } from "../../src/ports/SigningKeys.js"
import { Randomness, seededRandomness } from "../../src/Randomness.js"
import { makeInMemoryStorage } from "../../src/testing/auth.js"
import type { InMemoryStorage } from "../../src/testing/auth.js"
import { TOKEN_ISSUER } from "../../src/Token.js"
import { instance, T0 } from "./fixtures.js"

const sharedStorage = Effect.gen(function*() {
  yield* TestClock.setTime(T0)
  const randomness = seededRandomness(7)
  const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
  return { randomness, storage }
})

const outcome = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.match(effect, { onFailure: (e) => e._tag, onSuccess: () => "ok" })

describe("access snapshot: expiries, cutoffs, versions, wake-ups", () => {
  it.scoped("a revoke by jti remembers the token's real expiry at once, not a placeholder", () =>
    Effect.gen(function*() {
      const { randomness, storage } = yield* sharedStorage
      const a = yield* Layer.build(instance(storage, randomness))
      const created = yield* Context.get(a, Accounts).create({ name: "Expiry", tokenTtlSeconds: 3600 })
      const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      // before any refresh has run
      expect(Context.get(a, AccessSnapshot).revokedUntil(issued.jti)).toBe(issued.expiresAt.epochMillis)
    }))

  it.scoped("revoke-all refuses a token signed with the key but never recorded, here at once and elsewhere after a refresh", () =>
    Effect.gen(function*() {
      const { randomness, storage } = yield* sharedStorage
      const a = yield* Layer.build(instance(storage, randomness))
      const b = yield* Layer.build(instance(storage, randomness))
      const created = yield* Context.get(a, Accounts).create({ name: "Cutoff" })
      const ring = yield* Context.get(storage, SigningKeys).ring
      const iat = Math.floor(T0 / 1000)
      const forged = signJwt(
        { iss: TOKEN_ISSUER, sub: created.account.id, jti: Jti.make("0b9c1f7e-3d7a-4c1e-9f2b-6a5d4c3b2a19"), iat, exp: iat + 3600 },
        ring.current
      )
      expect(yield* outcome(Context.get(a, Tokens).verify(forged))).toBe("ok")
      expect(yield* outcome(Context.get(b, Tokens).verify(forged))).toBe("ok")

      yield* TestClock.adjust("2 seconds")
      // storage knew no token of the account: nothing is revoked by jti, the cutoff does it all
      expect(yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "AllTokens" })).toEqual({ revoked: 0 })
      expect(yield* outcome(Context.get(a, Tokens).verify(forged))).toBe("TokenRevoked")
      yield* TestClock.adjust("5 seconds")
      expect(yield* outcome(Context.get(b, Tokens).verify(forged))).toBe("TokenRevoked")
      // a token issued afterwards is honoured on both
      const fresh = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      expect(yield* outcome(Context.get(a, Tokens).verify(fresh.token))).toBe("ok")
      expect(yield* outcome(Context.get(b, Tokens).verify(fresh.token))).toBe("ok")
    }))

  it.scoped("two instances changing one account at once: a late local apply of an older version cannot undo a newer one", () =>
    Effect.gen(function*() {
      const { randomness, storage } = yield* sharedStorage
      // Instance A's own update is held between its commit and applying it locally, as a slow
      // fiber would be while a pushed refresh runs.
      const inner = Context.get(storage, AccountStore)
      const gate = yield* Deferred.make<void>()
      const committed = yield* Deferred.make<void>()
      let holdUpdates = false
      const slowUpdates: Context.Context<InMemoryStorage> = Context.add(storage, AccountStore, {
        ...inner,
        update: (id, change) =>
          Effect.flatMap(inner.update(id, change), (stored) =>
            holdUpdates
              ? Deferred.succeed(committed, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.as(stored))
              : Effect.succeed(stored))
      })
      const a = yield* Layer.build(instance(slowUpdates, randomness))
      const b = yield* Layer.build(instance(storage, randomness))
      const created = yield* Context.get(a, Accounts).create({ name: "Versions" })
      const id = created.account.id

      holdUpdates = true
      const blockOnA = yield* Effect.fork(Context.get(a, Accounts).setStatus(id, "Blocked")) // version 2
      yield* Deferred.await(committed)
      holdUpdates = false
      yield* Context.get(b, Accounts).setDefaultBehavior(id, "undercut") // version 3, on top of 2
      yield* Context.get(a, AccessSnapshot).refresh // A sees both changes: version 3
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(blockOnA) // A now applies its own version 2, late
      yield* Context.get(a, AccessSnapshot).refresh // nothing new in the feed

      const held = yield* Context.get(a, AccessSnapshot).account(id)
      expect(Option.map(held, (s) => [s.version, s.account.status, s.account.pricing.defaultBehavior])).toEqual(
        Option.some([3, "Blocked", "undercut"])
      )
    }))

  it.scoped("a pushed wake-up reads the feed at once, without waiting for the refresh interval", () =>
    Effect.gen(function*() {
      const { randomness, storage } = yield* sharedStorage
      const pushes = yield* Queue.unbounded<void>()
      const feed = Context.get(storage, AccessFeed)
      const pushed: Context.Context<InMemoryStorage> = Context.add(storage, AccessFeed, {
        ...feed,
        wakeups: Stream.fromQueue(pushes)
      })
      const a = yield* Layer.build(instance(storage, randomness, { refreshInterval: "60 seconds" }))
      const b = yield* Layer.build(instance(pushed, randomness, { refreshInterval: "60 seconds" }))
      const created = yield* Context.get(a, Accounts).create({ name: "Pushed" })
      const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      expect(yield* outcome(Context.get(b, Tokens).verify(issued.token))).toBe("ok")

      yield* Queue.offer(pushes, undefined)
      // the wake-up's read runs on its own fiber; the clock never moves, so no refresh is due
      const snapshot = Context.get(b, AccessSnapshot)
      yield* Effect.yieldNow().pipe(Effect.repeat({ until: () => snapshot.isRevoked(issued.jti) }))
      expect(yield* outcome(Context.get(b, Tokens).verify(issued.token))).toBe("TokenRevoked")
    }))
})
