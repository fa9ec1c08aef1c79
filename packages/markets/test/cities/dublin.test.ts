/**
 * Dublin (NTA national maximum taxi fare): the standard, premium and special rates of the 2022
 * and 2018 fares (and the 2015 one) on worked examples computed by hand (the published 10.5 km examples among them),
 * Sundays, public holidays, Christmas and New Year, the version boundary, and Dublin Airport.
 * Sources: packages/markets/models/sources/dublin.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { meterForView, shippedMarket, view } from "./support.js"

const { doc, market, tariff } = shippedMarket("dublin")
const holidays = new Set(doc.holidays.map((h) => h.date))
const meterAt = (date: string, minute = 660) => meterForView(tariff, view(date, minute), holidays)
const km = (d: number, date: string, minute = 660) => meterAmount(meterAt(date, minute), { meterKm: d, meterSeconds: 0 })
const AIRPORT = { latitude: 53.4264, longitude: -6.2499 }
const OCONNELL_ST = { latitude: 53.3498, longitude: -6.2603 }

describe("Dublin: the national maximum fare of 2022-09-01 (in force 2024-01-01; replaced on 2024-12-01 by an Order whose rates were not read: trips from then refused)", () => {
  it("standard rate: €4.20 for 500 m, €1.30/km to 15 km, €1.65/km after; 10.5 km is €17.20 as published", () => {
    // 10.5 km: 4.20 + 10 × 1.30 = 17.20 (moneyguideireland's example for 08:00–20:00).
    expect(km(10.5, "2026-12-08")).toBeCloseTo(17.2, 6)
    // 20 km: 4.20 + 14.5 × 1.30 + 5 × 1.65 = 4.20 + 18.85 + 8.25 = 31.30.
    expect(km(20, "2026-12-08")).toBeCloseTo(31.3, 6)
    // Saturday by day is standard too.
    expect(km(10.5, "2026-12-05")).toBeCloseTo(17.2, 6)
    // 10 minutes standing: 85 s in the initial charge, then 515 s = 85 completed 6 s steps of €0.046 = €3.91.
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(4.2 + 3.91, 6)
    // Changeover speed: €0.46/min ÷ €1.30/km = 21.2 km/h (the NTA's 'just above 21 km/h').
    expect(meterAt("2026-12-08").time.crossoverKmh).toBeCloseTo(21.23, 2)
  })
  it("premium rate 20:00–08:00, Sundays and public holidays: €4.80, €1.71/km, €2/km after 15 km; 10.5 km is €21.90 as published", () => {
    const premium = 4.8 + 10 * 1.71
    expect(km(10.5, "2026-12-08", 20 * 60)).toBeCloseTo(premium, 6)
    expect(km(10.5, "2026-12-09", 7 * 60 + 59)).toBeCloseTo(premium, 6)
    expect(km(10.5, "2026-12-06")).toBeCloseTo(premium, 6)
    // 2026-10-26: the October bank holiday (last Monday of October).
    expect(km(10.5, "2026-10-26")).toBeCloseTo(premium, 6)
    expect(km(10.5, "2026-10-27")).toBeCloseTo(17.2, 6)
    // 20 km at night: 4.80 + 14.5 × 1.71 + 5 × 2.00 = 39.595.
    expect(km(20, "2026-12-08", 23 * 60)).toBeCloseTo(39.595, 6)
  })
  it("special rate from 20:00 on Christmas Eve to 08:00 on St Stephen's Day, and 20:00 New Year's Eve to 08:00 New Year's Day: €4.80, €2/km", () => {
    const special = 4.8 + 10 * 2
    expect(km(10.5, "2026-12-24", 19 * 60 + 59)).toBeCloseTo(17.2, 6)
    expect(km(10.5, "2026-12-24", 20 * 60)).toBeCloseTo(special, 6)
    expect(km(10.5, "2026-12-25", 11 * 60)).toBeCloseTo(special, 6)
    expect(km(10.5, "2026-12-26", 7 * 60 + 59)).toBeCloseTo(special, 6)
    // St Stephen's Day from 08:00: a public holiday, premium.
    expect(km(10.5, "2026-12-26", 8 * 60)).toBeCloseTo(4.8 + 17.1, 6)
    expect(km(10.5, "2026-12-31", 21 * 60)).toBeCloseTo(special, 6)
    expect(km(10.5, "2027-01-01", 3 * 60)).toBeCloseTo(special, 6)
    // 2024-01-01 (a Monday holiday): special until 08:00, premium after.
    expect(km(10.5, "2024-01-01", 3 * 60)).toBeCloseTo(special, 6)
    expect(km(10.5, "2024-01-01", 11 * 60)).toBeCloseTo(4.8 + 17.1, 6)
  })
  it("ends on 2024-12-01, when the Order of 2024 (+9 %) replaced it, its rates not found (checked 2026-12-06): a trip from that day is refused, not priced on the 2022 fare", () => {
    const v = versionAt(tariff, "2024-11-30")
    expect(v.effectiveFrom).toBe("2022-09-01")
    expect(v.replacedFrom).toBe("2024-12-01")
    expect(v.caveat?.note).toContain("a trip dated from 2024-12-01 is refused")
    expect(v.caveat?.checked).toBe("2026-12-06")
    expect(v.caveat?.note).toContain("No later order (2025 or 2026) was found")
    expect(tariff.versions.map((x) => x.effectiveFrom)).toEqual(["2015-04-30", "2018-02-01", "2022-09-01"])
    // The last day of the 2022 fare (Citizens Information: "the rates until 30 November 2024") is
    // priced on it: 10.5 km at 11:00 is 4.20 + 10 × 1.30 = 17.20; the Order's first day and today are refused.
    const trip = (at: string) => suppliedTrip(market, AIRPORT, OCONNELL_ST, 10.5, 20)(at)
    const p5 = (at: string) => market.offers(trip(at)).map((o) => o.distribution.quantile(0.05))
    expect(p5("2024-11-29T11:00:00+00:00")).toEqual([17.2])
    expect(market.unoffered?.(trip("2024-11-30T11:00:00+00:00"))).toBeUndefined()
    for (const [at, date] of [["2024-12-01T11:00:00+00:00", "2024-12-01"], ["2026-12-08T11:00:00+00:00", "2026-12-08"]] as const) {
      expect(market.offers(trip(at))).toEqual([])
      expect(market.unoffered?.(trip(at))?.message).toBe(
        `market dublin knows no rule in force on ${date}: its rule of 2022-09-01 was replaced on 2024-12-01 by one whose amounts were not read`
      )
    }
  })
  it("serves Dublin Airport (outside the city's box) and meters it", () => {
    expect(market.serves(AIRPORT)).toBe(true)
    const dub = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(OCONNELL_ST)
    expect(dub.has("dub")).toBe(true)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 11, durationMinutes: 22, routeSource: "resolved" }, view("2026-12-08", 660, dub, centre), 2)
    expect(priced.fare).toBeUndefined()
    expect(priced.distribution.quantile(0.05)).toBeLessThan(priced.distribution.quantile(0.95))
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(15)
  })
})

describe("Dublin before 2022-09-01: the fare of 2018-02-01", () => {
  it("standard €3.80 + €1.14/km (10.5 km €15.20 as published), premium €4.20 + €1.45/km; boundary 2022-08-31/09-01", () => {
    expect(["2018-02-01", "2022-08-31", "2022-09-01"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2018-02-01", "2018-02-01", "2022-09-01"])
    expect(km(10.5, "2022-08-30")).toBeCloseTo(15.2, 6)
    expect(km(10.5, "2022-08-30", 22 * 60)).toBeCloseTo(4.2 + 14.5, 6)
    // 20 km by day: 3.80 + 14.5 × 1.14 + 5 × 1.50 = 27.83.
    expect(km(20, "2022-08-30")).toBeCloseTo(27.83, 6)
    expect(km(10.5, "2022-09-01")).toBeCloseTo(17.2, 6)
  })
})

describe("Dublin from 2015-04-30 to 2018-01-31: the fare of the Order 2015 (NTA's own table); before it, refused", () => {
  it("standard €3.60 for 500 m, €1.10/km to 15 km, €1.45/km after: 12.5 km on 2016-06-01 is €16.80", () => {
    expect(["2015-04-30", "2016-06-01", "2018-01-31", "2018-02-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2015-04-30", "2015-04-30", "2015-04-30", "2018-02-01"])
    // 12.5 km, Wednesday 11:00: 3.60 + (12.5 − 0.5) × 1.10 = 3.60 + 13.20 = 16.80 (on the 2018 fare it was 17.48).
    expect(km(12.5, "2016-06-01")).toBeCloseTo(16.8, 6)
    // 20 km: 3.60 + 14.5 × 1.10 + 5 × 1.45 = 3.60 + 15.95 + 7.25 = 26.80.
    expect(km(20, "2016-06-01")).toBeCloseTo(26.8, 6)
    // Changeover: €0.39/min ÷ €1.10/km = 21.27 km/h.
    expect(meterAt("2016-06-01").time.crossoverKmh).toBeCloseTo(21.27, 2)
  })
  it("premium €4.00 + €1.40/km (20:00–08:00, Sundays, bank holidays) and special €4.00 + €1.75/km at Christmas", () => {
    // 12.5 km premium: 4.00 + 12 × 1.40 = 20.80.
    expect(km(12.5, "2016-06-01", 22 * 60)).toBeCloseTo(20.8, 6)
    expect(km(12.5, "2016-06-05")).toBeCloseTo(20.8, 6)
    // 2016-08-01: the August bank holiday (first Monday of August); the next day is standard.
    expect(km(12.5, "2016-08-01")).toBeCloseTo(20.8, 6)
    expect(km(12.5, "2016-08-02")).toBeCloseTo(16.8, 6)
    // Christmas Day 2016: special, 4.00 + 12 × 1.75 = 25.00; Christmas Eve 19:59 standard.
    expect(km(12.5, "2016-12-25")).toBeCloseTo(25, 6)
    expect(km(12.5, "2016-12-24", 19 * 60 + 59)).toBeCloseTo(16.8, 6)
  })
  it("refuses a trip dated before 2015-04-30 (no-rule-for-date): the fare before (€4.10 for 1 km) is known to differ", () => {
    const trip = (at: string) => suppliedTrip(market, AIRPORT, OCONNELL_ST, 12.5, 25)(at)
    expect(market.offers(trip("2015-04-29T11:00:00+01:00"))).toEqual([])
    expect(market.unoffered?.(trip("2015-04-29T11:00:00+01:00"))?.message)
      .toBe("market dublin knows no rule in force on 2015-04-29: its earliest known rule is in force from 2015-04-30")
    expect(market.unoffered?.(trip("2015-04-30T11:00:00+01:00"))).toBeUndefined()
    expect(market.offers(trip("2015-04-30T11:00:00+01:00"))).toHaveLength(1)
  })
})
