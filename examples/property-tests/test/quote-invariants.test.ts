/**
 * Property-testing whole quotes: the engine over the sample market with an in-memory audit,
 * random valid requests and accounts from `@ridequote/core/testing`, and a TestClock so "now"
 * is fixed.
 */
import { describe, expect, it } from "@effect/vitest"
import type { RequestId } from "@ridequote/core"
import {
  BehaviorsLive,
  PricingLive,
  Quotes,
  QuotesLive,
  SampleMarketLive
} from "@ridequote/core"
import { OfflineRouteResolverLive } from "@ridequote/routes"
import { arbitraryAccount, arbitraryQuoteRequest, InMemoryAudit, InMemoryAuditLog } from "@ridequote/core/testing"
import { DateTime, Effect, FastCheck as fc, Layer, TestClock } from "effect"

const Engine = QuotesLive.pipe(
  Layer.provide(PricingLive),
  Layer.provide(BehaviorsLive),
  Layer.provide(SampleMarketLive),
  Layer.provide(OfflineRouteResolverLive),
  Layer.provideMerge(InMemoryAuditLog)
)

const NOW_MS = Date.UTC(2026, 10, 23, 8, 15)
const NOW = DateTime.unsafeMake(NOW_MS)
const requestId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}` as RequestId

describe("quote invariants", () => {
  it.effect("every valid request from an Active account is quoted, audited, and its p50s sit inside [p5, p95]", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const cases = fc.sample(
        fc.tuple(arbitraryQuoteRequest({ now: NOW }), arbitraryAccount({ status: "Active" })),
        { numRuns: 500, seed: 2026 }
      )
      const outOfOrder: Array<unknown> = []
      for (const [i, [request, account]] of cases.entries()) {
        const quote = yield* quotes.quote(account, request, { requestId: requestId(i), receivedAt: NOW })
        for (const p of Object.values(quote.marketPrices)) if (!(p.p5 <= p.p50 && p.p50 <= p.p95)) outOfOrder.push(p)
      }
      expect(outOfOrder).toEqual([])
      const records = yield* (yield* InMemoryAudit).records
      expect(records.map((r) => r.decision.outcome)).toEqual(cases.map(() => "quoted"))
    }).pipe(Effect.provide(Engine)))

  it.effect("Scheduled quotes (booked ≥ 30 min ahead) have a narrower p5–p95 spread than Realtime ones", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const account = fc.sample(arbitraryAccount({ status: "Active" }), { numRuns: 1, seed: 1 })[0]
      if (account === undefined) return
      const trip = { pickup: { latitude: 41.39, longitude: 2.17 }, destination: { latitude: 41.4, longitude: 2.19 } }
      const at = DateTime.unsafeMake(NOW_MS + 2 * 3_600_000)
      const soon = DateTime.unsafeMake(NOW_MS + 5 * 60_000)
      const scheduled = yield* quotes.quote(account, { ...trip, distanceKm: 3, durationMinutes: 12, scheduledAt: at }, {
        requestId: requestId(10_001),
        receivedAt: NOW
      })
      const realtime = yield* quotes.quote(account, { ...trip, distanceKm: 3, durationMinutes: 12, scheduledAt: soon }, {
        requestId: requestId(10_002),
        receivedAt: NOW
      })
      expect([scheduled.mode, realtime.mode]).toEqual(["Scheduled", "Realtime"])
      const spread = (p: { p5: number; p95: number }) => p.p95 - p.p5
      const key = "swiftride/Standard"
      const [s, r] = [scheduled.marketPrices[key], realtime.marketPrices[key]]
      expect(s !== undefined && r !== undefined && spread(s) < spread(r)).toBe(true)
    }).pipe(Effect.provide(Engine)))
})
