/** The error vocabulary: each class carries its code, and `CoreErrors` lists every class once. */
import { describe, expect, it } from "@effect/vitest"
import * as Errors from "../../src/Errors.js"
import { AccountBlocked, CoreErrors, errorCodeOf, ErrorCode, InvalidRequest, MarketNotServed } from "../../src/Errors.js"
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
    expect(new MarketNotServed({ message: "m" }).code).toBe("result:invalid-request")
  })

  it("an error encodes to its body fields: AccountBlocked's status is accountStatus", () => {
    const encoded = Schema.encodeSync(AccountBlocked)(new AccountBlocked({ message: "m", status: "Blocked" }))
    expect(encoded).toEqual({ _tag: "AccountBlocked", code: "result:account-blocked", message: "m", accountStatus: "Blocked" })
  })
})
