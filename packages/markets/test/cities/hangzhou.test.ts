/**
 * Hangzhou: the cruising-taxi fare of 2019-12-01, worked examples from the rule as reported
 * (sources: models/sources/hangzhou.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterForView, none, priceSupplied, quantilesOf, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("hangzhou")
/** The meter for a trip starting at a local date and minute (time variants by start time). */
const meterAt = (date: string, minute: number, pickup: ReadonlySet<string> = none) => meterForView(tariff, view(date, minute, pickup))
/** A metered fare with the version's surcharges at a local date and minute (no zones). */
const withCharges = (date: string, minute: number, fare: number) =>
  meterCharges(tariff, view(date, minute)).total(fare, 0)
/** p5, p50, p95 of a supplied route at a local date and minute. */
const spread = (date: string, minute: number, km: number, minutes: number) =>
  quantilesOf(priceSupplied(market, tariff, km, minutes, view(date, minute)))

describe("Hangzhou: taxi fare of 2019-12-01 (in force 2024-01-01 and, as found, today)", () => {
  it("13 yuan for 3 km, 2.5 yuan/km to 10 km, 3.75 yuan/km beyond (回空补贴 +50 %)", () => {
    const m = meterAt("2026-12-08", 11 * 60)
    expect(meterAmount(m, { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(13, 9)
    // 10 km: 13 + 7 × 2.5 = 30.50; 20 km: 30.50 + 10 × 3.75 = 68.00
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.5, 9)
    expect(meterAmount(m, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(68, 9)
  })
  it("low speed at or below 12 km/h: 2.5 yuan per 4 min, 3.75 yuan per 4 min for trips starting 07:00–09:00", () => {
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(30.5 + 3 * 2.5, 9)
    expect(meterAmount(meterAt("2026-12-08", 8 * 60), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(30.5 + 3 * 3.75, 9)
    expect(meterAmount(meterAt("2026-12-08", 9 * 60), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(38, 9)
  })
  it("night 23:00–05:00: +0.75 yuan per km: 10 km = 13 + 7 × 3.25 = 35.75; 20 km = 35.75 + 10 × 4.50 = 80.75", () => {
    const night = meterAt("2026-12-08", 23 * 60 + 30)
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(35.75, 9)
    expect(meterAmount(night, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(80.75, 9)
    expect(meterAmount(meterAt("2026-12-09", 5 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.5, 9)
  })
  it("10 yuan per trip from 除夕 to 初六, outside the meter", () => {
    const extra = (date: string) => Number((withCharges(date, 11 * 60, 30.5) - 30.5).toFixed(2))
    expect(["2024-02-08", "2024-02-09", "2024-02-15", "2024-02-16", "2025-01-28", "2025-02-03", "2025-02-04", "2026-02-15", "2026-02-16", "2026-02-22", "2026-02-23", "2027-02-05", "2027-02-11"].map(extra))
      .toEqual([0, 10, 10, 0, 10, 10, 0, 0, 10, 10, 0, 10, 10])
  })
  it("one version from 2019-12-01 with its caveat", () => {
    expect(["2019-12-01", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2019-12-01", "2019-12-01", "2019-12-01"])
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("2019-12-01")
  })
})

describe("Hangzhou: Xiaoshan (HGH) on the city meter", () => {
  it("HGH is served; HGH → West Lake (about 30 km) by day: 30.50 + 20 × 3.75 = 105.50", () => {
    const hgh = { latitude: 30.2295, longitude: 120.4344 }
    expect(market.serves(hgh)).toBe(true)
    expect(market.serves({ latitude: 30.2741, longitude: 120.1551 })).toBe(true)
    expect(market.serves({ latitude: 31.2304, longitude: 121.4737 })).toBe(false)
    const atHgh = market.tariffs.locate(hgh)
    expect(atHgh.has("hgh")).toBe(true)
    expect(meterAmount(meterAt("2026-12-08", 11 * 60, atHgh), { meterKm: 30, meterSeconds: 0 })).toBeCloseTo(105.5, 9)
  })
})

describe("Hangzhou: the quoted spread", () => {
  it("a 10 km, 30 min trip at 11:00: the no-slow-time fare (30.50) is the p5", () => {
    // Quoted: p5 30.50, p50 34.75, p95 37.75.
    const [p5, p50, p95] = spread("2026-12-08", 11 * 60, 10, 30)
    expect(Math.abs((p5 ?? 0) - 30.5)).toBeLessThanOrEqual(1)
    expect(p95 ?? 0).toBeGreaterThan(p50 ?? 0)
  })
})

describe("Hangzhou: the Spring Festival 10 yuan in 2020–2023 (audit e H1)", () => {
  // The 2019-12-01 rule: "每年春节期间(年三十至初六),每车次计价器外另加收10元". 除夕–初六 from the State
  // Council's notices (7-day holidays starting on 除夕): 2020 1月24日–30日, 2021 2月11日–17日,
  // 2022 1月31日–2月6日, 2023 1月21日–27日.
  it("10 yuan per trip on 除夕 and 初六 of 2020–2023, none the day before or after", () => {
    const extra = (date: string) => Number((withCharges(date, 11 * 60, 30.5) - 30.5).toFixed(2))
    expect(["2020-01-23", "2020-01-24", "2020-01-30", "2020-01-31", "2021-02-10", "2021-02-11", "2021-02-17", "2021-02-18",
      "2022-01-30", "2022-01-31", "2022-02-06", "2022-02-07", "2023-01-20", "2023-01-21", "2023-01-27", "2023-01-28"].map(extra))
      .toEqual([0, 10, 10, 0, 0, 10, 10, 0, 0, 10, 10, 0, 0, 10, 10, 0])
  })
  it("HGH → Wulin Square, 30 km on 2023-01-23 (初二) at 11:00: 13 + 7 × 2.5 + 20 × 3.75 = 105.50, + 10 = 115.50", () => {
    const atHgh = market.tariffs.locate({ latitude: 30.2295, longitude: 120.4344 })
    const fare = meterAmount(meterAt("2023-01-23", 11 * 60, atHgh), { meterKm: 30, meterSeconds: 0 })
    expect(fare).toBeCloseTo(105.5, 9)
    expect(withCharges("2023-01-23", 11 * 60, fare)).toBeCloseTo(115.5, 9)
    // The quoted trip (30 km in 40 min): its p5, the no-slow fare, carries the 10 yuan.
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 30, durationMinutes: 40, routeSource: "supplied" }, view("2023-01-23", 11 * 60, atHgh), 2)
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(115.5, 2)
  })
})

describe("Hangzhou: trips before the first rule (2019-12-01) are refused (audit G1)", () => {
  const FROM = { latitude: 30.2741, longitude: 120.1635 }
  const TO = { latitude: 30.259, longitude: 120.149 }
  it("before 2019-12-01: 11 yuan for 3 km (the report of the DRC's notice: 起步价 from 11 to 13 yuan): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("hangzhou").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2019-11-27T11:00:00+08:00", "2019-12-01T11:00:00+08:00")
  })
})
