import { describe, expect, it } from "vitest"
import { newSigningKeyRow } from "../src/SigningKeyRow.js"

describe("a new signing key's row", () => {
  it("has a kid a command line never reads as an option, and 256 random bits", () => {
    for (let i = 0; i < 2000; i++) {
      const row = newSigningKeyRow()
      expect(row.kid).toMatch(/^k[A-Za-z0-9_-]{22}$/)
      expect(Buffer.from(row.secret, "base64url")).toHaveLength(32)
    }
  })
})
