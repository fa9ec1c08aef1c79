/**
 * Orlando: the City of Orlando taxicab meter rate of 2012-04-23 ($2.40 for the first 1/4 mile,
 * $0.60 per further 1/4 mile or 80 s of waiting), on worked examples by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, MILE, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("orlando")
const MCO = { latitude: 28.4294, longitude: -81.3089 }
const DOWNTOWN = { latitude: 28.5421, longitude: -81.3790 }

describe("Orlando: taxicab meter rate of 2012-04-23", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("reproduces the published 10-mile example: $2.40 + 39 quarter miles × $0.60 = $25.80", () => {
    expect(meterAmount(meter, { meterKm: 10 * MILE, meterSeconds: 0 })).toBeCloseTo(25.8, 9)
  })
  it("5 miles and 4 minutes waiting: $2.40 + 19 × $0.60 + 3 × 80 s × $0.60 = $15.60", () => {
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 240 })).toBeCloseTo(15.6, 9)
  })
  it("the drop covers the first quarter mile; a started quarter is charged", () => {
    expect(meterAmount(meter, { meterKm: 0.25 * MILE, meterSeconds: 0 })).toBeCloseTo(2.4, 9)
    expect(meterAmount(meter, { meterKm: 0.26 * MILE, meterSeconds: 0 })).toBeCloseTo(3.0, 9)
  })
  it("waiting runs below 11.25 mph (18.1 km/h, derived: 1/4 mile per 80 s)", () => {
    expect(meter.time.crossoverKmh).toBeCloseTo((MILE / 4) / (80 / 3600), 3)
  })
  it("the same rule prices 2024-01-01 (no later change found) and the offer carries the caveat", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2012-04-23")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("CPI")
    // Update check 2026-12-06: the distance rate ($2.40 a mile) last seen in force in the Sentinel of 2014-12-15.
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("2014-12-15")
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    expect(tariff.versions).toHaveLength(1)
  })
  it("MCO → downtown, 12 supplied miles in 22 min: metered (no flat fare), at least $31.20 with no slow time", () => {
    expect(market.serves(MCO)).toBe(true)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 12 * MILE, durationMinutes: 22, routeSource: "supplied" }, view("2026-12-08", 660, market.tariffs.locate(MCO), market.tariffs.locate(DOWNTOWN)), 2)
    expect(priced.fare).toBeUndefined()
    // 12 miles: $2.40 + 47 × $0.60 = $30.60; started units and slow time only add.
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(30.6 - 0.61)
    expect(priced.distribution.quantile(0.95)).toBeLessThan(45)
  })
  it("a trip before 2012-04-23 is refused (no-rule-for-date): the earlier rule differed ($2.20 + $0.55 per quarter mile, citysurfingorlando.com 2012-04) and its start is not known", () => {
    expect(doc.define?.beforeFirstRule).toBe("refuse")
    // MCO → Lake Eola, 19 km, on 2011-06-01: on the earlier rule 2.20 + 47 × 0.55 = $28.05, not the 2012 rule's $30.60; not priced.
    const trip = (iso: string) => suppliedTrip(market, MCO, DOWNTOWN, 19, 22)(iso)
    expectRefusedBefore(market, trip, ["2011-06-01T11:00:00-04:00", "2012-04-22T23:30:00-04:00"], "2012-04-23T00:30:00-04:00")
    expect(market.offers(trip("2012-04-23T00:30:00-04:00"))).toHaveLength(1)
  })
})
