import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import { Currency, minorDigits, toMajor, toMinor } from "../../src/Money.js"

const USD = Schema.decodeSync(Currency)("USD")
const JPY = Schema.decodeSync(Currency)("JPY")
const KWD = Schema.decodeSync(Currency)("KWD")

describe("Money (prices rounded to the currency's minor unit)", () => {
  it("knows minor-unit digits", () => {
    expect(minorDigits(USD)).toBe(2)
    expect(minorDigits(JPY)).toBe(0)
    expect(minorDigits(KWD)).toBe(3)
  })

  it("rounds half up, immune to binary representation error", () => {
    expect(toMinor(1.005, USD)).toBe(101)
    expect(toMinor(12.344, USD)).toBe(1234)
    expect(toMinor(12.345, USD)).toBe(1235)
    expect(toMinor(1234.5, JPY)).toBe(1235)
  })

  it("is total: NaN, infinities and negatives become zero", () => {
    expect(toMinor(Number.NaN, USD)).toBe(0)
    expect(toMinor(Number.POSITIVE_INFINITY, USD)).toBe(0)
    expect(toMinor(-3, USD)).toBe(0)
  })

  it("major amounts lie exactly on the minor-unit grid", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.double({ min: 0, max: 1e7, noNaN: true }), (x) => {
        const minor = toMinor(x, USD)
        const major = toMajor(minor, USD)
        return Number.isInteger(minor) && Math.round(major * 100) === minor && Number(major.toFixed(2)) === major
      }),
      { numRuns: 5000 }
    )
  })

  it("rounding is monotone: a larger amount never rounds lower", () => {
    FastCheck.assert(
      FastCheck.property(
        FastCheck.double({ min: 0, max: 1e6, noNaN: true }),
        FastCheck.double({ min: 0, max: 1e6, noNaN: true }),
        (a, b) => (a <= b ? toMinor(a, USD) <= toMinor(b, USD) : toMinor(a, USD) >= toMinor(b, USD))
      ),
      { numRuns: 5000 }
    )
  })
})
