/** Property tests of the pricing invariants (fast-check via effect/FastCheck). */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Exit, FastCheck as fc, TestClock } from "effect"
import type { Currency } from "../../src/Money.js"
import { minorDigits } from "../../src/Money.js"
import type { Market, Trip } from "../../src/ports/MarketData.js"
import type { BehaviorId } from "../../src/Ids.js"
import { builtInBehaviors } from "../../src/pricing/Behaviors.js"
import type { PricingBehavior } from "../../src/pricing/Behaviors.js"
import { marketView, priceTrip } from "../../src/pricing/Pricing.js"
import { Quotes } from "../../src/pricing/Quotes.js"
import { routeMetadataRule, selectMode } from "../../src/pricing/rules.js"
import { sampleMarket } from "../../src/pricing/SampleMarket.js"
import {
  arbitraryAccount,
  arbitraryIncompleteRouteRequest,
  arbitraryMarket,
  arbitraryQuoteRequest,
  arbitraryTrip
} from "../../src/testing/arbitraries.js"
import { InMemoryAudit } from "../../src/testing/pricing.js"
import { context, engine } from "./fixtures.js"

const RUNS = 2000
const arbitraryAnyMarket: fc.Arbitrary<Market> = fc.oneof(fc.constant(sampleMarket), arbitraryMarket)

const onGrid = (price: number, currency: Currency): boolean => {
  const scaled = price * 10 ** minorDigits(currency)
  return Math.abs(scaled - Math.round(scaled)) < 1e-6 && Number((price).toFixed(minorDigits(currency))) === price
}


/** A hostile behavior: unordered, fractional, negative and non-finite points. */
const chaotic: PricingBehavior = {
  id: "chaotic" as BehaviorId,
  description: "test only",
  recommend: (input) => {
    const p = input.percentiles[0]
    return { saver: (p?.p95 ?? 0) + 0.4, balanced: -3, priority: input.trip.distanceKm > 500 ? Number.NaN : 1.5 }
  }
}
const everyBehavior = [...builtInBehaviors, chaotic]

const ascending = (xs: ReadonlyArray<number>): boolean => xs.every((x, i) => i === 0 || (xs[i - 1] ?? x) <= x)
const validPrice = (x: number, currency: Currency): boolean => Number.isFinite(x) && x >= 0 && onGrid(x, currency)

describe("pricing properties", () => {
  it("percentiles are non-decreasing, finite, ≥ 0 and on the currency's minor-unit grid", () =>
    fc.assert(
      fc.property(arbitraryAnyMarket, arbitraryTrip, (market, trip) =>
        Object.values(marketView(market, trip).marketPrices).every((p) => {
          const xs = [p.p5, p.p25, p.p50, p.p75, p.p95]
          return ascending(xs) && xs.every((x) => validPrice(x, market.currency))
        })),
      { numRuns: RUNS }
    ))

  it("a market's price distributions are finite, ≥ 0 and non-decreasing in q", () =>
    fc.assert(
      fc.property(
        arbitraryAnyMarket,
        arbitraryTrip,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (market, trip, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a]
          return market.offers(trip).every((offer) => {
            const x = offer.distribution.quantile(lo)
            return Number.isFinite(x) && x >= 0 && offer.distribution.quantile(hi) >= x
          })
        }
      ),
      { numRuns: RUNS }
    ))

  it("recommendations: one point per label, saver ≤ balanced ≤ priority, on the grid, for every behavior", () =>
    fc.assert(
      fc.property(arbitraryAnyMarket, arbitraryTrip, fc.constantFrom(...everyBehavior), (market, trip, behavior) => {
        const priced = priceTrip(market, trip, behavior, everyBehavior)
        const levels = [priced.recommendations, ...Object.values(priced.shadow)].flatMap((r) => Object.values(r))
        return levels.every((points) =>
          points.map((p) => p.label).join() === "saver,balanced,priority" &&
          ascending(points.map((p) => p.price)) &&
          points.every((p) => validPrice(p.price, market.currency))
        )
      }),
      { numRuns: RUNS }
    ))

  it("p50 is non-decreasing in distance and in duration", () =>
    fc.assert(
      fc.property(
        arbitraryAnyMarket,
        arbitraryTrip,
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 700, noNaN: true }),
        (market, trip, moreKm, moreMinutes) => {
          const longer: Trip = { ...trip, distanceKm: trip.distanceKm + moreKm }
          const slower: Trip = { ...trip, durationMinutes: trip.durationMinutes + moreMinutes }
          const base = Object.entries(marketView(market, trip).marketPrices)
          return [longer, slower].every((other) => {
            const more = marketView(market, other).marketPrices
            return base.every(([key, p]) => (more[key]?.p50 ?? -1) >= p.p50)
          })
        }
      ),
      { numRuns: RUNS }
    ))

  it("mode threshold: Scheduled exactly when scheduledAt − now ≥ 30 minutes, at every offset", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: -8.64e15 / 2, max: 8.64e15 / 2 }),
        fc.oneof(
          fc.integer({ min: -400 * 86_400_000, max: 400 * 86_400_000 }),
          fc.integer({ min: 30 * 60_000 - 5, max: 30 * 60_000 + 5 })
        ),
        (nowMs, offset) => {
          const now = DateTime.unsafeMake(nowMs)
          return selectMode(DateTime.unsafeMake(nowMs + offset), now) === (offset >= 30 * 60_000 ? "Scheduled" : "Realtime") &&
            selectMode(undefined, now) === "Realtime"
        }
      ),
      { numRuns: 5000 }
    ))

  it("route rule is total over the four combinations of distanceKm and durationMinutes", () =>
    fc.assert(
      fc.property(fc.option(fc.double(), { nil: undefined }), fc.option(fc.double(), { nil: undefined }), (d, t) => {
        const result = routeMetadataRule({ distanceKm: d, durationMinutes: t })
        if (d === undefined && t === undefined) return Either.isRight(result) && result.right._tag === "Resolve"
        if (d !== undefined && t !== undefined) {
          return Either.isRight(result) && result.right._tag === "Supplied" &&
            Object.is(result.right.distanceKm, d) && Object.is(result.right.durationMinutes, t)
        }
        return Either.isLeft(result) && result.left.code === "result:route-metadata-incomplete"
      }),
      { numRuns: 5000 }
    ))
})

const NOW_MS = Date.UTC(2026, 10, 22, 17, 45, 0)
const NOW = DateTime.unsafeMake(NOW_MS)

describe("quote properties", () => {
  it.effect("every valid request is quoted; same request, settings and clock → same prices (determinism)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      // Two independent engines: equal answers cannot come from shared state.
      const first = yield* Effect.provide(Quotes, engine())
      const second = yield* Effect.provide(Quotes, engine())
      const samples = fc.sample(fc.tuple(arbitraryQuoteRequest({ now: NOW }), arbitraryAccount({ status: "Active" })), {
        numRuns: 600,
        seed: 42
      })
      for (const [request, who] of samples) {
        const ctx = context(NOW)
        const a = yield* first.quote(who, request, ctx)
        const b = yield* second.quote(who, request, ctx)
        const again = yield* first.quote(who, request, ctx)
        expect(b).toEqual(a)
        expect(again).toEqual(a)
      }
    }))

  it.effect("every outcome is audited exactly once: quoted, rejected (blocked, incomplete route) alike", () =>
    Effect.gen(function*() {
      const cases = fc.sample(
        fc.oneof(
          fc.tuple(arbitraryQuoteRequest({ now: NOW }), arbitraryAccount({ status: "Active" }), fc.constant("quoted")),
          fc.tuple(arbitraryIncompleteRouteRequest({ now: NOW }), arbitraryAccount({ status: "Active" }), fc.constant("result:route-metadata-incomplete")),
          fc.tuple(arbitraryQuoteRequest({ now: NOW }), arbitraryAccount({ status: "Blocked" }), fc.constant("result:account-blocked")),
          fc.tuple(arbitraryQuoteRequest({ now: NOW }), arbitraryAccount({ status: "Pending" }), fc.constant("result:account-blocked"))
        ),
        { numRuns: 1000, seed: 7 }
      )
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const audit = yield* InMemoryAudit
      for (const [request, who, expected] of cases) {
        const ctx = context(NOW)
        const exit = yield* Effect.exit(quotes.quote(who, request, ctx))
        const records = (yield* audit.records).filter((r) => r.requestId === ctx.requestId)
        expect(records).toHaveLength(1)
        const decision = records[0]?.decision
        if (expected === "quoted") {
          expect(Exit.isSuccess(exit) && decision?.outcome).toBe("quoted")
        } else {
          expect(Exit.isFailure(exit)).toBe(true)
          expect(decision).toMatchObject({ outcome: "rejected", code: expected })
        }
      }
    }).pipe(Effect.provide(engine())))
})
