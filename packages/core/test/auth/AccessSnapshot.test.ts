import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Layer, Queue, Stream, TestClock } from "effect"
import { AccessSnapshot, refreshIntervalOf, stalenessBoundOf } from "../../src/auth/AccessSnapshot.js"
import { AccessFeed } from "../../src/ports/AccessFeed.js"
import type { AccessSnapshotConfig } from "../../src/auth/AccessSnapshot.js"
import { Accounts } from "../../src/auth/Accounts.js"
import { Tokens } from "../../src/auth/Tokens.js"
import { Randomness, seededRandomness } from "../../src/Randomness.js"
import { InMemoryStorageControl, makeInMemoryStorage } from "../../src/testing/auth.js"
import { instance, T0 } from "./fixtures.js"

/** Storage shared by two "instances" (two snapshots), as two processes on one database. */
const twoInstances = (config?: AccessSnapshotConfig) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(T0)
    const randomness = seededRandomness(42)
    const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
    const a = yield* Layer.build(instance(storage, randomness, config))
    const b = yield* Layer.build(instance(storage, randomness, config))
    const control = Context.get(storage, InMemoryStorageControl)
    const accounts = Context.get(a, Accounts)
    const created = yield* accounts.create({ name: "Acme Rides" })
    const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
    return {
      a: { tokens: Context.get(a, Tokens), accounts, snapshot: Context.get(a, AccessSnapshot) },
      b: { tokens: Context.get(b, Tokens), accounts: Context.get(b, Accounts), snapshot: Context.get(b, AccessSnapshot) },
      control,
      created,
      issued
    }
  })

const outcome = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.match(effect, { onFailure: (e) => e._tag, onSuccess: () => "ok" })

describe("access snapshot", () => {
  it.scoped("revocation on one instance reaches another within the refresh interval, and not before", () =>
    Effect.gen(function*() {
      const { a, b, created, issued } = yield* twoInstances()
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("ok")
      yield* TestClock.adjust("1 second")
      yield* a.tokens.revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      // At once on the instance that handled it.
      expect(yield* outcome(a.tokens.verify(issued.token))).toBe("TokenRevoked")
      // The other instance refreshes every 5 s from its start (T0): not yet at T0 + 4.999 s.
      yield* TestClock.adjust(Duration.millis(3999))
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("ok")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("TokenRevoked")
    }))

  it.scoped("revoke-all on one instance reaches another within the refresh interval", () =>
    Effect.gen(function*() {
      const { a, b, created, issued } = yield* twoInstances()
      const second = yield* a.tokens.issue(created.apiKey, created.apiSecret)
      expect(yield* b.tokens.revoke(created.account.id, { _tag: "AllTokens" })).toEqual({ revoked: 2 })
      expect(yield* outcome(a.tokens.verify(second.token))).toBe("ok")
      yield* TestClock.adjust("5 seconds")
      expect(yield* outcome(a.tokens.verify(issued.token))).toBe("TokenRevoked")
      expect(yield* outcome(a.tokens.verify(second.token))).toBe("TokenRevoked")
    }))

  it.scoped("account status change reaches another instance via the feed", () =>
    Effect.gen(function*() {
      const { a, b, created, issued } = yield* twoInstances()
      expect((yield* b.tokens.verify(issued.token)).account.status).toBe("Active")
      yield* a.accounts.setStatus(created.account.id, "Blocked")
      // This instance sees its own change at once; the other one after its next refresh.
      expect((yield* a.tokens.verify(issued.token)).account.status).toBe("Blocked")
      expect((yield* b.tokens.verify(issued.token)).account.status).toBe("Active")
      yield* TestClock.adjust("5 seconds")
      expect((yield* b.tokens.verify(issued.token)).account.status).toBe("Blocked")
    }))

  it.scoped("a snapshot that starts later knows the revocations still in force", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(3)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const a = yield* Layer.build(instance(storage, randomness))
      const created = yield* Context.get(a, Accounts).create({ name: "Early" })
      const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      const late = yield* Layer.build(instance(storage, randomness))
      expect(Context.get(late, AccessSnapshot).isRevoked(issued.jti)).toBe(true)
      expect(yield* outcome(Context.get(late, Tokens).verify(issued.token))).toBe("TokenRevoked")
    }))

  it.scoped("fail closed after two refresh intervals (10 s) of failing feed, and recover when storage returns", () =>
    Effect.gen(function*() {
      const { b, control, issued } = yield* twoInstances()
      yield* b.tokens.verify(issued.token) // account now cached on b
      yield* control.setAvailable(false)
      // Last good refresh: the start, at T0. Exactly two intervals later the view is still acceptable.
      yield* TestClock.adjust("10 seconds")
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("ok")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("AccessViewStale")
      expect((yield* Effect.flip(b.snapshot.ensureFresh)).code).toBe("result:unavailable")
      yield* TestClock.adjust("30 seconds")
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("AccessViewStale")
      // Storage back: the next scheduled refresh (every 5 s) restores service by itself.
      yield* control.setAvailable(true)
      yield* TestClock.adjust("5 seconds")
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("ok")
    }))

  it.scoped("a revocation made elsewhere while the feed was failing is seen once it recovers", () =>
    Effect.gen(function*() {
      const { a, b, control, created, issued } = yield* twoInstances()
      yield* b.tokens.verify(issued.token)
      yield* a.tokens.revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      yield* control.setAvailable(false)
      yield* TestClock.adjust("9 seconds")
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("ok")
      yield* control.setAvailable(true)
      yield* TestClock.adjust("5 seconds")
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("TokenRevoked")
    }))

  it.scoped("the refresh interval is configurable", () =>
    Effect.gen(function*() {
      const { a, b, created, issued } = yield* twoInstances({ refreshInterval: "1 second" })
      yield* a.tokens.revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      yield* TestClock.adjust(Duration.millis(999))
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("ok")
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* outcome(b.tokens.verify(issued.token))).toBe("TokenRevoked")
    }))

  it("the staleness bound is two refresh intervals, never over 60 s", () => {
    expect(Duration.toMillis(stalenessBoundOf())).toBe(10_000)
    expect(Duration.toMillis(stalenessBoundOf({ refreshInterval: "1 second" }))).toBe(2_000)
    expect(Duration.toMillis(stalenessBoundOf({ refreshInterval: "30 seconds" }))).toBe(60_000)
    expect(Duration.toMillis(stalenessBoundOf({ refreshInterval: "60 seconds" }))).toBe(60_000)
  })

  it.scoped("a pushed change whose read fails fails closed at once, before the bound; a good read ends it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(7)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const pushes = yield* Queue.unbounded<void>()
      const feed = Context.get(storage, AccessFeed)
      const pushed = Context.add(storage, AccessFeed, { ...feed, wakeups: Stream.fromQueue(pushes) })
      const a = yield* Layer.build(instance(storage, randomness))
      const b = yield* Layer.build(instance(pushed, randomness))
      const control = Context.get(storage, InMemoryStorageControl)
      const created = yield* Context.get(a, Accounts).create({ name: "Pushed" })
      const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      const verifyOnB = outcome(Context.get(b, Tokens).verify(issued.token))
      expect(yield* verifyOnB).toBe("ok")

      // Revoked on A; B is told (a NOTIFY) but its read fails: it must not keep honouring the token.
      yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      yield* control.setAvailable(false)
      yield* Queue.offer(pushes, undefined)
      let verdict = yield* verifyOnB
      for (let i = 0; i < 100 && verdict === "ok"; i++) {
        yield* Effect.yieldNow()
        verdict = yield* verifyOnB
      }
      expect(verdict).toBe("AccessViewStale")
      expect(yield* Clock.currentTimeMillis).toBe(T0)

      // Storage back: the next scheduled read succeeds and brings the revocation with it.
      yield* control.setAvailable(true)
      yield* TestClock.adjust("5 seconds")
      expect(yield* verifyOnB).toBe("TokenRevoked")
    }))

  it("the refresh interval defaults to 5 s and is clamped to at most 60 s", () => {
    expect(Duration.toMillis(refreshIntervalOf())).toBe(5_000)
    expect(Duration.toMillis(refreshIntervalOf({ refreshInterval: "2 seconds" }))).toBe(2_000)
    expect(Duration.toMillis(refreshIntervalOf({ refreshInterval: "60 seconds" }))).toBe(60_000)
    expect(Duration.toMillis(refreshIntervalOf({ refreshInterval: "2 minutes" }))).toBe(60_000)
    expect(Duration.toMillis(refreshIntervalOf({ refreshInterval: Duration.infinity }))).toBe(5_000)
    expect(Duration.toMillis(refreshIntervalOf({ refreshInterval: 0 }))).toBe(5_000)
  })

  it.scoped("revocations of expired tokens are dropped on refresh, so memory stays bounded", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(5)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      const a = yield* Layer.build(instance(storage, randomness))
      const b = yield* Layer.build(instance(storage, randomness))
      const created = yield* Context.get(a, Accounts).create({ name: "Short", tokenTtlSeconds: 60 })
      const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "AllTokens" })
      yield* TestClock.adjust("5 seconds")
      expect(Context.get(b, AccessSnapshot).isRevoked(issued.jti)).toBe(true)
      yield* TestClock.adjust("60 seconds")
      expect(Context.get(a, AccessSnapshot).isRevoked(issued.jti)).toBe(false)
      expect(Context.get(b, AccessSnapshot).isRevoked(issued.jti)).toBe(false)
      // And a snapshot starting now does not load it at all.
      const late = yield* Layer.build(instance(storage, randomness))
      expect(Context.get(late, AccessSnapshot).isRevoked(issued.jti)).toBe(false)
    }))

  it.scoped("the snapshot cannot start without storage", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const randomness = seededRandomness(6)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      yield* Context.get(storage, InMemoryStorageControl).setAvailable(false)
      const error = yield* Effect.flip(Layer.build(instance(storage, randomness)))
      expect(error._tag).toBe("StorageUnavailable")
    }))

  it.scoped("an explicit refresh applies the feed at once", () =>
    Effect.gen(function*() {
      const { a, b, created, issued } = yield* twoInstances()
      yield* a.tokens.revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      expect(b.snapshot.isRevoked(issued.jti)).toBe(false)
      yield* b.snapshot.refresh
      expect(b.snapshot.isRevoked(issued.jti)).toBe(true)
    }))
})
