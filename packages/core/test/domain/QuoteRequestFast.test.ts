/**
 * acceptPlainQuoteRequest only ever accepts what Schema.decodeUnknown(QuoteRequest) accepts,
 * with the same value, and it does accept the plain shape (else it would buy nothing).
 */
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { acceptPlainQuoteRequest, QuoteRequest } from "../../src/index.js"

const decode = Schema.decodeUnknownEither(QuoteRequest, { errors: "all", onExcessProperty: "error" })

/** Valid requests as they arrive: JSON text parsed. */
const plainRequests = Arbitrary.make(QuoteRequest).map(({ scheduledAt: _, ...plain }) =>
  JSON.parse(JSON.stringify(plain)) as unknown
)

/** Almost-valid requests: one field removed, added, retyped or pushed out of bounds. */
const oddValues = fc.oneof(
  fc.constant(null),
  fc.constant("40.7"),
  fc.constant([]),
  fc.constant({}),
  fc.double(),
  fc.constantFrom(0, -0, 90.0000001, -180.5, 1000.5, 1440.01, Number.MAX_VALUE, -1e-300),
  fc.constant(true)
)
const paths = fc.constantFrom(
  ["pickup"],
  ["destination"],
  ["distanceKm"],
  ["durationMinutes"],
  ["pickup", "latitude"],
  ["pickup", "longitude"],
  ["destination", "latitude"],
  ["destination", "longitude"],
  ["extra"],
  ["pickup", "extra"],
  ["__proto__"]
)
const mutated = fc.tuple(plainRequests, paths, oddValues, fc.boolean()).map(([request, path, value, remove]) => {
  const copy = JSON.parse(JSON.stringify(request)) as Record<string, unknown>
  let target: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>
  const last = path[path.length - 1]!
  if (remove) delete target[last]
  else Object.defineProperty(target, last, { value, enumerable: true, configurable: true, writable: true })
  return copy as unknown
})

describe("acceptPlainQuoteRequest", () => {
  it("accepts every valid request without scheduledAt, with the schema's value", () => {
    fc.assert(
      fc.property(plainRequests, (json) => {
        const accepted = acceptPlainQuoteRequest(json)
        const decoded = decode(json)
        expect(Either.isRight(decoded)).toBe(true)
        expect(accepted).toStrictEqual(Either.getOrUndefined(decoded))
      }),
      { numRuns: 500 }
    )
  })

  it("whatever it accepts among almost-valid and arbitrary inputs, the schema accepts with the same value", () => {
    fc.assert(
      fc.property(fc.oneof(mutated, fc.jsonValue()), (json) => {
        const accepted = acceptPlainQuoteRequest(json)
        if (accepted === undefined) return
        const decoded = decode(json)
        expect(Either.isRight(decoded)).toBe(true)
        expect(accepted).toStrictEqual(Either.getOrUndefined(decoded))
      }),
      { numRuns: 3000 }
    )
  })

  it("leaves a scheduledAt to the schema", () => {
    const json = { pickup: { latitude: 1, longitude: 2 }, destination: { latitude: 1, longitude: 3 }, scheduledAt: "2026-11-23T10:00:00Z" }
    expect(acceptPlainQuoteRequest(json)).toBeUndefined()
    expect(Either.isRight(decode(json))).toBe(true)
  })
})
