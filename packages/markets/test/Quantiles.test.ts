/**
 * The fit's median by selection is the median a sort gives, to the bit: the fitted models are
 * compared byte for byte with the files shipped (ShippedBuild.test.ts), and this pins the
 * equality on samples of every shape (ties, runs, odd and even sizes, negatives, NaN).
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { medianInPlace, sortedQuantile } from "../src/internal/Quantiles.js"

const bySort = (xs: ReadonlyArray<number>): number => sortedQuantile(Float64Array.from(xs).sort(), 0.5)

describe("medianInPlace", () => {
  it("equals the sorted sample's type-7 median, bit for bit", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -3, max: 3 })), { maxLength: 300 }), (xs) => {
        expect(Object.is(medianInPlace(Float64Array.from(xs)), bySort(xs))).toBe(true)
      }),
      { numRuns: 2000 }
    )
  })

  it("handles the shapes a selection can get wrong: sorted, reversed, constant, two values, one, none, NaN", () => {
    const up = Array.from({ length: 1001 }, (_, i) => i / 7)
    const cases: Array<ReadonlyArray<number>> = [
      up, [...up].reverse(), up.slice(1), new Array(500).fill(2.5), [1, 2], [2, 1], [5], [],
      Array.from({ length: 2000 }, (_, i) => (i * 7919) % 13 - 6), [3, Number.NaN, 1, 2]
    ]
    for (const xs of cases) expect(Object.is(medianInPlace(Float64Array.from(xs)), bySort(xs))).toBe(true)
  })
})
