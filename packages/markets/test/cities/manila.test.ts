/**
 * Manila: the LTFRB's Metro Manila taxi fare — PHP 13.50/km and PHP 2/min of travel time since
 * 2018-07-31 under three flag-downs: PHP 40 (2018-07-31), PHP 45 (provisional, 2022-10-03) and
 * PHP 50 (ruling of 2024-03-18, charged after recalibration; the day Metro Manila began is not
 * known, so trips from 2024-03-18 to 2024-11-18 are priced on both). Worked examples from the rule
 * (sources: models/sources/manila.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterFare, meterOn, none, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("manila")
const NAIA = { latitude: 14.5086, longitude: 121.0194 }
const MAKATI = { latitude: 14.5547, longitude: 121.0244 }

describe("Manila: the PHP 50 flag-down (ruling of 2024-03-18; in force by 2024-11-19, with a caveat)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("PHP 50 flag-down, PHP 13.50 per km from the start, PHP 2 per minute of the whole trip", () => {
    // 10 km in 30 min: 50 + 135 + 60 = 245.
    expect(meterFare(meter, 10, 30, 0)).toBeCloseTo(245, 9)
    // 1.7 km in 5 min: 50 + 22.95 + 10 = 82.95.
    expect(meterFare(meter, 1.7, 5, 0)).toBeCloseTo(82.95, 9)
    // Time runs in traffic too: 3 km in 25 min is 50 + 40.50 + 50 = 140.50, slow or not.
    expect(meterFare(meter, 3, 25, 25)).toBeCloseTo(140.5, 9)
    // A minute is charged when completed: 4 min 59 s count 4 (50 + 8 = 58).
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 299 })).toBeCloseTo(58, 9)
  })
  it("a supplied route is priced exactly (time always runs), NAIA included, no airport surcharge on the white taxi", () => {
    const naia = market.tariffs.locate(NAIA)
    expect(naia.has("mnl")).toBe(true)
    expect(market.serves(NAIA)).toBe(true)
    expect(market.serves({ latitude: 10.3157, longitude: 123.8854 })).toBe(false) // Cebu
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 10, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 660, naia, none), 2)
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(245, 9)
    expect(priced.distribution.quantile(0.95)).toBeCloseTo(245, 9)
    expect(priced.version.caveat?.note).toContain("recalibrated meters")
    expect(priced.version.caveat?.note).toContain("PHP 45, PHP 5 less")
  })
})

describe("Manila: the provisional PHP 45 flag-down of 2022-10-03 (in force on 2024-01-01)", () => {
  const meter = meterOn(tariff, "2024-01-01")
  it("PHP 45 + PHP 13.50/km + PHP 2/min: 10 km in 30 min is 45 + 135 + 60 = 240; 1.7 km in 5 min 45 + 22.95 + 10 = 77.95", () => {
    expect(meterFare(meter, 10, 30, 0)).toBeCloseTo(240, 9)
    expect(meterFare(meter, 1.7, 5, 0)).toBeCloseTo(77.95, 9)
    expect(versionAt(tariff, "2024-01-01").caveat).toBeUndefined()
  })
})

describe("Manila: the PHP 40 flag-down of 2018-07-31 (to 2022-10-02)", () => {
  const meter = meterOn(tariff, "2022-10-02")
  it("PHP 40 + PHP 13.50/km + PHP 2/min: 10 km in 30 min 40 + 135 + 60 = 235; 1.7 km in 5 min 72.95", () => {
    expect(meterFare(meter, 10, 30, 0)).toBeCloseTo(235, 9)
    expect(meterFare(meter, 1.7, 5, 0)).toBeCloseTo(72.95, 9)
  })
})

describe("Manila: versions and the window of the PHP 50 change", () => {
  it("the version in force on each boundary day", () => {
    expect(["2018-07-31", "2022-10-02", "2022-10-03", "2024-01-01", "2024-03-17", "2024-11-18", "2024-11-19", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2018-07-31", "2018-07-31", "2022-10-03", "2022-10-03", "2022-10-03", "2022-10-03", "2024-11-19", "2024-11-19"])
  })
  it("a trip from 2024-03-18 to 2024-11-18 is priced on both PHP 45 and PHP 50 (10 km in 30 min: 240–245); exact before and after", () => {
    const { offers, price } = tripsOf(market, 10, 30)
    expect(price(NAIA, MAKATI, "2024-03-17T11:00:00+08:00")).toEqual([[240, 240]])
    expect(price(NAIA, MAKATI, "2024-03-18T11:00:00+08:00")).toEqual([[240, 245]])
    expect(price(MAKATI, NAIA, "2024-07-09T11:00:00+08:00")).toEqual([[240, 245]])
    expect(price(MAKATI, NAIA, "2024-11-18T23:00:00+08:00")).toEqual([[240, 245]])
    expect(price(NAIA, MAKATI, "2024-11-19T11:00:00+08:00")).toEqual([[245, 245]])
    expect(offers(NAIA, MAKATI, "2024-07-09T11:00:00+08:00")[0]?.source?.level?.evidence).toContain("2024-03-18")
  })
})

describe("Manila: trips before the first rule (2018-07-31) are refused (audit G1)", () => {
  const FROM = NAIA
  const TO = { latitude: 14.5826, longitude: 120.9787 }
  const { offers } = tripsOf(market, 11, 35)
  it("the fare before (PHP 3.50 per 300 m and PHP 3.50 per minute of waiting; Manila Times 2017-10-05) differed: no-rule-for-date, not a price on the later rule", () => {
    expectRefusedBefore(market, suppliedTrip(market, FROM, TO, 11, 35), ["2017-06-06T11:00:00+08:00", "2018-07-30T11:00:00+08:00"], "2018-07-31T11:00:00+08:00")
    // 2018-07-31 11:00, NAIA → Rizal Park 11 km in 35 min: 40 + 11 × 13.50 + 35 × 2 = PHP 258.50.
    expect(offers(FROM, TO, "2018-07-31T11:00:00+08:00")[0]?.distribution.quantile(0.05)).toBeCloseTo(258.5, 9)
  })
})
