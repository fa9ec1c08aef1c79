/**
 * Airport rules a city's meter does not say: a market defined by an airport's published fixed
 * fares alone, a zone rate that caps the meter, a minimum fare from the airport only.
 *
 * A market defined by an airport's published fixed fares alone (no meter known for the city):
 * it prices exactly the trips its flat fares cover and offers nothing for any other trip, so
 * the quote is refused rather than priced on a meter nobody published.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { definedMarket, parseTariff } from "@ridequote/markets"
import type { TariffDocument } from "@ridequote/markets"
import { suppliedTrip } from "./trips.js"

const AIRPORT = { latitude: 49.0097, longitude: 2.5479 }
const RIGHT_BANK = { latitude: 48.8738, longitude: 2.295 }
const LEFT_BANK = { latitude: 48.8462, longitude: 2.3372 }

const document = (versions: ReadonlyArray<unknown>): Either.Either<TariffDocument, unknown> =>
  parseTariff("forfaits.json", JSON.stringify({
    format: "ridequote-tariff",
    version: 1,
    market: "forfaits",
    currency: "EUR",
    define: {
      name: "Forfaits (fixed fares only)",
      timeZone: "Europe/Paris",
      area: { kind: "bbox", south: 48.81, west: 2.22, north: 48.91, east: 2.47 },
      alsoServes: ["airport"]
    },
    zones: {
      airport: { kind: "circle", latitude: AIRPORT.latitude, longitude: AIRPORT.longitude, radiusKm: 2.5 },
      right: { kind: "circle", latitude: RIGHT_BANK.latitude, longitude: RIGHT_BANK.longitude, radiusKm: 1 },
      left: { kind: "circle", latitude: LEFT_BANK.latitude, longitude: LEFT_BANK.longitude, radiusKm: 1 }
    },
    airports: [{ iata: "CDG", name: "Paris Charles de Gaulle", latitude: AIRPORT.latitude, longitude: AIRPORT.longitude, zone: "airport" }],
    tariffs: [{ provider: "cab", serviceLevel: "Standard", versions }]
  }))

const FORFAITS = {
  name: "fixed fares",
  effectiveFrom: "2025-01-01",
  source: { authority: "test", rule: "test", url: "https://example.org" },
  flatFares: [
    { name: "airport – right bank", between: [["airport"], ["right"]], amount: 56 },
    { name: "airport – left bank", between: [["airport"], ["left"]], amount: 65 }
  ],
  tolls: "included"
}

describe("a market of fixed fares alone", () => {
  it("is a valid tariff file; meter variants without a meter, or a version pricing nothing, are not", () => {
    expect(Either.isRight(document([FORFAITS]))).toBe(true)
    const { flatFares: _flat, ...nothing } = FORFAITS
    expect(Either.isLeft(document([nothing]))).toBe(true)
    const variant = { name: "night", when: { hours: { from: "20:00", to: "07:00" } }, meter: { initial: 1, initialKm: 0, distance: [{ fromKm: 0, unitKm: 1, price: 1 }], time: { runs: "never", unitSeconds: 60, price: 0 }, units: "completed" } }
    expect(Either.isLeft(document([{ ...FORFAITS, meterVariants: [variant] }]))).toBe(true)
  })

  it("prices each covered trip at its fixed fare, both ways, and offers nothing for a trip no fare covers", () => {
    const market = definedMarket(Either.getOrThrow(document([FORFAITS])))
    if (market === undefined) throw new Error("no market")
    const at = "2026-03-03T11:00:00+01:00"
    const offers = (from: typeof AIRPORT, to: typeof AIRPORT) => market.offers(suppliedTrip(market, from, to, 30, 45)(at))
    const price = (from: typeof AIRPORT, to: typeof AIRPORT) => offers(from, to).map((o) => [o.distribution.quantile(0.05), o.distribution.quantile(0.95)])
    expect(price(AIRPORT, RIGHT_BANK)).toEqual([[56, 56]])
    expect(price(RIGHT_BANK, AIRPORT)).toEqual([[56, 56]])
    expect(price(LEFT_BANK, AIRPORT)).toEqual([[65, 65]])
    // Right bank to left bank: no published fixed fare, no meter in the file, no offer.
    expect(offers(RIGHT_BANK, LEFT_BANK)).toEqual([])
  })
})

const METER = { initial: 3, initialKm: 0, distance: [{ fromKm: 0, unitKm: 1, price: 2 }], time: { runs: "never", unitSeconds: 60, price: 0 }, units: "completed" }
const METERED = {
  name: "meter with airport rules",
  effectiveFrom: "2025-01-01",
  source: { authority: "test", rule: "test", url: "https://example.org" },
  meter: METER,
  tolls: "included"
}

describe("airport rules beside a meter", () => {
  const market = (version: unknown) => {
    const m = definedMarket(Either.getOrThrow(document([version])))
    if (m === undefined) throw new Error("no market")
    return m
  }
  const at = "2026-03-03T11:00:00+01:00"
  const p50 = (m: ReturnType<typeof market>, from: typeof AIRPORT, to: typeof AIRPORT, km: number) =>
    m.offers(suppliedTrip(m, from, to, km, km * 2)(at)).map((o) => o.distribution.quantile(0.5))

  it("a capped zone rate: the meter below the cap, the cap above it (3 + 2/km: 10 km is 23, 40 km is 83, capped at 50)", () => {
    const capped = market({ ...METERED, flatFares: [{ name: "airport zone rate", kind: "cap", between: [["airport"], ["right"]], amount: 50 }] })
    expect(p50(capped, AIRPORT, RIGHT_BANK, 10)).toEqual([23])
    expect(p50(capped, AIRPORT, RIGHT_BANK, 40)).toEqual([50])
    expect(p50(capped, RIGHT_BANK, AIRPORT, 40)).toEqual([50])
    // Not between the zones: the meter, uncapped.
    expect(p50(capped, RIGHT_BANK, LEFT_BANK, 40)).toEqual([83])
    // A cap needs the meter it caps.
    const { meter: _meter, ...noMeter } = METERED
    expect(Either.isLeft(document([{ ...noMeter, flatFares: [{ name: "cap", kind: "cap", between: [["airport"], ["right"]], amount: 50 }] }]))).toBe(true)
  })

  it("a minimum fare from the airport only: 3 km is 9 on the meter, 20 from the airport, 9 elsewhere; the largest minimum holds", () => {
    const minimums = market({
      ...METERED,
      minimumFare: 5,
      minimumFares: [{ name: "minimum from the airport", amount: 20, when: { pickupIn: ["airport"] } }]
    })
    expect(p50(minimums, AIRPORT, RIGHT_BANK, 3)).toEqual([20])
    expect(p50(minimums, RIGHT_BANK, AIRPORT, 3)).toEqual([9])
    expect(p50(minimums, RIGHT_BANK, LEFT_BANK, 1)).toEqual([5])
    expect(p50(minimums, AIRPORT, RIGHT_BANK, 30)).toEqual([63])
    expect(Either.isLeft(document([{ ...METERED, minimumFares: [{ name: "x", amount: 20, when: { pickupIn: ["nowhere"] } }] }]))).toBe(true)
  })
})
