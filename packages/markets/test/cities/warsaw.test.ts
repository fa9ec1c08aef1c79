/**
 * Warsaw (Rada m.st. Warszawy, maximum taxi prices): each version's taryfa 1 and taryfa 2 on
 * worked examples computed by hand from the published opłata początkowa, zł/km and postój, the
 * hours, Sundays, holidays, 24/31 December and Holy Saturday evening of taryfa 2, the version
 * boundary of 2024-09-22, and the airport. Sources: packages/markets/models/sources/warsaw.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterForView, shippedMarket, view } from "./support.js"

const { doc, market, tariff } = shippedMarket("warsaw")
const holidays = new Set(doc.holidays.map((h) => h.date))
/** The meter in force (version and taryfa) for a trip at a local date and minute. */
const meterAt = (date: string, minute = 660) => meterForView(tariff, view(date, minute), holidays)
const tenKm = (date: string, minute = 660) => meterAmount(meterAt(date, minute), { meterKm: 10, meterSeconds: 0 })
const AIRPORT = { latitude: 52.1672, longitude: 20.9679 }
const CENTRUM = { latitude: 52.2297, longitude: 21.0122 }

describe("Warsaw: the maximum prices of 2024-09-22 (today's)", () => {
  it("taryfa 1 (Monday–Saturday 06:00–22:00): 10 zł + 5 zł/km, postój 50 zł an hour", () => {
    // 10 km on Tuesday 2026-12-08 at 11:00: 10 + 50 = 60 zł; on Saturday 2026-12-05 the same.
    expect(tenKm("2026-12-08")).toBeCloseTo(60, 6)
    expect(tenKm("2026-12-05")).toBeCloseTo(60, 6)
    // 12 minutes of postój: 50 × 12/60 = 10 zł.
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 0, meterSeconds: 720 })).toBeCloseTo(20, 6)
    // The meter counts postój below 50 ÷ 5 = 10 km/h (derived).
    expect(meterAt("2026-12-08").time.crossoverKmh).toBeCloseTo(10, 9)
    expect(tenKm("2026-12-08", 6 * 60)).toBeCloseTo(60, 6)
    expect(tenKm("2026-12-08", 21 * 60 + 59)).toBeCloseTo(60, 6)
  })
  it("taryfa 2: 10 zł + 7.50 zł/km at night, on Sundays, holidays, 24 and 31 December and Holy Saturday from 19:00", () => {
    const t2 = 10 + 75
    expect(tenKm("2026-12-08", 22 * 60)).toBeCloseTo(t2, 6)
    expect(tenKm("2026-12-09", 5 * 60 + 59)).toBeCloseTo(t2, 6)
    expect(tenKm("2026-12-06")).toBeCloseTo(t2, 6)
    // 2026-11-11 (Independence Day, a Wednesday), 2026-12-24 and 2026-12-31 (Thursdays).
    expect(tenKm("2026-11-11")).toBeCloseTo(t2, 6)
    expect(tenKm("2026-12-24")).toBeCloseTo(t2, 6)
    expect(tenKm("2026-12-31")).toBeCloseTo(t2, 6)
    // Holy Saturday 2026-04-04: taryfa 1 until 19:00, taryfa 2 after.
    expect(tenKm("2026-04-04", 18 * 60 + 59)).toBeCloseTo(60, 6)
    expect(tenKm("2026-04-04", 19 * 60)).toBeCloseTo(t2, 6)
    // Postój is 50 zł an hour in taryfa 2 too: the crossover is 50 ÷ 7.5 = 6.67 km/h (derived).
    expect(meterAt("2026-12-06").time.crossoverKmh).toBeCloseTo(50 / 7.5, 9)
  })
  it("serves Chopin airport (inside the city) and meters it; no airport surcharge", () => {
    expect(market.serves(AIRPORT)).toBe(true)
    const waw = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(CENTRUM)
    expect(waw.has("waw")).toBe(true)
    const v = versionAt(tariff, "2026-12-08")
    expect(v.surcharges ?? []).toEqual([])
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 10, durationMinutes: 22, routeSource: "resolved" }, view("2026-12-08", 660, waw, centre), 2)
    expect(priced.fare).toBeUndefined()
    expect(priced.distribution.quantile(0.05)).toBeLessThan(priced.distribution.quantile(0.95))
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(45)
  })
})

describe("Warsaw before 2024-09-22: 8 zł, 3 zł/km, 4.50 zł/km (taryfa 2), postój 40 zł", () => {
  it("the boundary and 2024-01-01 (New Year's Day: taryfa 2)", () => {
    expect(["2022-04-01", "2024-01-01", "2024-09-21", "2024-09-22"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2022-04-01", "2022-04-01", "2022-04-01", "2024-09-22"])
    // 2024-01-01 is a holiday: 8 + 10 × 4.50 = 53 zł; 2024-01-02 (Tuesday) at 11:00: 8 + 30 = 38 zł; at 23:00: 53 zł.
    expect(tenKm("2024-01-01")).toBeCloseTo(53, 6)
    expect(tenKm("2024-01-02")).toBeCloseTo(38, 6)
    expect(tenKm("2024-01-02", 23 * 60)).toBeCloseTo(53, 6)
    // 30 minutes of postój at 40 zł an hour: 20 zł.
    expect(meterAmount(meterAt("2024-01-02"), { meterKm: 0, meterSeconds: 1800 })).toBeCloseTo(28, 6)
    // Saturday 2024-09-21 at 11:00 (old taryfa 1) and Sunday 2024-09-22 (new taryfa 2).
    expect(tenKm("2024-09-21")).toBeCloseTo(38, 6)
    expect(tenKm("2024-09-22")).toBeCloseTo(85, 6)
  })
})
