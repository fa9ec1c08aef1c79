/**
 * Rules where time matters, on the TestClock: the rate limit's refill, token expiry, revoke-all
 * within one millisecond, the 30-minute Scheduled threshold, and failing closed when the
 * access view goes stale. The HTTP server is real; only Effect's clock is the test's.
 */
import { describe, expect, layer } from "@effect/vitest"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Clock, DateTime, Effect, Layer, TestClock } from "effect"
import { call, errorCode, issueToken, makeTestApp, signedIn, StorageSwitch } from "./harness.js"
import { twoCities } from "./markets.js"

const App = makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), {
  rateLimit: { requestsPerSecond: 1, burst: 2 }
})

const trip = {
  pickup: { latitude: 40.7, longitude: -74 },
  destination: { latitude: 40.75, longitude: -73.98 }
}

describe("HTTP rules in time", () => {
  layer(App)((it) => {
    it.effect("rate limit: a burst of 2, then 429 with Retry-After: 1; one second later a request is accepted", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(200)
        expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(200)
        const limited = yield* call("GET", "/v1/customer/me", { token })
        expect(limited.status).toBe(429)
        expect(errorCode(limited)).toBe("result:rate-limited")
        expect(limited.headers["retry-after"]).toBe("1")
        yield* TestClock.adjust("999 millis")
        expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(429)
        yield* TestClock.adjust("1 millis")
        expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(200)
      }))

    it.effect("a token is honoured until its exp, then 401 result:token-expired", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn({ tokenTtlSeconds: 60 })
        yield* TestClock.adjust("59 seconds")
        expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(200)
        yield* TestClock.adjust("2 seconds")
        const r = yield* call("GET", "/v1/customer/me", { token })
        expect(r.status).toBe(401)
        expect(errorCode(r)).toBe("result:token-expired")
      }))

    it.effect("revoke-all spares a token issued in the same millisecond, after it", () =>
      Effect.gen(function*() {
        const { created, token } = yield* signedIn()
        const before = yield* Clock.currentTimeMillis
        const r = yield* call("POST", "/v1/auth/revoke", { token, json: { all: true } })
        expect(r.json).toEqual({ revoked: 1 })
        const fresh = yield* issueToken(created)
        expect(yield* Clock.currentTimeMillis).toBe(before)
        expect((yield* call("GET", "/v1/customer/me", { token: fresh.token })).status).toBe(200)
        expect(errorCode(yield* call("GET", "/v1/customer/me", { token }))).toBe("result:token-revoked")
      }))

    it.effect("scheduledAt exactly 30 minutes ahead is Scheduled; one millisecond less is Realtime", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        const now = yield* Clock.currentTimeMillis
        const at = (ms: number) => new Date(now + ms).toISOString()
        const scheduled = yield* call("POST", "/v1/quote", { token, json: { ...trip, scheduledAt: at(30 * 60_000) } })
        expect(scheduled.json).toMatchObject({ mode: "Scheduled" })
        const realtime = yield* call("POST", "/v1/quote", { token, json: { ...trip, scheduledAt: at(30 * 60_000 - 1) } })
        expect(realtime.json).toMatchObject({ mode: "Realtime" })
      }))

    it.effect("fail closed: storage unreachable for over two refresh intervals → bearer calls 503 result:unavailable; recovers by itself", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        const storage = yield* StorageSwitch
        yield* storage.setAvailable(false)
        yield* TestClock.adjust("11 seconds")
        const stale = yield* call("GET", "/v1/customer/me", { token })
        expect(stale.status).toBe(503)
        expect(errorCode(stale)).toBe("result:unavailable")
        yield* storage.setAvailable(true)
        yield* TestClock.adjust("5 seconds")
        expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(200)
      }))
  })

  layer(makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), undefined, "httpapi", undefined, twoCities(DateTime.unsafeMake(3_600_000))))((it) => {
    it.effect("GET /v1/markets without ?at= shows the basis in force at the Clock's now", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        const tariffs = (r: { readonly json: unknown }) =>
          (r.json as ReadonlyArray<{ offers: ReadonlyArray<{ source: { tariff?: { name: string } } }> }>)[0]?.offers.map((o) => o.source.tariff?.name)
        const before = yield* call("GET", "/v1/markets", { token })
        expect(new Set(tariffs(before))).toEqual(new Set(["Berlin tariff of 2019"]))
        // The TestClock starts at 1970-01-01T00:00Z; these markets' tariff changed an hour later.
        yield* TestClock.adjust("1 hour")
        const after = yield* call("GET", "/v1/markets", { token })
        expect(new Set(tariffs(after))).toEqual(new Set(["Berlin tariff of 2020"]))
      }))
  })
})
