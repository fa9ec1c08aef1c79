/**
 * A surcharge or fee the rule leaves open (`unconfirmed`: on flat fares, or on any fare): a trip
 * it would apply to is priced with and without it, the spread spanning the two; a trip it does
 * not apply to, or a fare kind it is confirmed on, is priced as before.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { definedMarket, parseTariff } from "@ridequote/markets"
import type { Market } from "@ridequote/core"
import { suppliedTrip } from "./trips.js"

const AIRPORT = { latitude: 32.8968, longitude: -97.038 }
const DOWNTOWN = { latitude: 32.7767, longitude: -96.797 }
const ELSEWHERE = { latitude: 32.85, longitude: -96.7 }

const marketWith = (unconfirmed: "flat" | "all" | undefined): Market => {
  const text = JSON.stringify({
    format: "ridequote-tariff",
    version: 1,
    market: "open-fee",
    currency: "USD",
    define: {
      name: "Open fee",
      timeZone: "America/Chicago",
      area: { kind: "bbox", south: 32.6, west: -97.2, north: 33.0, east: -96.5 }
    },
    zones: {
      airport: { kind: "circle", latitude: AIRPORT.latitude, longitude: AIRPORT.longitude, radiusKm: 2 },
      downtown: { kind: "circle", latitude: DOWNTOWN.latitude, longitude: DOWNTOWN.longitude, radiusKm: 2 }
    },
    tariffs: [{
      provider: "cab",
      serviceLevel: "Standard",
      versions: [{
        name: "rates",
        effectiveFrom: "2026-01-01",
        source: { authority: "test", rule: "test", url: "https://example.org" },
        meter: {
          initial: 3, initialKm: 0, distance: [{ fromKm: 0, unitKm: 1, price: 2 }],
          time: { runs: "never", unitSeconds: 60, price: 0 }, units: "completed"
        },
        flatFares: [{ name: "airport – downtown", between: [["airport"], ["downtown"]], amount: 55 }],
        fees: [{ name: "exit fee", amount: 5, when: { pickupIn: ["airport"] }, ...(unconfirmed === undefined ? {} : { unconfirmed }) }],
        tolls: "included"
      }]
    }]
  })
  const m = definedMarket(Either.getOrThrow(parseTariff("open-fee.json", text)))
  if (m === undefined) throw new Error("no market")
  return m
}
const spread = (m: Market, from: typeof AIRPORT, to: typeof AIRPORT) =>
  m.offers(suppliedTrip(m, from, to, 10, 20)("2026-12-08T11:00:00-06:00"))
    .map((o) => [0.05, 0.5, 0.95].map((q) => o.distribution.quantile(q)))

describe("charges the rule leaves open (unconfirmed)", () => {
  it("confirmed (the default): the flat fare and the metered trip both pay the fee, exactly", () => {
    const m = marketWith(undefined)
    expect(spread(m, AIRPORT, DOWNTOWN)).toEqual([[60, 60, 60]])
    expect(spread(m, AIRPORT, ELSEWHERE)).toEqual([[28, 28, 28]])
  })

  it("unconfirmed on flat fares: the flat fare spans $55–$60; the metered trip pays the fee for certain", () => {
    const m = marketWith("flat")
    expect(spread(m, AIRPORT, DOWNTOWN)).toEqual([[55, 57.5, 60]])
    expect(spread(m, AIRPORT, ELSEWHERE)).toEqual([[28, 28, 28]])
    // A trip the fee does not apply to is exact.
    expect(spread(m, DOWNTOWN, AIRPORT)).toEqual([[55, 55, 55]])
  })

  it("unconfirmed on any fare: the metered trip spans with and without it too", () => {
    const m = marketWith("all")
    expect(spread(m, AIRPORT, DOWNTOWN)).toEqual([[55, 57.5, 60]])
    expect(spread(m, AIRPORT, ELSEWHERE)).toEqual([[23, 25.5, 28]])
  })

  it("refuses a value the format does not know", () => {
    const bad = JSON.stringify({ format: "ridequote-tariff", version: 1, market: "x", currency: "USD",
      tariffs: [{ provider: "cab", serviceLevel: "Standard", versions: [{ name: "v", effectiveFrom: "2026-01-01",
        source: { authority: "a", rule: "r", url: "https://example.org" }, flatFares: [], tolls: "included",
        meter: { initial: 1, initialKm: 0, distance: [{ fromKm: 0, unitKm: 1, price: 1 }], time: { runs: "never", unitSeconds: 60, price: 0 }, units: "completed" },
        fees: [{ name: "f", amount: 1, unconfirmed: "sometimes" }] }] }] })
    const decoded = parseTariff("bad.json", bad)
    expect(Either.isLeft(decoded) ? decoded.left.message : "valid").toContain("unconfirmed")
    // The same file with a known value decodes.
    expect(Either.isRight(parseTariff("good.json", bad.replace('"sometimes"', '"all"')))).toBe(true)
  })
})
