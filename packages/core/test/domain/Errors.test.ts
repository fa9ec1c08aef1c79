/** The error vocabulary: each class carries its code, and `CoreErrors` lists every class once. */
import { describe, expect, it } from "@effect/vitest"
import * as Errors from "../../src/Errors.js"
import { AccountBlocked, BehaviorNotFound, CoreErrors, destinationBeyondReach, errorCodeOf, ErrorCode, InvalidRequest, MarketNotServed, marketNotServed } from "../../src/Errors.js"
import { Schema } from "effect"

/** Every export of Errors.ts that is an error class with a code field. */
const errorClasses = Object.values(Errors).filter((value): value is (typeof CoreErrors)[number] =>
  typeof value === "function" && "fields" in value && typeof value.fields === "object" && value.fields !== null &&
  "code" in value.fields
)

describe("core errors", () => {
  it("CoreErrors lists every error class of Errors.ts exactly once", () => {
    expect(errorClasses.length).toBeGreaterThan(0)
    expect(new Set(CoreErrors).size).toBe(CoreErrors.length)
    expect([...CoreErrors].map((c) => c._tag).sort()).toEqual(errorClasses.map((c) => c._tag).sort())
  })

  it("an instance's code is its class's code, filled in by the constructor", () => {
    for (const errorClass of CoreErrors) {
      expect(Schema.is(ErrorCode)(errorCodeOf(errorClass))).toBe(true)
    }
    expect(new InvalidRequest({ message: "m" }).code).toBe("result:invalid-request")
    expect(errorCodeOf(InvalidRequest)).toBe("result:invalid-request")
    // Several errors share a code: the code is the outcome, the tag the cause.
    expect(new BehaviorNotFound({ message: "m" }).code).toBe("result:invalid-request")
    // A place no market serves is not a malformed request: a code of its own.
    expect(new MarketNotServed({ message: "m" }).code).toBe("result:market-not-served")
  })

  it("a place no market serves names the nearest markets: nearest first, at most 3, whole km with thousands separators", () => {
    const id = (s: string) => s as never
    const refused = marketNotServed({ latitude: 51.5, longitude: -0.12 }, [
      { id: id("nyc"), name: "New York City", distanceKm: 5570.4 },
      { id: id("chicago"), name: "Chicago", distanceKm: 6360.2 },
      { id: id("boston"), name: "Boston", distanceKm: 5259.6 },
      { id: id("seattle"), name: "Seattle", distanceKm: 7700 }
    ])
    expect(refused.message).toBe("no market serves (51.5, -0.12); nearest: boston (5,260 km), nyc (5,570 km), chicago (6,360 km)")
    expect(refused.nearest?.map((m) => [m.id, m.distanceKm])).toEqual([["boston", 5260], ["nyc", 5570], ["chicago", 6360]])
    expect(marketNotServed({ latitude: 1, longitude: 2 }, []).message).toBe("no market serves (1, 2)")
    expect(refused.reason).toBe("pickup-outside-markets")
  })

  it("a destination beyond the pickup market's reach names the market, its reach and the distance (whole km)", () => {
    const refused = destinationBeyondReach({ latitude: 35.68, longitude: 139.77 }, "nyc" as never, 10834.4, 150)
    expect(refused.code).toBe("result:market-not-served")
    expect(refused.reason).toBe("destination-beyond-reach")
    expect(refused.message).toBe("destination (35.68, 139.77) is 10,834 km from market nyc, beyond its reach of 150 km")
    expect(refused.reach).toEqual({ market: "nyc", reachKm: 150, distanceKm: 10834 })
    expect(refused.nearest).toBeUndefined()
    // The body a caller gets: code, message, reason, reach (no _tag once the host strips it).
    expect(Schema.encodeSync(MarketNotServed)(refused)).toEqual({
      _tag: "MarketNotServed",
      code: "result:market-not-served",
      message: refused.message,
      reason: "destination-beyond-reach",
      reach: { market: "nyc", reachKm: 150, distanceKm: 10834 }
    })
  })

  it("an error encodes to its body fields: AccountBlocked's status is accountStatus", () => {
    const encoded = Schema.encodeSync(AccountBlocked)(new AccountBlocked({ message: "m", status: "Blocked" }))
    expect(encoded).toEqual({ _tag: "AccountBlocked", code: "result:account-blocked", message: "m", accountStatus: "Blocked" })
  })
})
