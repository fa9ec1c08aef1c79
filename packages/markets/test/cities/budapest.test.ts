/**
 * Budapest (Fővárosi Közgyűlés, taxirendelet 31/2013: a fixed official fare, the same for every
 * taxi): each version's meter on worked examples computed by hand from the published alapdíj,
 * kilométerdíj and percdíj, the version boundaries, and the airport (metered like any trip).
 * Sources: packages/markets/models/sources/budapest.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("budapest")
const AIRPORT = { latitude: 47.433, longitude: 19.2618 }
const DEAK_TER = { latitude: 47.4979, longitude: 19.0543 }

describe("Budapest: the fixed taxi fare of 2023-03-06 (today's, and 2024-01-01's)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("1 100 Ft + 440 Ft/km + 110 Ft a minute below 15 km/h", () => {
    // 10 km: 1 100 + 10 × 440 = 5 500 Ft.
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(5500, 6)
    // 3.335 km: 333 completed 10 m steps of 4.40 Ft = 1 465.20 Ft (the file's step; the rule gives only Ft/km).
    expect(meterAmount(meter, { meterKm: 3.335, meterSeconds: 0 })).toBeCloseTo(1100 + 1465.2, 6)
    // 10 minutes standing: 10 × 110 = 1 100 Ft.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(2200, 6)
    // 20 km and 6 minutes slow: 1 100 + 8 800 + 660 = 10 560 Ft.
    expect(meterAmount(meter, { meterKm: 20, meterSeconds: 360 })).toBeCloseTo(10560, 6)
    // Time runs below the speed at which both rates are equal: 110 Ft/min ÷ 440 Ft/km = 0.25 km/min (derived).
    expect(meter.time.runs).toBe("below-speed")
    expect(meter.time.crossoverKmh).toBeCloseTo(15, 9)
  })
  it("the same fare at every hour and on Sundays (no night or holiday rate), and a caveat that no later amendment was found", () => {
    const v = versionAt(tariff, "2026-12-06")
    expect(v.meterVariants ?? []).toEqual([])
    expect(v.surcharges ?? []).toEqual([])
    expect(v.caveat?.checked).toBe("2026-12-06")
    // The amendment of 2025-09-24 changed the rules but not the fare.
    expect(v.caveat?.note).toContain("2025-09-24 without any fare rise")
  })
  it("serves the airport (inside the city) and meters it like any trip: no airport fee or fixed fare since 2013", () => {
    expect(market.serves(AIRPORT)).toBe(true)
    const bud = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(DEAK_TER)
    expect(bud.has("bud")).toBe(true)
    expect(centre.has("bud")).toBe(false)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 21, durationMinutes: 30, routeSource: "resolved" }, view("2026-12-08", 660, bud, centre), 2)
    expect(priced.fare).toBeUndefined()
    // 21 km: at least 1 100 + 21 × 440 = 10 340 Ft less the distance the slow minutes replace.
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(9000)
    expect(priced.distribution.quantile(0.05)).toBeLessThan(priced.distribution.quantile(0.95))
  })
})

describe("Budapest before 2023-03-06: the fares of 2013, 2018 and 2022", () => {
  it("each date is priced on its own rule (10 km at 11:00)", () => {
    expect(["2013-09-01", "2018-06-30", "2018-07-01", "2022-05-08", "2022-05-09", "2023-03-05", "2023-03-06", "2024-01-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2013-09-01", "2013-09-01", "2018-07-01", "2018-07-01", "2022-05-09", "2022-05-09", "2023-03-06", "2023-03-06"])
    // 2013: 450 + 2 800 = 3 250; 2018: 700 + 3 000 = 3 700; 2022: 1 000 + 4 000 = 5 000; 2023: 5 500 Ft.
    expect(["2015-06-01", "2020-06-01", "2022-12-01", "2024-01-01"].map((d) => meterAmount(meterOn(tariff, d), { meterKm: 10, meterSeconds: 0 })))
      .toEqual([3250, 3700, 5000, 5500].map((x) => expect.closeTo(x, 6)))
    // Waiting: 10 minutes were 700 Ft (2013), 750 (2018), 1 000 (2022).
    expect(["2015-06-01", "2020-06-01", "2022-12-01"].map((d) => meterAmount(meterOn(tariff, d), { meterKm: 0, meterSeconds: 600 }) - meterOn(tariff, d).initial))
      .toEqual([700, 750, 1000].map((x) => expect.closeTo(x, 6)))
  })
})

describe("Budapest: trips before the first rule (2013-09-01) are refused (audit G1)", () => {
  const FROM = { latitude: 47.4977, longitude: 19.0546 }
  const TO = { latitude: 47.5002, longitude: 19.0838 }
  it("before 2013-09-01: the 1998 maximum of 300 Ft + 240 Ft/km + 60 Ft/min (MTI 2013-09-01): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("budapest").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2013-08-28T11:00:00+02:00", "2013-09-01T11:00:00+02:00")
  })
})
