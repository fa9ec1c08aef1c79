/**
 * Kuala Lumpur: SPAD's Klang Valley budget-taxi fare of 2015-03-19, worked examples from the
 * announcement (sources: models/sources/kuala-lumpur.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, none, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("kuala-lumpur")
const meter = meterOn(tariff, "2026-12-08")

describe("Kuala Lumpur: Klang Valley budget taxi, SPAD fare of 2015-03-19 (the newest found; in force 2024-01-01 and today, with a caveat)", () => {
  it("RM3.00 for the first km, 25 sen per completed 200 m: SPAD's own 10 km example is RM14.25", () => {
    expect(meterAmount(meter, { meterKm: 0.9, meterSeconds: 0 })).toBeCloseTo(3, 9)
    // 10 km: 9 km past the first are 45 units of 200 m: 3.00 + 45 × 0.25 = 14.25 (The Sun, 2015-10, on SPAD's rates).
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(14.25, 9)
    // 1.39 km: one completed 200 m unit.
    expect(meterAmount(meter, { meterKm: 1.39, meterSeconds: 0 })).toBeCloseTo(3.25, 9)
  })
  it("25 sen per 36 s below 20 km/h (derived: 200 m in 36 s): 5 km and 6 min slow is 3 + 20 × 0.25 + 10 × 0.25 = 10.50", () => {
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 360 })).toBeCloseTo(10.5, 9)
  })
  it("adds 50 % from midnight to 06:00, not at 06:00 or 23:59", () => {
    const v = versionAt(tariff, "2026-12-08")
    const total = (minute: number) => chargesFor(v, "meter", view("2026-12-08", minute).moment, view("2026-12-08").places, new Set(), 2).total(14.25, 0)
    expect(total(30)).toBeCloseTo(14.25 * 1.5, 9)
    expect(total(6 * 60)).toBeCloseTo(14.25, 9)
    expect(total(23 * 60 + 59)).toBeCloseTo(14.25, 9)
  })
  it("serves KLIA (both terminals) on the meter; the version in force on 2024-01-01 and today is 2015's and carries a caveat", () => {
    for (const p of [{ latitude: 2.7456, longitude: 101.7072 }, { latitude: 2.7433, longitude: 101.6866 }]) expect(market.serves(p)).toBe(true)
    expect(market.serves({ latitude: 1.4927, longitude: 103.7414 })).toBe(false) // Johor Bahru
    expect(["2015-03-19", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2015-03-19", "2015-03-19", "2015-03-19"])
    const klia = market.tariffs.locate({ latitude: 2.7456, longitude: 101.7072 })
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 55, durationMinutes: 50, routeSource: "supplied" }, view("2026-12-08", 660, klia, none), 2)
    // 55 km with no slow time: 3 + 270 × 0.25 = 70.50 is the floor of the spread.
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(70.5 - 1e-9)
    expect(priced.fare).toBeUndefined()
    expect(priced.version.caveat?.note).toContain("2015-03-19")
  })
})

describe("Kuala Lumpur: trips before the first rule (2015-03-19) are refused (audit G1)", () => {
  const FROM = { latitude: 2.7456, longitude: 101.7072 }
  const TO = { latitude: 3.1478, longitude: 101.6934 }
  const { offers } = tripsOf(market, 57, 55)
  it("the fare before (from 2009-08-01: RM3, 10 sen per 115 m, 10 sen per 21 s; poskod.my 2015-03, lcct.com.my 2009-07-17) differed: no-rule-for-date, not a price on the later rule", () => {
    expectRefusedBefore(market, suppliedTrip(market, FROM, TO, 57, 55), ["2014-06-10T11:00:00+08:00", "2015-03-18T11:00:00+08:00"], "2015-03-19T11:00:00+08:00")
    // 2015-03-19 11:00, KLIA → Dataran Merdeka 57 km in 55 min: 3.00 + 280 × 0.25 = RM73.00.
    expect(offers(FROM, TO, "2015-03-19T11:00:00+08:00")[0]?.distribution.quantile(0.05)).toBeCloseTo(73, 9)
  })
})

describe("Kuala Lumpur: caveats on the midnight surcharge and the KLIA coupon (audit F1, F13)", () => {
  it("every offer says the 50 % is charged by drop-off time (the file reads the start) and that a RM2 KLIA queue coupon (2013) is not modelled", () => {
    const { offers } = tripsOf(market, 57, 55)
    const evidence = offers({ latitude: 2.7456, longitude: 101.7072 }, { latitude: 3.1478, longitude: 101.6934 }, "2026-12-08T23:30:00+08:00")[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("charged by drop-off time")
    expect(evidence).toContain("RM2 queue coupon")
  })
})
