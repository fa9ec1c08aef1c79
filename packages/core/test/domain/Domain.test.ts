import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { Account, MAX_TOKEN_TTL_SECONDS } from "../../src/Account.js"
import { greatCircleKm } from "../../src/Geo.js"
import { QuoteRequest } from "../../src/Quote.js"
import { RevokeRequest } from "../../src/Token.js"
import { Randomness, seededRandomness, uuidV4FromBytes } from "../../src/Randomness.js"

const decodeQuote = Schema.decodeUnknownEither(QuoteRequest)
const pickup = { latitude: 40.758, longitude: -73.9855 }
const destination = { latitude: 40.6413, longitude: -73.7781 }

describe("QuoteRequest bounds", () => {
  it("accepts a minimal request", () => {
    expect(Either.isRight(decodeQuote({ pickup, destination }))).toBe(true)
  })
  it("latitude in [-90, 90], longitude in [-180, 180], finite", () => {
    expect(Either.isRight(decodeQuote({ pickup: { latitude: 90, longitude: -180 }, destination }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ pickup: { latitude: 90.0001, longitude: 0 }, destination }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ pickup: { latitude: 0, longitude: 180.5 }, destination }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ pickup: { latitude: Number.NaN, longitude: 0 }, destination }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ pickup: { latitude: "1", longitude: 0 }, destination }))).toBe(true)
  })
  it("distanceKm in (0, 1000], durationMinutes in (0, 1440]", () => {
    const base = { pickup, destination }
    expect(Either.isRight(decodeQuote({ ...base, distanceKm: 1000, durationMinutes: 1440 }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ ...base, distanceKm: 0, durationMinutes: 10 }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ ...base, distanceKm: 1000.01, durationMinutes: 10 }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ ...base, distanceKm: 5, durationMinutes: 1441 }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ ...base, distanceKm: 5, durationMinutes: -1 }))).toBe(true)
  })
  it("scheduledAt is a strict ISO timestamp with a zone", () => {
    expect(Either.isRight(decodeQuote({ pickup, destination, scheduledAt: "2026-11-22T10:00:00Z" }))).toBe(true)
    expect(Either.isLeft(decodeQuote({ pickup, destination, scheduledAt: "2026-02-30T10:00:00Z" }))).toBe(true)
  })
})

describe("Account", () => {
  it("token TTL is bounded to 60 s .. 366 days", () => {
    const make = (tokenTtlSeconds: number) => ({
      id: "9b2d7c3e-1f4a-4b8e-9c2d-7e6f5a4b3c2d", name: "Acme", status: "Active", tokenTtlSeconds,
      pricing: { defaultBehavior: "market-median", enabledBehaviors: [] }, createdAt: "2026-11-22T10:00:00.000Z"
    })
    const decode = Schema.decodeUnknownEither(Account)
    expect(Either.isRight(decode(make(60)))).toBe(true)
    expect(Either.isRight(decode(make(MAX_TOKEN_TTL_SECONDS)))).toBe(true)
    expect(Either.isLeft(decode(make(59)))).toBe(true)
    expect(Either.isLeft(decode(make(MAX_TOKEN_TTL_SECONDS + 1)))).toBe(true)
    expect(Either.isLeft(decode(make(86400.5)))).toBe(true)
  })
})

describe("RevokeRequest", () => {
  const decode = Schema.decodeUnknownEither(RevokeRequest)
  const jti = "9b2d7c3e-1f4a-4b8e-9c2d-7e6f5a4b3c2d"
  it("exactly one of jti or all: true", () => {
    expect(Either.isRight(decode({ jti }))).toBe(true)
    expect(Either.isRight(decode({ all: true }))).toBe(true)
    expect(Either.isLeft(decode({}))).toBe(true)
    expect(Either.isLeft(decode({ jti, all: true }))).toBe(true)
    expect(Either.isLeft(decode({ all: false }))).toBe(true)
    expect(Either.isLeft(decode({ jti: "not-a-uuid" }))).toBe(true)
  })
})

describe("Geo", () => {
  it("great-circle distance: Times Square to JFK is about 21.7 km", () => {
    expect(greatCircleKm(pickup, destination)).toBeGreaterThan(21)
    expect(greatCircleKm(pickup, destination)).toBeLessThan(22.5)
    expect(greatCircleKm(pickup, pickup)).toBe(0)
  })
})

describe("Randomness", () => {
  it.effect("a seeded source is reproducible and yields valid v4 UUIDs", () =>
    Effect.gen(function*() {
      const a = yield* seededRandomness(42).uuidV4
      const b = yield* seededRandomness(42).uuidV4
      const c = yield* seededRandomness(43).uuidV4
      expect(a).toBe(b)
      expect(a).not.toBe(c)
      expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }))
  it.effect("a seeded source does not cycle: 20 000 UUIDs are all distinct", () =>
    Effect.gen(function*() {
      const source = seededRandomness(7)
      const ids = new Set<string>()
      for (let i = 0; i < 20_000; i++) ids.add(yield* source.uuidV4)
      expect(ids.size).toBe(20_000)
    }))
  it("sets version and variant bits whatever the bytes", () => {
    expect(uuidV4FromBytes(new Uint8Array(16).fill(0xff))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff")
    expect(uuidV4FromBytes(new Uint8Array(16))).toBe("00000000-0000-4000-8000-000000000000")
  })
  it.effect("the tag resolves to the provided source", () =>
    Effect.gen(function*() {
      const r = yield* Randomness
      expect((yield* r.bytes(8)).length).toBe(8)
    }).pipe(Effect.provideService(Randomness, seededRandomness(1))))
})
