/**
 * acceptPlainQuoteRequest only ever accepts what Schema.decodeUnknown(QuoteRequest) accepts,
 * with the same value, and it does accept the plain shape (else it would buy nothing).
 */
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { acceptPlainQuoteRequest, QuoteRequest } from "../../src/index.js"

const decode = Schema.decodeUnknownEither(QuoteRequest, { errors: "all", onExcessProperty: "error" })

const encode = Schema.encodeSync(QuoteRequest)

/**
 * Valid requests as they arrive: encoded, then JSON text parsed. (The arbitrary also makes
 * instants past year 9999, which encode to "+010000-…", a text the wire format refuses.)
 */
const plainRequests = Arbitrary.make(QuoteRequest)
  .map((request) => JSON.parse(JSON.stringify(encode(request))) as unknown)
  .filter((json) => Either.isRight(decode(json)))

/** Timestamps as callers write them: valid, impossible, zone-less, offset, or not a string. */
const scheduledAts = fc.oneof(
  fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    "2026-11-23T10:00:00Z",
    "2026-11-23T10:00Z",
    "2026-11-23T10:00:00.123456789+05:30",
    "2026-11-23T10:00:00-14:00",
    "2026-11-23T10:00:00+14:01",
    "2026-02-30T10:00:00Z",
    "2026-11-23T24:00:00Z",
    "2026-11-23T10:00:00",
    "2026-11-23",
    "Mon, 23 Nov 2026 10:00:00 GMT",
    "",
    "2026-11-23t10:00:00z"
  ),
  fc.string(),
  fc.integer(),
  fc.constant(null)
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
  ["scheduledAt"],
  ["__proto__"]
)
const mutated = fc.tuple(plainRequests, paths, fc.oneof(oddValues, scheduledAts), fc.boolean()).map(([request, path, value, remove]) => {
  const copy = JSON.parse(JSON.stringify(request)) as Record<string, unknown>
  let target: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>
  const last = path[path.length - 1]!
  if (remove) delete target[last]
  else Object.defineProperty(target, last, { value, enumerable: true, configurable: true, writable: true })
  return copy as unknown
})

describe("acceptPlainQuoteRequest", () => {
  it("accepts every valid request, with the schema's value", () => {
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

  it("accepts a scheduledAt exactly when the schema does, with the same instant", () => {
    fc.assert(
      fc.property(scheduledAts, (scheduledAt) => {
        const json = { pickup: { latitude: 1, longitude: 2 }, destination: { latitude: 1, longitude: 3 }, scheduledAt }
        const accepted = acceptPlainQuoteRequest(json)
        const decoded = decode(json)
        expect(accepted !== undefined).toBe(Either.isRight(decoded))
        if (accepted !== undefined) expect(accepted).toStrictEqual(Either.getOrUndefined(decoded))
      }),
      { numRuns: 2000 }
    )
  })
})
