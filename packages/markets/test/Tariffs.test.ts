/**
 * The tariff format and its arithmetic: the meter, the conditions of surcharges and fees, the
 * order a price is built in, and the checks a tariff file must pass; then the shipped NYC
 * tariffs on trips whose price the TLC's own rules state, quoted for explicit dates.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Coordinates, Market, Trip } from "@ridequote/core"
import { calibratedMarket, joinMarkets, parseModel, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { Effect } from "effect"
import { chargesFor, conditionHolds, flatFareFor, versionAt } from "../src/internal/tariff/Charges.js"
import type { TripMoment } from "../src/internal/tariff/Charges.js"
import { marketTariffs, meterRebase, withLevel } from "../src/internal/tariff/MarketTariffs.js"
import { meterAmount, meterReading } from "../src/internal/tariff/Meter.js"
import { parseTariff } from "../src/internal/tariff/TariffFile.js"
import type { Meter, TariffDocument } from "../src/internal/tariff/TariffFile.js"

const MILE = 1.609344

/** The TLC meter of 2022-12-19: $3.00, then $0.70 per 1/5 mile at 12 mph or more, or per 60 s below. */
const NYC_2022: Meter = {
  initial: 3,
  initialKm: 0,
  distance: [{ fromKm: 0, unitKm: 0.3218688, price: 0.7 }],
  time: { runs: "below-speed", unitSeconds: 60, price: 0.7, crossoverKmh: 19.3121 },
  units: "completed"
}
const NYC_2012: Meter = { ...NYC_2022, initial: 2.5, distance: [{ fromKm: 0, unitKm: 0.3218688, price: 0.5 }], time: { ...NYC_2022.time, price: 0.5 } }

describe("the meter", () => {
  it("charges the initial amount, then each completed unit of distance and of slow time (TLC 2022: 2 miles and 5 slow minutes = $3.00 + 10 × $0.70 + 5 × $0.70)", () => {
    expect(meterAmount(NYC_2022, { meterKm: 2 * MILE, meterSeconds: 0 })).toBeCloseTo(10, 9)
    expect(meterAmount(NYC_2022, { meterKm: 2 * MILE, meterSeconds: 300 })).toBeCloseTo(13.5, 9)
    // An unfinished unit is not charged; a started-unit meter charges it.
    expect(meterAmount(NYC_2022, { meterKm: 2 * MILE + 0.1, meterSeconds: 59 })).toBeCloseTo(10, 9)
    expect(meterAmount({ ...NYC_2022, units: "started" }, { meterKm: 2 * MILE + 0.1, meterSeconds: 59 })).toBeCloseTo(11.4, 9)
  })

  it("charges each distance tier its own price from where it begins (Berlin-style: 2.80 to 3 km, 2.60 to 7 km, 2.10 after)", () => {
    const tiered: Meter = {
      initial: 4.3,
      initialKm: 0,
      distance: [{ fromKm: 0, unitKm: 0.1, price: 0.28 }, { fromKm: 3, unitKm: 0.1, price: 0.26 }, { fromKm: 7, unitKm: 0.1, price: 0.21 }],
      time: { runs: "never", unitSeconds: 60, price: 0 },
      units: "completed"
    }
    // 10 km: 4.30 + 3 × 2.80 + 4 × 2.60 + 3 × 2.10 = 29.40
    expect(meterAmount(tiered, { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(29.4, 9)
  })

  it("charges time and distance together when time always runs (Chicago: $3.25 + $0.25 per 1/9 mile + $0.20 per 36 s)", () => {
    const chicago: Meter = {
      initial: 3.25,
      initialKm: 0,
      distance: [{ fromKm: 0, unitKm: MILE / 9, price: 0.25 }],
      time: { runs: "always", unitSeconds: 36, price: 0.2 },
      units: "completed"
    }
    const reading = meterReading(chicago, 2 * MILE, 10, 3)
    expect(reading).toEqual({ meterKm: 2 * MILE, meterSeconds: 600 })
    // 3.25 + 18 × 0.25 + 16 × 0.20 (600 s ÷ 36 = 16.7: 16 completed) = 10.95
    expect(meterAmount(chicago, reading)).toBeCloseTo(10.95, 9)
  })

  it("rounds what it shows to the meter's step, halves up, when the rule converts units to money that way (Bogotá: units × $159 to the $100)", () => {
    // One unit per 100 m at $159, no initial charge, the count in pesos rounded to the $100.
    const units: Meter = {
      initial: 0,
      initialKm: 0,
      distance: [{ fromKm: 0, unitKm: 0.1, price: 159 }],
      time: { runs: "never", unitSeconds: 60, price: 0 },
      units: "completed",
      roundTo: { step: 100, mode: "nearest" }
    }
    const shown = (n: number) => meterAmount(units, { meterKm: n * 0.1, meterSeconds: 0 })
    expect(shown(50)).toBe(8000) // 7,950: the published minimum of 50 units
    expect(shown(178)).toBe(28300) // 28,302
    expect(shown(10)).toBe(1600) // 1,590
    // A half goes up: 100 units of $0.5 at a step of $1 … and an average over many trips is not rounded.
    const half: Meter = { ...units, distance: [{ fromKm: 0, unitKm: 0.1, price: 0.5 }], roundTo: { step: 1, mode: "nearest" } }
    expect(meterAmount(half, { meterKm: 0.3, meterSeconds: 0 })).toBe(2) // 1.50
    expect(meterAmount(units, { meterKm: 5.0, meterSeconds: 0 }, true)).toBeCloseTo(7950, 6)
    expect(meterAmount({ ...units, roundTo: undefined }, { meterKm: 5.0, meterSeconds: 0 })).toBeCloseTo(7950, 6)
  })
  it("counts slow time instead of the distance covered in it on a distance-or-time meter", () => {
    const reading = meterReading(NYC_2022, 5, 20, 10)
    expect(reading.meterSeconds).toBe(600)
    // 10 slow minutes at half the crossover speed cover 1.61 km, not charged as distance.
    expect(reading.meterKm).toBeCloseTo(5 - 19.3121 / 2 / 6, 9)
  })

  it("moves a records' era amount to the meter in force: the initial charges swap and the variable part scales by the unit prices (NYC 2012 → 2022: × 1.4)", () => {
    const rebase = meterRebase(NYC_2012, NYC_2022, 6.2, 21)
    // $15.00 on the 2012 meter is 25 units: $3.00 + 25 × $0.70 = $20.50 on the 2022 meter.
    expect(rebase(15)).toBeCloseTo(20.5, 9)
    expect(rebase(2.5)).toBeCloseTo(3, 9)
  })
})

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri"] as const
const nowhere = { pickup: new Set<string>(), dropoff: new Set<string>() }
const at = (localDate: string, dayOfWeek: number, hour: number, minute = 0): TripMoment => ({ localDate, dayOfWeek, minuteOfDay: hour * 60 + minute })

describe("conditions", () => {
  it("a weekday 16:00–20:00 window excluding holidays: in it at 17:00 on a Wednesday, not on Thanksgiving, not at 20:00, not on Saturday", () => {
    const rush = { days: [...WEEKDAYS], hours: { from: "16:00", to: "20:00" }, holidays: "excluded" as const }
    const holidays = new Set(["2026-11-26"])
    expect(conditionHolds(rush, at("2026-11-25", 3, 17), nowhere, holidays)).toBe(true)
    expect(conditionHolds(rush, at("2026-11-26", 4, 17), nowhere, holidays)).toBe(false)
    expect(conditionHolds(rush, at("2026-11-25", 3, 20), nowhere, holidays)).toBe(false)
    expect(conditionHolds(rush, at("2026-11-28", 6, 17), nowhere, holidays)).toBe(false)
  })

  it("a night window crossing midnight belongs to the day it opened on", () => {
    const fridayNight = { days: ["fri" as const], hours: { from: "22:00", to: "05:00" } }
    expect(conditionHolds(fridayNight, at("2026-11-27", 5, 23), nowhere, new Set())).toBe(true)
    // Saturday 02:00 is still Friday's night.
    expect(conditionHolds(fridayNight, at("2026-11-28", 6, 2), nowhere, new Set())).toBe(true)
    // Friday 02:00 is Thursday's night.
    expect(conditionHolds(fridayNight, at("2026-11-27", 5, 2), nowhere, new Set())).toBe(false)
  })

  it("dates, zones at either end, one end in each set, and a drop-off outside a zone", () => {
    const places = { pickup: new Set(["manhattan", "crz"]), dropoff: new Set(["jfk"]) }
    const moment = at("2025-01-05", 0, 12)
    expect(conditionHolds({ from: "2025-01-05" }, moment, places, new Set())).toBe(true)
    expect(conditionHolds({ from: "2025-01-06" }, moment, places, new Set())).toBe(false)
    expect(conditionHolds({ until: "2025-01-05" }, moment, places, new Set())).toBe(false)
    expect(conditionHolds({ touches: ["jfk"] }, moment, places, new Set())).toBe(true)
    expect(conditionHolds({ pickupIn: ["jfk"] }, moment, places, new Set())).toBe(false)
    expect(conditionHolds({ between: [["jfk"], ["manhattan"]] }, moment, places, new Set())).toBe(true)
    expect(conditionHolds({ dropoffNotIn: ["jfk"] }, moment, places, new Set())).toBe(false)
  })
})

const tariffOf = (doc: unknown): TariffDocument => Either.getOrThrow(parseTariff("test.json", JSON.stringify(doc)))
const BASE = { format: "ridequote-tariff", version: 1, market: "test", currency: "USD" }
const VERSION = {
  name: "v",
  effectiveFrom: "2020-01-01",
  source: { authority: "A", rule: "R", url: "https://example.org/rule" },
  meter: NYC_2022,
  tolls: "passed-on"
}

describe("a price is built in the rule's order", () => {
  it("percent surcharges scale the fare, fixed ones add, the minimum applies before the fees, fees in order, tolls last", () => {
    const doc = tariffOf({
      ...BASE,
      tariffs: [{
        provider: "cab",
        serviceLevel: "Standard",
        versions: [{
          ...VERSION,
          minimumFare: 8,
          surcharges: [{ name: "night", percent: 20 }, { name: "booking", amount: 1 }],
          fees: [{ name: "fund", percent: 2.5, of: "fare" }, { name: "flat fee", amount: 0.5 }, { name: "tax", percent: 10, of: "subtotal" }]
        }]
      }]
    })
    const version = versionAt(doc.tariffs[0]!, "2026-01-01")
    const charges = chargesFor(version, "meter", at("2026-01-01", 4, 12), nowhere, new Set(), 2)
    // 10.00 × 1.2 + 1 = 13.00; fund 0.325 → 0.33 on the receipt; + 0.50; tax 10 % of 13.825.
    const receipt = charges.itemize(10, 6.94)
    expect(receipt.surcharges).toEqual([{ name: "night", amount: 2 }, { name: "booking", amount: 1 }])
    expect(receipt.fees.map((f) => f.name)).toEqual(["fund", "flat fee", "tax"])
    expect(receipt.tolls).toBe(6.94)
    expect(charges.total(10, 6.94)).toBeCloseTo((13 + 0.325 + 0.5) * 1.1 + 6.94, 9)
    // A short trip pays the minimum fare, then the fees.
    expect(charges.total(3, 0)).toBeCloseTo((8 + 0.2 + 0.5) * 1.1, 9)
    // fareOf reads a total back to its fare.
    expect(charges.fareOf(charges.total(10, 0))).toBeCloseTo(10, 9)
  })

  it("a flat fare between zone sets replaces the meter, both ways unless outbound only", () => {
    const doc = tariffOf({
      ...BASE,
      zones: {
        airport: { kind: "circle", latitude: 0, longitude: 0, radiusKm: 1 },
        city: { kind: "bbox", south: 1, west: 1, north: 2, east: 2 }
      },
      tariffs: [{
        provider: "cab",
        serviceLevel: "Standard",
        versions: [{ ...VERSION, flatFares: [{ name: "airport run", between: [["airport"], ["city"]], amount: 50, direction: "outbound" }] }]
      }]
    })
    const version = versionAt(doc.tariffs[0]!, undefined)
    const tariffs = marketTariffs(doc)
    const airport = tariffs.locate({ latitude: 0, longitude: 0.001 }), city = tariffs.locate({ latitude: 1.5, longitude: 1.5 })
    expect(flatFareFor(version, at("2026-01-01", 4, 12), { pickup: airport, dropoff: city }, new Set())?.amount).toBe(50)
    expect(flatFareFor(version, at("2026-01-01", 4, 12), { pickup: city, dropoff: airport }, new Set())).toBeUndefined()
  })

  it("an uncertain level moves the median by its factor and widens the spread by its range, quantiles still ordered", () => {
    const x = (q: number) => 10 * Math.exp(0.3 * (q - 0.5))
    const level = { factor: 1.35, low: 1.28, high: 1.47, asOf: "2025-06-30", evidence: "e" }
    const y = withLevel(x, level)
    expect(y(0.5)).toBeCloseTo(13.5, 9)
    const qs = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99].map(y)
    qs.forEach((v, i) => i > 0 && expect(v).toBeGreaterThanOrEqual(qs[i - 1] ?? 0))
    expect((y(0.95) - y(0.05)) / y(0.5)).toBeGreaterThan((x(0.95) - x(0.05)) / x(0.5))
  })
})

describe("a tariff file is checked when it is read", () => {
  const invalid = (doc: unknown) => Either.isLeft(parseTariff("bad.json", JSON.stringify(doc)))
  const provider = (versions: ReadonlyArray<unknown>) => ({ ...BASE, tariffs: [{ provider: "cab", serviceLevel: "Standard", versions }] })

  it("refuses a zone no one defined, versions out of date order, amount and percent together, a version that prices nothing, an unknown field", () => {
    expect(invalid(provider([VERSION]))).toBe(false)
    expect(invalid(provider([{ ...VERSION, surcharges: [{ name: "x", amount: 1, when: { touches: ["nowhere"] } }] }]))).toBe(true)
    expect(invalid(provider([VERSION, { ...VERSION, effectiveFrom: "2019-01-01" }]))).toBe(true)
    expect(invalid(provider([{ ...VERSION, fees: [{ name: "x", amount: 1, percent: 2 }] }]))).toBe(true)
    const { meter: _meter, ...noMeter } = VERSION
    expect(invalid(provider([noMeter]))).toBe(true)
    expect(invalid(provider([{ ...VERSION, surchages: [] }]))).toBe(true)
    expect(invalid({ ...provider([VERSION]), version: 2 })).toBe(true)
  })

  it("a shared counter: tiers of one unit length whose first price is the time unit's (Hong Kong) pass; other unit lengths or a time price of no tier do not", () => {
    const shared = { ...NYC_2022.time, counter: "shared" }
    const tiered = { ...NYC_2022, time: shared, distance: [{ fromKm: 0, unitKm: 0.3218688, price: 0.7 }, { fromKm: 9, unitKm: 0.3218688, price: 0.5 }] }
    expect(invalid(provider([{ ...VERSION, meter: tiered }]))).toBe(false)
    expect(invalid(provider([{ ...VERSION, meter: { ...tiered, distance: [{ fromKm: 0, unitKm: 0.3218688, price: 0.7 }, { fromKm: 9, unitKm: 0.4, price: 0.5 }] } }]))).toBe(true)
    expect(invalid(provider([{ ...VERSION, meter: { ...tiered, time: { ...shared, price: 0.5 } } }]))).toBe(true)
    // One counter counts time and distance alike: no time units of their own.
    expect(invalid(provider([{ ...VERSION, meter: { ...tiered, time: { ...shared, units: "completed" } } }]))).toBe(true)
    expect(invalid(provider([{ ...VERSION, meter: { ...NYC_2022, time: { ...NYC_2022.time, units: "started" } } }]))).toBe(false)
  })

  it("replacedFrom (a rule replaced by one not read) ends a defined market's last version only, after its start", () => {
    const defined = (versions: ReadonlyArray<unknown>) => ({
      ...provider(versions),
      define: { name: "Test", timeZone: "UTC", area: { kind: "bbox", south: 0, west: 0, north: 1, east: 1 } }
    })
    expect(invalid(defined([VERSION]))).toBe(false)
    expect(invalid(defined([{ ...VERSION, replacedFrom: "2024-12-01" }]))).toBe(false)
    expect(invalid(defined([{ ...VERSION, replacedFrom: "2020-01-01" }]))).toBe(true)
    expect(invalid(defined([{ ...VERSION, replacedFrom: "2024-12-01" }, { ...VERSION, effectiveFrom: "2025-01-01" }]))).toBe(true)
    // A fitted market's tariff (no `define`) does not read it.
    expect(invalid(provider([{ ...VERSION, replacedFrom: "2024-12-01" }]))).toBe(true)
  })

  it("define.pickupsNotServed names zones of the file, each with why", () => {
    const withZone = (pickupsNotServed: unknown) => ({
      ...provider([VERSION]),
      zones: { apt: { kind: "circle", latitude: 0.5, longitude: 0.5, radiusKm: 1 } },
      define: { name: "Test", timeZone: "UTC", area: { kind: "bbox", south: 0, west: 0, north: 1, east: 1 }, pickupsNotServed }
    })
    expect(invalid(withZone([{ zone: "apt", why: "another rule" }]))).toBe(false)
    expect(invalid(withZone([{ zone: "nowhere", why: "another rule" }]))).toBe(true)
    expect(invalid(withZone([{ zone: "apt", why: "" }]))).toBe(true)
  })

  it("a concurrent counter (Seoul's 동시병산) needs slow time: below-speed passes, always or never do not", () => {
    const concurrent = { ...NYC_2022, time: { ...NYC_2022.time, counter: "concurrent" } }
    expect(invalid(provider([{ ...VERSION, meter: concurrent }]))).toBe(false)
    expect(invalid(provider([{ ...VERSION, meter: { ...concurrent, time: { ...concurrent.time, runs: "always" } } }]))).toBe(true)
    expect(invalid(provider([{ ...VERSION, meter: { ...concurrent, time: { ...concurrent.time, runs: "never" } } }]))).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// The shipped NYC tariffs on the fitted NYC markets.

const read = (name: string) => readFileSync(join(SHIPPED_MARKETS_DIR, name), "utf8")
const nycTariffs = marketTariffs(Either.getOrThrow(parseTariff("nyc-tariff.json", read("nyc-tariff.json"))))
const nycModel = Either.getOrThrow(parseModel("nyc.json", read("nyc.json")))
const rideHailModel = Either.getOrThrow(parseModel("nyc-ride-hail.json", read("nyc-ride-hail.json")))
const nyc: Market = Effect.runSync(joinMarkets(
  [calibratedMarket(nycModel, nycTariffs), calibratedMarket(rideHailModel, nycTariffs)],
  (m) => m.id
))[0] as Market

const EMPIRE_STATE = { latitude: 40.7484, longitude: -73.9857 }
const WTC = { latitude: 40.7127, longitude: -74.0134 }
const TIMES_SQUARE = { latitude: 40.758, longitude: -73.9855 }
const JFK = { latitude: 40.6413, longitude: -73.7781 }

const tripAt = (pickup: Coordinates, destination: Coordinates, iso: string, distanceKm: number, durationMinutes: number): Trip => {
  const departAt = DateTime.unsafeMake(iso)
  return { pickup, destination, distanceKm, durationMinutes, mode: "Realtime", routeSource: "supplied", localTime: nyc.localTime(departAt, pickup), departAt }
}
const percentiles = (trip: Trip, provider: string) => {
  const offer = nyc.offers(trip).find((o) => o.provider === provider)
  return { offer, p: [0.05, 0.25, 0.5, 0.75, 0.95].map((q) => Number(offer?.distribution.quantile(q).toFixed(2))) }
}

describe("NYC yellow taxi on the TLC's rules", () => {
  it("a metered trip in 2026 costs the 2022 meter with today's surcharges; the same trip in 2019 the 2012 meter", () => {
    // Empire State → World Trade Center, 6.2 km, 21 min, Tuesday 2026-11-24 11:00.
    const now = percentiles(tripAt(EMPIRE_STATE, WTC, "2026-11-24T16:00:00Z", 6.2, 21), "yellow-taxi")
    const then = percentiles(tripAt(EMPIRE_STATE, WTC, "2019-11-12T16:00:00Z", 6.2, 21), "yellow-taxi")
    expect(now.offer?.source?.tariff?.effectiveFrom).toBe("2022-12-19")
    expect(now.offer?.source?.tariff?.charges).toEqual([
      "MTA state surcharge",
      "improvement surcharge",
      "New York State congestion surcharge",
      "MTA Congestion Relief Zone toll"
    ])
    expect(then.offer?.source?.tariff?.effectiveFrom).toBe("2012-09-04")
    // The meter part moves by 0.70 ÷ 0.50 after the initial charges swap; the fees are the rules'.
    const meterNow = (now.p[2] ?? 0) - (0.5 + 1 + 2.5 + 0.75) - 3
    const meterThen = (then.p[2] ?? 0) - (0.5 + 0.3 + 2.5) - 2.5
    expect(meterNow / meterThen).toBeCloseTo(1.4, 2)
    expect(now.p[2]).toBeGreaterThan(25)
    expect(now.p[2]).toBeLessThan(28.5)
  })

  it("before 2012-09-04 the 2006 rule: $0.40 a unit (0.8 × the 2012 meter), JFK $45 flat, the MTA tax only from 2009-11-01", () => {
    const y2010 = percentiles(tripAt(EMPIRE_STATE, WTC, "2010-05-11T15:00:00Z", 6.2, 21), "yellow-taxi")
    const y2013 = percentiles(tripAt(EMPIRE_STATE, WTC, "2013-05-14T15:00:00Z", 6.2, 21), "yellow-taxi")
    expect(y2010.offer?.source?.tariff?.effectiveFrom).toBe("2006-11-30")
    // Both pay the $2.50 initial charge and the $0.50 MTA tax; the units cost 0.40 against 0.50.
    expect(((y2010.p[2] ?? 0) - 3) / ((y2013.p[2] ?? 0) - 3)).toBeCloseTo(0.8, 2)
    const jfk = (iso: string) => percentiles(tripAt(TIMES_SQUARE, JFK, iso, 29.5, 50), "yellow-taxi").p[0]
    expect(jfk("2010-05-11T15:00:00Z")).toBeCloseTo(45.5, 9)
    expect(jfk("2009-10-20T15:00:00Z")).toBeCloseTo(45, 9)
    // The $1 peak surcharge, not on Thanksgiving 2010 (the holidays listed go back to 2006).
    const p50 = (iso: string) => percentiles(tripAt(EMPIRE_STATE, WTC, iso, 6.2, 21), "yellow-taxi").p[2] ?? 0
    expect(p50("2010-11-24T22:00:00Z") - p50("2010-11-25T22:00:00Z")).toBeCloseTo(1, 2)
  })

  it("the $4.50 JFK rush hour surcharge is not charged before 2015-07-16 (January 2015 records carry none)", () => {
    // Tuesdays at 17:00 New York time: the $52 flat fare and the $0.50 MTA tax (and $0.30 improvement from 2015).
    const jfk = (iso: string) => percentiles(tripAt(TIMES_SQUARE, JFK, iso, 29.5, 50), "yellow-taxi").p[0]
    expect(jfk("2014-05-13T21:00:00Z")).toBeCloseTo(52.5, 9)
    expect(jfk("2015-01-13T22:00:00Z")).toBeCloseTo(52.8, 9)
    expect(jfk("2016-05-10T21:00:00Z")).toBeCloseTo(57.3, 9)
  })

  it("the rush hour surcharge is added on weekdays 16–20 h and not on a legal holiday", () => {
    const p50 = (iso: string) => percentiles(tripAt(EMPIRE_STATE, WTC, iso, 6.2, 21), "yellow-taxi").p[2] ?? 0
    // Wednesday 17:00 against Thanksgiving (Thursday 2026-11-26) 17:00: the $2.50 rush surcharge.
    expect(p50("2026-11-25T22:00:00Z") - p50("2026-11-26T22:00:00Z")).toBeCloseTo(2.5, 2)
  })
})

describe("NYC Uber and Lyft at the level of their newest records", () => {
  it("the Black Car Fund is the share in force on the trip's date: 2.5 %, 3 % from 2020-11-01, 2.75 % by 2024, 2.5 % by June 2025", () => {
    // Outside every fee zone, so the fund and the sales tax (8.875 %) are all that is added.
    const places = { pickup: new Set<string>(), dropoff: new Set<string>() }
    const fund = (provider: string) => (localDate: string) => {
      const moment: TripMoment = { localDate, dayOfWeek: 2, minuteOfDay: 660 }
      const tariff = nycTariffs.byProvider.get(`${provider}/Standard`)
      if (tariff === undefined) throw new Error(`no ${provider} tariff`)
      const receipt = chargesFor(versionAt(tariff, localDate), "meter", moment, places, new Set(), 2).itemize(100, 0)
      const lines = receipt.fees.filter((l) => l.name === "Black Car Fund")
      expect(lines.length, `${provider} ${localDate}`).toBe(1)
      expect(receipt.total, `${provider} ${localDate}`).toBeCloseTo(100 + (lines[0]?.amount ?? 0) + 8.88, 2)
      return lines[0]?.amount
    }
    const dates = ["2020-05-01", "2020-10-31", "2020-11-01", "2023-12-31", "2024-01-01", "2025-05-31", "2025-06-01", "2026-11-24"]
    for (const provider of ["uber", "lyft"]) {
      expect(dates.map(fund(provider)), provider).toEqual([2.5, 2.5, 3, 3, 2.75, 2.75, 2.5, 2.5])
    }
  })

  it("a 2026 quote carries the level, its range and evidence; a 2020 quote is the records' own", () => {
    const now = percentiles(tripAt(EMPIRE_STATE, WTC, "2026-11-24T16:00:00Z", 6.2, 21), "uber")
    const then = percentiles(tripAt(EMPIRE_STATE, WTC, "2020-05-01T05:00:00Z", 6.2, 21), "uber")
    expect(now.offer?.source?.level?.factor).toBe(1.354)
    expect(now.offer?.source?.level?.evidence).toMatch(/2025/)
    expect(then.offer?.source?.level).toEqual({
      asOf: "2020-05-01",
      factor: 1,
      low: 1,
      high: 1,
      evidence: "the records themselves: TLC HVFHV trips of 2020-05-01"
    })
    // Fees by rule: the 2026 trip pays the CRZ toll ($1.50) the 2020 one did not.
    expect(now.offer?.source?.tariff?.charges).toContain("MTA Congestion Relief Zone toll")
    expect(then.offer?.source?.tariff?.charges).not.toContain("MTA Congestion Relief Zone toll")
    expect((now.p[2] ?? 0) / (then.p[2] ?? 1)).toBeGreaterThan(1.3)
    // The range widens the spread.
    expect((now.p[4] ?? 0) - (now.p[0] ?? 0)).toBeGreaterThan(((then.p[4] ?? 0) - (then.p[0] ?? 0)) * 1.354)
  })

  it("Via has no newer records: it keeps the 2020 level and says how old it is", () => {
    const now = percentiles(tripAt(EMPIRE_STATE, WTC, "2026-11-24T16:00:00Z", 6.2, 21), "via")
    expect(now.offer?.source?.tariff).toBeUndefined()
    expect(now.offer?.source?.level).toEqual({ asOf: "2020-05-01" })
  })
})
