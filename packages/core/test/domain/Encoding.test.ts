/**
 * trustedEncoder / trustedDecoder: the same output as Schema.encodeSync / decodeUnknownSync for
 * every valid value of the schemas they are used for (responses, audit entries written and read
 * back), and the identity where nothing transforms.
 */
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  Account,
  AuditEntry,
  IssuedToken,
  QuoteRequest,
  QuoteResponse,
  Timestamp,
  transforms,
  trustedDecoder,
  trustedEncoder,
  trustedJson
} from "../../src/index.js"
import type { AuditRecord } from "../../src/index.js"

/**
 * A record key "__proto__" (no id, service level or behavior of ours is one) is where Schema's
 * encoder and a plain object differ: Schema assigns it and so sets the prototype, the identity
 * keeps it as data. Generated values with one are left out.
 */
const hasProtoKey = (value: unknown): boolean => JSON.stringify(value).includes('"__proto__"')

const schemas = { QuoteResponse, AuditEntry, Account, IssuedToken, QuoteRequest, Timestamp } as const

describe("trustedEncoder", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: encodes every valid value exactly as Schema.encodeSync does`, () => {
      const s = schema as Schema.Schema<unknown, unknown>
      const fast = trustedEncoder(s)
      const reference = Schema.encodeSync(s)
      fc.assert(
        fc.property(Arbitrary.make(s), (value) => {
          fc.pre(!hasProtoKey(value))
          expect(fast(value)).toStrictEqual(reference(value))
        }),
        { numRuns: 200 }
      )
    })
  }

  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: what trustedEncoder wrote, trustedDecoder reads back as Schema.decodeUnknownSync does`, () => {
      const s = schema as Schema.Schema<unknown, unknown>
      const stored = (value: unknown) => JSON.parse(JSON.stringify(trustedEncoder(s)(value))) as unknown
      const fast = trustedDecoder(s)
      const reference = Schema.decodeUnknownEither(s)
      fc.assert(
        fc.property(Arbitrary.make(s), (value) => {
          fc.pre(!hasProtoKey(value))
          const json = stored(value)
          const expected = reference(json)
          // Values JSON cannot carry (Infinity) or the wire refuses (year 10000) are never stored.
          fc.pre(Either.isRight(expected))
          if (Either.isRight(expected)) expect(fast(json)).toStrictEqual(expected.right)
        }),
        { numRuns: 200 }
      )
    })
  }

  it("a quote response encodes to itself (the hot path does no encoding work)", () => {
    expect(transforms(QuoteResponse.ast)).toBe(false)
    const fast = trustedEncoder(QuoteResponse)
    fc.assert(fc.property(Arbitrary.make(QuoteResponse), (value) => fast(value) === value), { numRuns: 50 })
  })

  it("schemas holding a timestamp do transform, field by field", () => {
    expect(transforms(AuditEntry.ast)).toBe(true)
    expect(transforms(IssuedToken.ast)).toBe(true)
  })
})

describe("trustedJson", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: writes exactly JSON.stringify(Schema.encodeSync(value))`, () => {
      const s = schema as Schema.Schema<unknown, unknown>
      const fast = trustedJson(s)
      const reference = Schema.encodeSync(s)
      fc.assert(
        fc.property(Arbitrary.make(s), (value) => {
          fc.pre(!hasProtoKey(value))
          expect(fast(value)).toBe(JSON.stringify(reference(value)))
        }),
        { numRuns: 300 }
      )
    })
  }

  it("an entry and a response sharing the prices objects are both written exactly, the first time and again", () => {
    const entryJson = trustedJson(AuditEntry)
    const responseJson = trustedJson(QuoteResponse)
    const responses = Arbitrary.make(QuoteResponse)
    const entries = Arbitrary.make(AuditEntry)
    fc.assert(
      fc.property(responses, entries, (response, entry) => {
        fc.pre(!hasProtoKey(response) && !hasProtoKey(entry))
        // A quoted entry holding the response's own objects, as Quotes builds them.
        const shared: AuditEntry = entry.decision.outcome === "quoted"
          ? {
            ...entry,
            decision: { ...entry.decision, recommendations: response.recommendations, marketPrices: response.marketPrices }
          }
          : entry
        expect(entryJson(shared)).toBe(JSON.stringify(Schema.encodeSync(AuditEntry)(shared)))
        expect(responseJson(response)).toBe(JSON.stringify(Schema.encodeSync(QuoteResponse)(response)))
        // Written again: the same texts (the memo hands back what it first wrote).
        expect(responseJson(response)).toBe(JSON.stringify(Schema.encodeSync(QuoteResponse)(response)))
      }),
      { numRuns: 200 }
    )
  })

  it("an audit record (an entry plus its owner) is written as its entry: the owner is not stored in the text", () => {
    const entryJson = trustedJson(AuditEntry)
    fc.assert(
      fc.property(Arbitrary.make(AuditEntry), (entry) => {
        fc.pre(!hasProtoKey(entry))
        const record = { accountId: "acct_owner", ...entry } as unknown as AuditRecord
        expect(entryJson(record)).toBe(JSON.stringify(Schema.encodeSync(AuditEntry)(entry)))
      }),
      { numRuns: 100 }
    )
  })
})
