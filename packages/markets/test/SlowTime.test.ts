/**
 * The slow-time table (`SlowTime.ts`): the share of a trip's time below a meter's crossover
 * speed never rises with the trip's average speed, so a faster trip of the same length is never
 * quoted above a slower one at the low end, and a trip well above the crossover is quoted at its
 * low end on the rule's fare with no slow time. An audit of 2026-12-06 found p10 = 0.12 at 2.45
 * × the crossover between 0.00 and 0.03: Frankfurt's 13 km in 20 min had p5 €35.63, in 15 or
 * 25 min €35.20 (the table is now the records' percentiles made non-increasing:
 * tools/markets/research/slow-time-shares.mjs).
 */
import { describe, expect, it } from "@effect/vitest"
import { priceTrip } from "@ridequote/markets"
import { slowMinutesOf } from "@ridequote/markets/model"
import { quantilesOf, shippedMarket, view } from "./cities/support.js"

const CROSSOVER = 12
/** The share of `minutes` below the crossover at a speed ratio, at one level of the table. */
const shareAt = (ratio: number, level: "p10" | "p50" | "p90", minutes = 30): number =>
  slowMinutesOf(ratio * CROSSOVER * (minutes / 60), minutes, CROSSOVER, level) / minutes

describe("slow time below the crossover speed", () => {
  it("each level's share is non-increasing in the speed ratio, and p10 ≤ p50 ≤ p90 everywhere", () => {
    let previous = { p10: Infinity, p50: Infinity, p90: Infinity }
    for (let ratio = 0.01; ratio <= 4; ratio += 0.01) {
      const now = { p10: shareAt(ratio, "p10"), p50: shareAt(ratio, "p50"), p90: shareAt(ratio, "p90") }
      for (const level of ["p10", "p50", "p90"] as const) expect(now[level]).toBeLessThanOrEqual(previous[level] + 1e-12)
      expect(now.p10).toBeLessThanOrEqual(now.p50 + 1e-12)
      expect(now.p50).toBeLessThanOrEqual(now.p90 + 1e-12)
      previous = now
    }
  })

  it("Frankfurt, 13 km from 10 to 30 minutes (4.9 to 1.6 × the 15.8 km/h crossover): p5 is the rule's €4.00 + 13 × €2.40 = €35.20 with no slow time, and never falls as the trip slows", () => {
    const { market, tariff } = shippedMarket("frankfurt")
    let previous = 0
    for (const minutes of [10, 15, 18, 20, 22, 25, 30]) {
      const priced = priceTrip(market.tariffs, tariff, { distanceKm: 13, durationMinutes: minutes, routeSource: "supplied" }, view("2026-12-08"), 2)
      const [p5] = quantilesOf(priced, [0.05])
      expect(p5).toBeCloseTo(35.2, 9)
      expect(p5 ?? 0).toBeGreaterThanOrEqual(previous)
      previous = p5 ?? 0
    }
  })
})
