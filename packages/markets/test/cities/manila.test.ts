/**
 * Manila: the LTFRB's Metro Manila taxi fare (PHP 40 + PHP 13.50/km + PHP 2/min of travel time),
 * worked examples from the rule (sources: models/sources/manila.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterFare, meterOn, none, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("manila")
const meter = meterOn(tariff, "2026-12-08")

describe("Manila: LTFRB taxi fare of 2017-10-04, charged from 2018-07-31 (in force 2024-01-01 and today, with a caveat)", () => {
  it("PHP 40 flag-down, PHP 13.50 per km from the start, PHP 2 per minute of the whole trip", () => {
    // 10 km in 30 min: 40 + 135 + 60 = 235.
    expect(meterFare(meter, 10, 30, 0)).toBeCloseTo(235, 9)
    // 1.7 km in 5 min: 40 + 22.95 + 10 = 72.95.
    expect(meterFare(meter, 1.7, 5, 0)).toBeCloseTo(72.95, 9)
    // Time runs in traffic too: 3 km in 25 min is 40 + 40.50 + 50 = 130.50, slow or not.
    expect(meterFare(meter, 3, 25, 25)).toBeCloseTo(130.5, 9)
    // A minute is charged when completed: 4 min 59 s count 4.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 299 })).toBeCloseTo(48, 9)
  })
  it("a supplied route is priced exactly (time always runs), NAIA included, no airport surcharge on the white taxi", () => {
    const naia = market.tariffs.locate({ latitude: 14.5086, longitude: 121.0194 })
    expect(naia.has("mnl")).toBe(true)
    expect(market.serves({ latitude: 14.5086, longitude: 121.0194 })).toBe(true)
    expect(market.serves({ latitude: 10.3157, longitude: 123.8854 })).toBe(false) // Cebu
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 10, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 660, naia, none), 2)
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(235, 9)
    expect(priced.distribution.quantile(0.95)).toBeCloseTo(235, 9)
    expect(priced.version.caveat?.note).toContain("PHP 50–60")
  })
  it("the version in force on 2024-01-01 and today is 2018-07-31's", () => {
    expect(["2018-07-31", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2018-07-31", "2018-07-31", "2018-07-31"])
  })
})
