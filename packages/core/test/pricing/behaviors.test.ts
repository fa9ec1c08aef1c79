/** Built-in behaviors (formulas of docs/pricing.md), the registry, and the engine's guarantees. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, FastCheck } from "effect"
import type { BehaviorId } from "../../src/Ids.js"
import type { Currency } from "../../src/Money.js"
import type { PriceDistribution, ProviderOffer, Trip } from "../../src/ports/MarketData.js"
import type { BehaviorInput, PercentilesMinor, PricingBehavior } from "../../src/pricing/Behaviors.js"
import { Behaviors, BehaviorsLive, builtInBehaviors, makeBehaviorsLive, marketMedianBehavior as marketMedian, premiumBehavior as premium, undercutBehavior as undercut } from "../../src/pricing/Behaviors.js"
import { Pricing, PricingLive } from "../../src/pricing/Pricing.js"
import { sampleMarket } from "../../src/pricing/SampleMarket.js"
import { BERLIN, BERLIN_WEST } from "./fixtures.js"

const trip: Trip = {
  pickup: BERLIN,
  destination: BERLIN_WEST,
  distanceKm: 12.4,
  durationMinutes: 27,
  mode: "Realtime",
  routeSource: "supplied",
  localTime: { hour: 14, minuteOfDay: 840, dayOfWeek: 2, dayType: "weekday" }
}
const USD = "USD" as Currency
const flat: PriceDistribution = { quantile: () => 1 }
const p = (p5: number, p25: number, p50: number, p75: number, p95: number): PercentilesMinor =>
  ({ p5, p25, p50, p75, p95 }) as unknown as PercentilesMinor
const input = (percentiles: ReadonlyArray<PercentilesMinor>): BehaviorInput => ({
  serviceLevel: "Standard",
  currency: USD,
  offers: percentiles.map((_, i): ProviderOffer => ({ provider: `p${i}`, serviceLevel: "Standard", distribution: flat })),
  percentiles,
  trip
})

const three = input([p(900, 1000, 1100, 1200, 1500), p(1400, 1500, 1600, 1700, 1900), p(700, 800, 900, 1000, 1300)])
const two = input([p(900, 1000, 1100, 1200, 1500), p(1400, 1500, 1601, 1700, 1900)])

/** The median by its definition: sort a copy, take the middle (or the midpoint of the middle two). */
const referenceMedian = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
}

describe("built-in behaviors", () => {
  it("market-median agrees with the median by definition for 1 to 7 providers in any order", () => {
    FastCheck.assert(
      FastCheck.property(
        FastCheck.array(FastCheck.tuple(FastCheck.nat(100_000), FastCheck.nat(100_000), FastCheck.nat(100_000)), { minLength: 1, maxLength: 7 }),
        (levels) => {
          const points = marketMedian.recommend(input(levels.map(([a, b, c]) => p(0, a, b, c, 0))))
          expect(points).toEqual({
            saver: referenceMedian(levels.map((l) => l[0])),
            balanced: referenceMedian(levels.map((l) => l[1])),
            priority: referenceMedian(levels.map((l) => l[2]))
          })
        }
      ),
      { numRuns: 500 }
    )
  })

  it("market-median: cross-provider median of p25, p50, p75 (midpoint of the middle two for an even count)", () => {
    expect(marketMedian.recommend(three)).toEqual({ saver: 1000, balanced: 1100, priority: 1200 })
    expect(marketMedian.recommend(two)).toEqual({ saver: 1250, balanced: 1350.5, priority: 1450 })
  })

  it("undercut: 5 % below the cheapest provider's p25, p50, p75", () => {
    expect(undercut.recommend(three)).toEqual({ saver: 760, balanced: 855, priority: 950 })
  })

  it("premium: cross-provider median of p50, p75, p95", () => {
    expect(premium.recommend(three)).toEqual({ saver: 1100, balanced: 1200, priority: 1500 })
  })

  it("market-median is the default and every built-in is registered", () =>
    Effect.gen(function*() {
      const behaviors = yield* Behaviors
      expect(behaviors.all.map((b) => b.id)).toEqual(["market-median", "undercut", "premium"])
      for (const b of builtInBehaviors) expect(yield* behaviors.get(b.id)).toBe(b)
      const unknown = yield* Effect.exit(behaviors.get("nope"))
      expect(Exit.isFailure(unknown) && unknown.cause._tag === "Fail" && unknown.cause.error._tag).toBe("BehaviorNotFound")
    }).pipe(Effect.provide(BehaviorsLive), Effect.runSync))
})

describe("registering a behavior", () => {
  const flatTen: PricingBehavior = {
    id: "flat-ten" as BehaviorId,
    description: "10.00 at every label",
    recommend: () => ({ saver: 1000, balanced: 1000, priority: 1000 })
  }
  /** Returns its points in the wrong order, fractional and negative: the engine must fix all of it. */
  const careless: PricingBehavior = {
    id: "market-median" as BehaviorId,
    description: "replaces the built-in",
    recommend: () => ({ saver: 2000.6, balanced: -5, priority: 1000.4 })
  }
  const priceWith = (behaviors: ReadonlyArray<PricingBehavior>, defaultBehavior: string) =>
    Effect.gen(function*() {
      const pricing = yield* Pricing
      return yield* pricing.price(sampleMarket, trip, {
        defaultBehavior: defaultBehavior as BehaviorId,
        enabledBehaviors: []
      })
    }).pipe(Effect.provide(PricingLive), Effect.provide(makeBehaviorsLive(behaviors)), Effect.runSync)

  it("makeBehaviorsLive adds an embedder's behavior next to the built-ins", () => {
    const priced = priceWith([flatTen], "flat-ten")
    expect(priced.behavior).toBe("flat-ten")
    expect(priced.recommendations["Standard"]?.map((r) => r.price)).toEqual([10, 10, 10])
  })

  it("a behavior with a built-in's id replaces it; the engine sorts, rounds and floors its points at 0", () => {
    const priced = priceWith([careless], "market-median")
    for (const points of Object.values(priced.recommendations)) {
      expect(points).toEqual([
        { price: 0, label: "saver" },
        { price: 10, label: "balanced" },
        { price: 20.01, label: "priority" }
      ])
    }
  })
})

describe("sample market demand spread (sample data)", () => {
  const spread = (t: Trip): number => {
    const offer = sampleMarket.offers(t).find((o) => o.provider === "cityhop" && o.serviceLevel === "Standard")
    return offer === undefined ? Number.NaN : offer.distribution.quantile(0.95) - offer.distribution.quantile(0.05)
  }
  const peak: Trip = { ...trip, localTime: { hour: 8, minuteOfDay: 480, dayOfWeek: 2, dayType: "weekday" } }
  const quiet: Trip = { ...trip, localTime: { hour: 3, minuteOfDay: 180, dayOfWeek: 2, dayType: "weekday" } }

  it("is wider in the weekday morning peak than at night", () => expect(spread(peak)).toBeGreaterThan(spread(quiet)))
  it("is narrower for Scheduled than for Realtime", () =>
    expect(spread({ ...peak, mode: "Scheduled" })).toBeLessThan(spread(peak)))
  it("is wider for resolved routes than for supplied ones", () =>
    expect(spread({ ...quiet, routeSource: "resolved" })).toBeGreaterThan(spread(quiet)))
  it("never goes below minimum fare + booking fee (cityhop Standard: 7.50 + 1.50)", () => {
    const short: Trip = { ...quiet, distanceKm: 0.3, durationMinutes: 1 }
    const offer = sampleMarket.offers(short).find((o) => o.provider === "cityhop" && o.serviceLevel === "Standard")
    expect(offer?.distribution.quantile(0.01)).toBe(9)
  })
  it("serves three providers over Economy, Standard, Comfort and XL", () => {
    const offers = sampleMarket.offers(trip)
    expect(new Set(offers.map((o) => o.provider))).toEqual(new Set(["swiftride", "cityhop", "metrocab"]))
    expect(new Set(offers.map((o) => o.serviceLevel))).toEqual(new Set(["Economy", "Standard", "Comfort", "XL"]))
    expect(sampleMarket.id).toBe("global-sample")
    expect(sampleMarket.currency).toBe("USD")
  })
})

