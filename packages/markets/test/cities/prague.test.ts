/**
 * Prague (Hlavní město Praha, nařízení 20/2006 as amended by 1/2020: maximum taxi prices): each
 * version's meter on worked examples computed by hand from the nařízení's jednorázová sazba,
 * Kč/km and Kč/min, the version boundary, and the airport (inside the city, metered).
 * Sources: packages/markets/models/sources/prague.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("prague")
const AIRPORT = { latitude: 50.1069, longitude: 14.2666 }
const STAROMESTSKE = { latitude: 50.0875, longitude: 14.4213 }

describe("Prague: the maximum prices of nařízení 1/2020 (today's, and 2024-01-01's)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("60 Kč + 36 Kč/km + 7 Kč a minute of waiting or slow traffic", () => {
    // 10 km: 60 + 360 = 420 Kč.
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(420, 6)
    // 17.5 km from the airport to the Old Town: 60 + 630 = 690 Kč, + 8 minutes slow = 56 Kč → 746 Kč.
    expect(meterAmount(meter, { meterKm: 17.5, meterSeconds: 480 })).toBeCloseTo(746, 6)
    // 10 minutes standing: 70 Kč.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(130, 6)
    // Waiting is charged at junctions and in slow dense traffic (§ 3 (3)): below 7 ÷ 36 km a minute = 11.67 km/h (derived).
    expect(meter.time.crossoverKmh).toBeCloseTo(420 / 36, 9)
  })
  it("no surcharge may be added to the maximum (§ 3 (6)), at any hour", () => {
    const v = versionAt(tariff, "2026-12-08")
    for (const minute of [3 * 60, 11 * 60, 23 * 60]) {
      const w = view("2026-12-06", minute)
      expect(chargesFor(v, "meter", w.moment, w.places, new Set(), 2).total(420, 0)).toBeCloseTo(420, 9)
    }
    expect(v.caveat?.checked).toBe("2026-12-06")
  })
  it("serves the airport (inside Prague) and meters it: no airport fixed fare in the nařízení", () => {
    expect(market.serves(AIRPORT)).toBe(true)
    const prg = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(STAROMESTSKE)
    expect(prg.has("prg")).toBe(true)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 17.5, durationMinutes: 28, routeSource: "resolved" }, view("2026-12-08", 660, prg, centre), 2)
    expect(priced.fare).toBeUndefined()
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(600)
    expect(priced.distribution.quantile(0.05)).toBeLessThan(priced.distribution.quantile(0.95))
  })
})

describe("Prague before 2020-02-01: nařízení 20/2006", () => {
  it("40 Kč + 28 Kč/km + 6 Kč/min until 2020-01-31", () => {
    expect(["2007-01-01", "2019-12-31", "2020-01-31", "2020-02-01", "2024-01-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2007-01-01", "2007-01-01", "2007-01-01", "2020-02-01", "2020-02-01"])
    // 10 km: 40 + 280 = 320 Kč; 10 min waiting 60 Kč.
    expect(meterAmount(meterOn(tariff, "2019-06-04"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(320, 6)
    expect(meterAmount(meterOn(tariff, "2019-06-04"), { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(100, 6)
    expect(meterOn(tariff, "2019-06-04").time.crossoverKmh).toBeCloseTo(360 / 28, 9)
  })
})

describe("Prague: trips before the first rule (2007-01-01) are refused (audit G1)", () => {
  const FROM = { latitude: 50.0875, longitude: 14.4213 }
  const TO = { latitude: 50.0815, longitude: 14.4284 }
  it("before 2007: 25 Kč/km (abcprague.com 2006-12-12: '28 CZK instead of present 25'): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("prague").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2006-12-28T11:00:00+01:00", "2007-01-01T11:00:00+01:00")
  })
})
