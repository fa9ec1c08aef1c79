/**
 * Property-testing a pricing behavior of your own against random markets: register it, price
 * arbitrary trips in arbitrary (valid) markets, and state what must always hold.
 */
import { describe, it } from "@effect/vitest"
import type { BehaviorId, PricingBehavior } from "@ridequote/core"
import { makeBehaviorsLive, Pricing, PricingLive } from "@ridequote/core"
import { arbitraryMarket, arbitraryTrip } from "@ridequote/core/testing"
import { Effect, FastCheck as fc } from "effect"

/** Our own strategy: halfway between the cheapest and the dearest provider's median. */
const meetInTheMiddle: PricingBehavior = {
  id: "meet-in-the-middle" as BehaviorId,
  description: "midpoint of the cheapest and dearest provider's p50, ±10 %",
  recommend: ({ percentiles }) => {
    const p50s = percentiles.map((p) => p.p50)
    const mid = (Math.min(...p50s) + Math.max(...p50s)) / 2
    return { saver: 0.9 * mid, balanced: mid, priority: 1.1 * mid }
  }
}

const settings = { defaultBehavior: meetInTheMiddle.id, enabledBehaviors: [] }

describe("meet-in-the-middle", () => {
  it.effect("balanced lies between the cheapest and the dearest provider's p50, in every market", () =>
    Effect.gen(function*() {
      const pricing = yield* Pricing
      fc.assert(
        fc.property(arbitraryMarket, arbitraryTrip, (market, trip) => {
          const priced = Effect.runSync(pricing.price(market, trip, settings))
          return Object.entries(priced.recommendations).every(([level, points]) => {
            const p50s = Object.entries(priced.marketPrices)
              .filter(([key]) => key.endsWith(`/${level}`))
              .map(([, p]) => p.p50)
            // The midpoint is rounded to the currency's grid, where both ends already are.
            const balanced = points[1]?.price ?? Number.NaN
            return balanced >= Math.min(...p50s) && balanced <= Math.max(...p50s)
          })
        }),
        { numRuns: 500 }
      )
    }).pipe(Effect.provide(PricingLive), Effect.provide(makeBehaviorsLive([meetInTheMiddle]))))

  it.effect("the engine still guarantees saver ≤ balanced ≤ priority and prices ≥ 0", () =>
    Effect.gen(function*() {
      const pricing = yield* Pricing
      fc.assert(
        fc.property(arbitraryMarket, arbitraryTrip, (market, trip) => {
          const priced = Effect.runSync(pricing.price(market, trip, settings))
          return Object.values(priced.recommendations).every(([saver, balanced, priority]) =>
            saver !== undefined && balanced !== undefined && priority !== undefined &&
            0 <= saver.price && saver.price <= balanced.price && balanced.price <= priority.price
          )
        }),
        { numRuns: 1000 }
      )
    }).pipe(Effect.provide(PricingLive), Effect.provide(makeBehaviorsLive([meetInTheMiddle]))))
})
