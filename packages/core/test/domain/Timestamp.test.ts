import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, FastCheck, Schema } from "effect"
import { Timestamp, parseIsoTimestamp } from "../../src/Timestamp.js"

const decode = Schema.decodeUnknownEither(Timestamp)

describe("Timestamp (ISO 8601, strict)", () => {
  it("accepts UTC with milliseconds and encodes back identically", () => {
    const s = "2026-11-22T10:15:30.123Z"
    const dt = Either.getOrThrow(decode(s))
    expect(DateTime.toEpochMillis(dt)).toBe(Date.UTC(2026, 10, 22, 10, 15, 30, 123))
    expect(Schema.encodeSync(Timestamp)(dt)).toBe(s)
  })

  it("applies an explicit offset", () => {
    const dt = Either.getOrThrow(decode("2026-11-22T12:15:30+02:00"))
    expect(Schema.encodeSync(Timestamp)(dt)).toBe("2026-11-22T10:15:30.000Z")
  })

  it("dates are parsed strictly: 30 February is refused, not rolled to 2 March", () => {
    expect(Either.isLeft(decode("2026-02-30T10:00:00Z"))).toBe(true)
    expect(Either.isLeft(decode("2026-02-29T10:00:00Z"))).toBe(true)
    expect(Either.isRight(decode("2028-02-29T10:00:00Z"))).toBe(true)
    expect(Either.isLeft(decode("2026-04-31T10:00:00Z"))).toBe(true)
  })

  it("scheduledAt must carry a time zone", () => {
    expect(Either.isLeft(decode("2026-11-22T10:15:30"))).toBe(true)
    expect(Either.isLeft(decode("2026-11-22"))).toBe(true)
  })

  it("refuses out-of-range fields and non-ISO shapes", () => {
    for (const s of [
      "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T10:60:00Z",
      "2026-11-22T10:00:60Z", "2026-11-22T10:00:00+15:00", "Sun, 22 Nov 2026 10:00:00 GMT", "1732270530",
      "2026-11-22 10:00:00Z", " 2026-11-22T10:00:00Z", ""
    ]) expect(Either.isLeft(decode(s)), s).toBe(true)
    expect(Either.isLeft(decode(1732270530))).toBe(true)
  })

  it("round-trips every instant in years 0001..9999 at millisecond precision", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.integer({ min: -62135596800000, max: 253402300799999 }), (ms) => {
        const s = new Date(ms).toISOString()
        const back = parseIsoTimestamp(s)
        return Either.isRight(back) && DateTime.toEpochMillis(back.right) === ms
      }),
      { numRuns: 2000 }
    )
  })
})
