/**
 * Bangkok: the Ministry of Transport's metered-taxi fare of 2023-01-13 (Department of Land
 * Transport), worked examples from the announcement (sources: models/sources/bangkok.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, none, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("bangkok")
const meter = meterOn(tariff, "2026-12-08")
const SUVARNABHUMI = { latitude: 13.69, longitude: 100.7501 }
const DON_MUEANG = { latitude: 13.9126, longitude: 100.6068 }

describe("Bangkok: metered taxi fare of 2023-01-13 (in force 2024-01-01 and today)", () => {
  it("35 baht for the first km, then 6.50 baht/km to km 10, 7.00 to 20, 8.00 to 40, 8.50 to 60, 9.00 to 80, 10.50 beyond", () => {
    expect(meterAmount(meter, { meterKm: 0.8, meterSeconds: 0 })).toBeCloseTo(35, 9)
    // 10 km: 35 + 9 × 6.50 = 93.50
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(93.5, 9)
    // 15 km: 93.50 + 5 × 7.00 = 128.50
    expect(meterAmount(meter, { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(128.5, 9)
    // 30 km: 35 + 58.50 + 70 + 10 × 8 = 243.50
    expect(meterAmount(meter, { meterKm: 30, meterSeconds: 0 })).toBeCloseTo(243.5, 9)
    // 100 km: 35 + 58.5 + 70 + 160 + 170 + 180 + 20 × 10.50 = 883.50
    expect(meterAmount(meter, { meterKm: 100, meterSeconds: 0 })).toBeCloseTo(883.5, 9)
  })
  it("3 baht a minute below 6 km/h: 5 km and 10 min in a jam is 35 + 4 × 6.50 + 30 = 91", () => {
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 600 })).toBeCloseTo(91, 9)
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 59 })).toBeCloseTo(61, 9)
  })
  it("+50 baht for a hire at Suvarnabhumi or Don Mueang (not for a drop-off there); tolls passed on", () => {
    const v = versionAt(tariff, "2026-12-08")
    const bkk = market.tariffs.locate(SUVARNABHUMI), dmk = market.tariffs.locate(DON_MUEANG)
    const at = (pickup: ReadonlySet<string>, dropoff: ReadonlySet<string>) =>
      chargesFor(v, "meter", view("2026-12-08").moment, { pickup, dropoff }, new Set(), 2).total(243.5, 0)
    expect(at(bkk, none)).toBeCloseTo(293.5, 9)
    expect(at(dmk, none)).toBeCloseTo(293.5, 9)
    expect(at(none, bkk)).toBeCloseTo(243.5, 9)
    expect(v.tolls).toBe("passed-on")
    expect(market.serves(SUVARNABHUMI)).toBe(true)
    expect(market.serves({ latitude: 12.93, longitude: 100.88 })).toBe(false) // Pattaya
  })
  it("the 2023 rule is in force on 2024-01-01 and today, and carries the unconfirmed 2025 service fee as a caveat", () => {
    expect(["2023-01-13", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2023-01-13", "2023-01-13", "2023-01-13"])
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 30, durationMinutes: 45, routeSource: "supplied" }, view("2026-12-08", 660, market.tariffs.locate(SUVARNABHUMI), none), 2)
    // From Suvarnabhumi, 30 km in 45 min: p5 is the 30 km meter without slow time plus the 50 baht (293.50).
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(293.5, 6)
    expect(priced.distribution.quantile(0.95)).toBeGreaterThan(293.5)
    expect(priced.version.caveat?.note).toContain("10–20 baht")
  })
})

describe("Bangkok: trips before the first rule (2023-01-13) are refused (audit G1)", () => {
  const FROM = SUVARNABHUMI
  const TO = { latitude: 13.7649, longitude: 100.5383 }
  const { offers } = tripsOf(market, 30, 40)
  it("the fare before (from December 2014: THB 5.50 per km from 1 to 10 km, THB 2 a minute below 6 km/h; car.boxzaracing.com 2015-01-18) differed: no-rule-for-date, not a price on the later rule", () => {
    expectRefusedBefore(market, suppliedTrip(market, FROM, TO, 30, 40), ["2022-06-08T11:00:00+07:00", "2023-01-12T23:30:00+07:00"], "2023-01-13T11:00:00+07:00")
    // 2023-01-13 11:00, 30 km in 40 min: 35 + 9 × 6.50 + 10 × 7 + 10 × 8 = 243.50, + 50 airport pick-up = 293.50.
    expect(offers(FROM, TO, "2023-01-13T11:00:00+07:00")[0]?.distribution.quantile(0.05)).toBeCloseTo(293.5, 9)
  })
})
