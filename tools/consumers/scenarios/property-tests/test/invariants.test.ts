// A team's own invariant, checked on our arbitraries: every quote's percentiles are ordered.
import { describe, expect, it } from "@effect/vitest"
import { BehaviorsLive, PricingLive, Quotes, QuotesLive, SampleMarketLive, type RequestId } from "@ridequote/core"
import { arbitraryAccount, arbitraryQuoteRequest, InMemoryAuditLog } from "@ridequote/core/testing"
import { OfflineRouteResolverLive } from "@ridequote/routes"
import { DateTime, Effect, FastCheck as fc, Layer, TestClock } from "effect"

const Engine = QuotesLive.pipe(
  Layer.provide(PricingLive),
  Layer.provide(BehaviorsLive),
  Layer.provide(SampleMarketLive),
  Layer.provide(OfflineRouteResolverLive),
  Layer.provideMerge(InMemoryAuditLog)
)
const NOW_MS = Date.UTC(2026, 10, 25, 9, 0)

describe("consumer invariants", () => {
  it.effect("p5 <= p25 <= p50 <= p75 <= p95 for every provider of every quote", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const cases = fc.sample(
        fc.tuple(arbitraryQuoteRequest({ now: DateTime.unsafeMake(NOW_MS) }), arbitraryAccount({ status: "Active" })),
        { numRuns: 200, seed: 7 }
      )
      let n = 0
      for (const [request, account] of cases) {
        const requestId = `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, "0")}` as RequestId
        const quote = yield* quotes.quote(account, request, { requestId, receivedAt: yield* DateTime.now })
        for (const p of Object.values(quote.marketPrices)) {
          expect(p.p5 <= p.p25 && p.p25 <= p.p50 && p.p50 <= p.p75 && p.p75 <= p.p95).toBe(true)
        }
      }
      expect(n).toBe(200)
    }).pipe(Effect.provide(Engine)))
})
