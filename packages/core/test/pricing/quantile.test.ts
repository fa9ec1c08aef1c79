/** Percentile math: Hyndman–Fan type 7 sample quantiles and the standard normal quantile. */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { normalQuantile, quantile } from "../../src/pricing/Quantile.js"

describe("quantile (Hyndman–Fan type 7)", () => {
  it("matches R's quantile(type = 7) on known samples", () => {
    // R: quantile(c(1, 2, 3, 4), c(0, .25, .5, .75, 1)) → 1.00 1.75 2.50 3.25 4.00
    expect([0, 0.25, 0.5, 0.75, 1].map((q) => quantile([1, 2, 3, 4], q))).toEqual([1, 1.75, 2.5, 3.25, 4])
    // R: quantile(c(3, 7, 8, 15, 20), .1) → 4.6
    expect(quantile([3, 7, 8, 15, 20], 0.1)).toBeCloseTo(4.6, 12)
    expect(quantile([42], 0.37)).toBe(42)
  })

  it("clamps q into [0, 1] (NaN counts as 0), so it is total", () => {
    expect(quantile([1, 2, 3], -1)).toBe(1)
    expect(quantile([1, 2, 3], 2)).toBe(3)
    expect(quantile([1, 2, 3], Number.NaN)).toBe(1)
  })

  it("is non-decreasing in q and stays within [min, max] of the sample", () =>
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (xs, a, b) => {
          const sorted = [...xs].sort((x, y) => x - y) as [number, ...Array<number>]
          const [lo, hi] = a <= b ? [a, b] : [b, a]
          const x = quantile(sorted, lo)
          const y = quantile(sorted, hi)
          return x <= y && x >= sorted[0] && y <= (sorted[sorted.length - 1] ?? sorted[0])
        }
      ),
      { numRuns: 3000 }
    ))
})

describe("normalQuantile (Acklam)", () => {
  it("matches tabulated standard normal quantiles", () => {
    const table: Array<[number, number]> = [
      [0.5, 0],
      [0.975, 1.959963984540054],
      [0.95, 1.644853626951472],
      [0.75, 0.6744897501960817],
      [0.05, -1.644853626951472],
      [0.01, -2.326347874040841],
      [0.001, -3.090232306167813]
    ]
    for (const [p, z] of table) expect(normalQuantile(p)).toBeCloseTo(z, 7)
  })

  it("is finite at and beyond the endpoints (clamped), and NaN maps to the median", () => {
    for (const p of [0, 1, -1, 2]) expect(Number.isFinite(normalQuantile(p))).toBe(true)
    expect(normalQuantile(Number.NaN)).toBe(0)
  })

  it("is non-decreasing in p", () =>
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) =>
        a <= b ? normalQuantile(a) <= normalQuantile(b) : normalQuantile(b) <= normalQuantile(a)),
      { numRuns: 5000 }
    ))
})
