import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { Credentials, CredentialsLive, hashSecret, verifySecret } from "../../src/auth/Credentials.js"
import type { SecretHash } from "../../src/ports/AccountStore.js"
import { RandomnessLive } from "../../src/Randomness.js"

/** Real OS randomness: these tests are about what the generated values look like. */
const provide = Effect.provide(CredentialsLive.pipe(Layer.provide(RandomnessLive)))

describe("credentials", () => {
  it.effect("api key is rqk_ + 24 base64url chars; secret is rqs_ + 43 base64url chars (256 bits)", () =>
    Effect.gen(function*() {
      const credentials = yield* Credentials
      const { apiKey, apiSecret } = yield* credentials.generate
      expect(apiKey).toMatch(/^rqk_[A-Za-z0-9_-]{24}$/)
      const secret = Redacted.value(apiSecret)
      expect(secret).toMatch(/^rqs_[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(secret.slice(4), "base64url")).toHaveLength(32)
    }).pipe(provide))

  it.effect("every generated secret and key is different", () =>
    Effect.gen(function*() {
      const credentials = yield* Credentials
      const all = yield* Effect.all(Array.from({ length: 200 }, () => credentials.generate))
      expect(new Set(all.map((c) => Redacted.value(c.apiSecret))).size).toBe(200)
      expect(new Set(all.map((c) => c.apiKey)).size).toBe(200)
    }).pipe(provide))

  it("the stored hash is the hex SHA-256 of the secret, never the secret", () => {
    const secret = Redacted.make("rqs_" + "z".repeat(43))
    const hash = hashSecret(secret)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).toBe(createHash("sha256").update(Redacted.value(secret)).digest("hex"))
    expect(hash).not.toContain("zzzz")
  })

  it("secrets are Redacted: printing or serialising them shows nothing", () => {
    const secret = Redacted.make("rqs_" + "q".repeat(43))
    expect(String(secret)).not.toContain("qqqq")
    expect(JSON.stringify({ secret })).not.toContain("qqqq")
  })

  it("property: verify accepts the right secret and rejects every other", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.string({ minLength: 1 }), FastCheck.string({ minLength: 1 }), (a, b) => {
        const stored = hashSecret(Redacted.make(a))
        expect(verifySecret(Redacted.make(a), stored)).toBe(true)
        expect(verifySecret(Redacted.make(b), stored)).toBe(a === b)
      }),
      { numRuns: 500 }
    )
  })

  it("a malformed stored hash never verifies", () => {
    const secret = Redacted.make("rqs_" + "m".repeat(43))
    for (const stored of ["", "abc", hashSecret(secret).slice(0, 63), hashSecret(secret) + "0"]) {
      expect(verifySecret(secret, stored as SecretHash)).toBe(false)
    }
  })
})
