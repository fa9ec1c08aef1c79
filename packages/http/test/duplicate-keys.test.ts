/** DuplicateKeys: no false alarm on any JSON.stringify output; every repeated key found, with its path. */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { duplicateKey, noRepeatedKeys } from "../src/internal/DuplicateKeys.js"

describe("duplicateKey", () => {
  it("never reports a key in text JSON.stringify wrote (no object there repeats a key)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        expect(duplicateKey(JSON.stringify(value))).toBeUndefined()
        expect(duplicateKey(JSON.stringify(value, null, 2))).toBeUndefined()
        // The counting shortcut never claims more than the scan: without escapes it proves it.
        const text = JSON.stringify(value)
        if (!text.includes("\\")) expect(noRepeatedKeys(text, value) || JSON.stringify(value).length > 4000).toBe(true)
      }),
      { numRuns: 2000, seed: 20261125 }
    )
  })

  it("finds a key repeated in any object, whatever its spelling, with the object's path", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 12 }), fc.nat(), fc.string(), (object, pick, nest) => {
        const keys = Object.keys(object)
        const key = keys[pick % keys.length]!
        const members = keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(object[k])}`)
        // The repeat spelt with escapes for every character: the same key once parsed.
        const escaped = `"${[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`
        const inner = `{${[...members, `${escaped}:0`].join(",")}}`
        const text = `{${JSON.stringify(nest)}:[1,{"a":"x:\\"y"},${inner}]}`
        expect(JSON.parse(text)).toBeTypeOf("object")
        expect(duplicateKey(text)).toEqual({ key, path: [nest, 2] })
        // Spelt as is, the counting shortcut must not vouch for it either.
        const plain = `{${JSON.stringify(nest)}:[1,{"a":"x:y"},{${[...members, `${JSON.stringify(key)}:"p:q"`].join(",")}}]}`
        expect(noRepeatedKeys(plain, JSON.parse(plain))).toBe(false)
        expect(duplicateKey(plain)).toEqual({ key, path: [nest, 2] })
      }),
      { numRuns: 1000, seed: 20261125 }
    )
  })

  it("stays linear on an object with many keys", () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`)
    const start = performance.now()
    expect(duplicateKey(`{${keys.join(",")}}`)).toBeUndefined()
    expect(duplicateKey(`{${keys.join(",")},"k0":1}`)).toEqual({ key: "k0", path: [] })
    // Quadratic would be ~4·10^8 comparisons; linear is a few milliseconds.
    expect(performance.now() - start).toBeLessThan(1_000)
  })
})
