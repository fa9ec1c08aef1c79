/**
 * Seattle: the City of Seattle / King County taximeter rate ($2.60 drop, $0.30 per 1/9 mile,
 * $0.30 per 36 s of slow time, one or the other), reproduced on worked examples by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, meterOn, MILE, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("seattle")
const SEA = { latitude: 47.4436, longitude: -122.3016 }
const PIKE_PLACE = { latitude: 47.6097, longitude: -122.3422 }

describe("Seattle: taximeter rate ($2.60 drop, $2.70/mile, $0.50/min)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("5 miles with no slow time: 45 ninths of a mile × $0.30 + $2.60 = $16.10", () => {
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(16.1, 9)
  })
  it("3 miles and 4 minutes slow: $2.60 + 27 × $0.30 + 6 completed 36 s units × $0.30 = $12.50", () => {
    expect(meterAmount(meter, { meterKm: 3 * MILE, meterSeconds: 240 })).toBeCloseTo(12.5, 9)
  })
  it("a unit is charged once completed: 0.1 mile is the drop alone, 2/9 mile is $3.20", () => {
    expect(meterAmount(meter, { meterKm: 0.1 * MILE, meterSeconds: 35 })).toBeCloseTo(2.6, 9)
    expect(meterAmount(meter, { meterKm: (2 / 9) * MILE, meterSeconds: 0 })).toBeCloseTo(3.2, 9)
  })
  it("time runs below 11.11 mph (17.88 km/h, derived: 1/9 mile in 36 s)", () => {
    expect(meter.time.runs).toBe("below-speed")
    expect(meter.time.crossoverKmh).toBeCloseTo((MILE / 9) / (36 / 3600), 3)
  })
  it("the same rule prices 2024-01-01 and today (no rate change found since 2014-11-10)", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2014-11-10")
    expect(versionAt(tariff, "2026-12-08").effectiveFrom).toBe("2014-11-10")
    // Update check of 2026-12-06: no rate change after the joint rule of 2025-08-06 found.
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("Update check of 2026-12-06")
    expect(meterAmount(meterOn(tariff, "2024-01-01"), { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(16.1, 9)
  })
  it("SEA (outside the city) is served; no airport charge is added to the meter", () => {
    expect(market.serves(SEA)).toBe(true)
    expect(market.serves(PIKE_PLACE)).toBe(true)
    expect(market.serves({ latitude: 47.2529, longitude: -122.4443 })).toBe(false) // Tacoma
    const v = versionAt(tariff, "2026-12-08")
    const fromSea = chargesFor(v, "meter", view("2026-12-08").moment, { pickup: market.tariffs.locate(SEA), dropoff: market.tariffs.locate(PIKE_PLACE) }, new Set(), 2)
    expect(fromSea.total(45.5, 0)).toBeCloseTo(45.5, 9)
  })
  it("a supplied 13-mile SEA → downtown trip in 30 minutes is quoted around the meter's $37.70 with no slow time", () => {
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 13 * MILE, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 660, market.tariffs.locate(SEA), market.tariffs.locate(PIKE_PLACE)), 2)
    // 13 miles = 117 ninths: $2.60 + $35.10 = $37.70 if no time were slow; slow time only adds.
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(37.7 - 0.31)
    expect(priced.distribution.quantile(0.95)).toBeGreaterThan(priced.distribution.quantile(0.05))
    expect(priced.version.effectiveFrom).toBe("2014-11-10")
  })
})

describe("Seattle before 2014-11-10 (audit F-ALL-1)", () => {
  it("a trip before 2014-11-10 is refused (no-rule-for-date): the earlier rate differed ($2.50 drop for the first 1/10 mile and $2.50 a mile from 2008-10-01, City of Seattle; +20 cents a mile in 2012, KNKX), its dates not all known", () => {
    const trip = suppliedTrip(market, SEA, PIKE_PLACE, 22, 27)
    expectRefusedBefore(market, trip, ["2013-06-04T11:00:00-07:00", "2014-11-09T23:30:00-08:00"], "2014-11-10T11:00:00-08:00")
    expect(market.offers(trip("2014-11-10T11:00:00-08:00"))).toHaveLength(1)
  })
})

describe("Seattle: the Port of Seattle per-trip fee in the caveat (audit F-SEA-1)", () => {
  it("the caveat gives the $6 per-trip fee of Order 2023-04, paid by the driver, not charged here", () => {
    const note = versionAt(tariff, "2026-12-08").caveat?.note ?? ""
    for (const part of ["$6", "Order 2023-04", "paid by the driver"]) expect(note).toContain(part)
    expect(note).not.toContain("amount not found")
  })
})
