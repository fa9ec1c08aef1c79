/**
 * Shanghai: the city taxi (市域巡游出租汽车) fare, worked examples from the rule as reported
 * (sources: models/sources/shanghai.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterOn, none, shippedMarket, tariffOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market } = shippedMarket("shanghai")
const standard = tariffOf(doc, 0), sixteen = tariffOf(doc, 1)
/** The fare with the version's surcharges at a local date and minute (no zones). */
const total = (t: typeof standard, date: string, minute: number, fare: number) =>
  meterCharges(t, view(date, minute)).total(fare, 0)

describe("Shanghai: city taxi fare of 2022-01-15 (in force 2024-01-01 and today)", () => {
  it("14 yuan for the first 3 km, 2.7 yuan/km to 15 km, +50 % (4.05 yuan/km) beyond", () => {
    const m = meterOn(standard, "2026-12-08")
    expect(meterAmount(m, { meterKm: 2.5, meterSeconds: 0 })).toBeCloseTo(14, 9)
    // 10 km: 14 + 7 × 2.7 = 32.90
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(32.9, 9)
    // 25 km: 14 + 12 × 2.7 + 10 × 4.05 = 14 + 32.40 + 40.50 = 86.90
    expect(meterAmount(m, { meterKm: 25, meterSeconds: 0 })).toBeCloseTo(86.9, 9)
  })
  it("below 12 km/h: 1.5 km's fare (4.05 yuan) per 4 minutes; 10 km + 12 min slow is 32.90 + 3 × 4.05 = 45.05", () => {
    const m = meterOn(standard, "2026-12-08")
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(45.05, 9)
    // A started 4-minute period is not charged until complete (the meter's step was not found).
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 239 })).toBeCloseTo(32.9, 9)
    expect(m.time.crossoverKmh).toBe(12)
  })
  it("SHINE's worked example: 15 km at the 16-yuan start fare, no waiting, 48.40 yuan (46 yuan on the 2015 fare)", () => {
    expect(meterAmount(meterOn(sixteen, "2026-12-08"), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(48.4, 9)
    expect(meterAmount(meterOn(sixteen, "2021-06-01"), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(46, 9)
    // The same trip at the 14-yuan start fare: 2 yuan less.
    expect(meterAmount(meterOn(standard, "2026-12-08"), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(46.4, 9)
  })
  it("night: trips starting 23:00–05:00 pay 30 % more (10 km: 32.90 × 1.3 = 42.77); 05:00 and 22:59 are day", () => {
    expect(total(standard, "2026-12-08", 23 * 60 + 30, 32.9)).toBeCloseTo(42.77, 9)
    expect(total(standard, "2026-12-09", 4 * 60 + 59, 32.9)).toBeCloseTo(42.77, 9)
    expect(total(standard, "2026-12-09", 5 * 60, 32.9)).toBeCloseTo(32.9, 9)
    expect(total(standard, "2026-12-08", 22 * 60 + 59, 32.9)).toBeCloseTo(32.9, 9)
  })
  it("holiday surcharge per trip: 10 yuan in the Spring Festival holiday, 5 yuan on Labour Day and National Day holidays, none after", () => {
    const extra = (date: string) => Number((total(standard, date, 11 * 60, 32.9) - 32.9).toFixed(2))
    expect(["2026-02-14", "2026-02-15", "2026-02-23", "2026-02-24", "2026-05-01", "2026-05-05", "2026-05-06", "2026-10-01", "2026-10-07", "2026-10-08"].map(extra))
      .toEqual([0, 10, 10, 0, 5, 5, 0, 5, 5, 0])
    expect(["2024-02-10", "2024-10-07", "2025-01-28", "2025-10-08", "2025-10-09"].map(extra)).toEqual([10, 5, 10, 5, 0])
    // At night on a holiday: the 30 % on the meter, then the 10 yuan.
    expect(total(standard, "2026-02-16", 23 * 60 + 30, 32.9)).toBeCloseTo(52.77, 9)
  })
  it("the version in force: 2015-10-08 to 2022-01-14, 2022-01-15 from then (2024-01-01 included); today's carries its caveat", () => {
    expect(["2015-10-08", "2022-01-14", "2022-01-15", "2024-01-01", "2026-12-06"].map((d) => versionAt(standard, d).effectiveFrom))
      .toEqual(["2015-10-08", "2015-10-08", "2022-01-15", "2022-01-15", "2022-01-15"])
    expect(versionAt(standard, "2026-12-06").caveat?.note).toContain("+5 % on weekdays 07:00–10:00")
    // 2024-01-01 on its own rule: 10 km + 4 min slow = 14 + 18.90 + 4.05.
    expect(meterAmount(meterOn(standard, "2024-01-01"), { meterKm: 10, meterSeconds: 240 })).toBeCloseTo(36.95, 9)
  })
})

describe("Shanghai before 2022-01-15: the fare of 2015-10-08", () => {
  it("14 yuan / 3 km, 2.50 yuan/km to 15 km, 3.75 yuan/km beyond, 1 km's fare (2.50 yuan) per 4 minutes below 12 km/h", () => {
    const m = meterOn(standard, "2019-05-14")
    // 25 km + 8 min slow: 14 + 12 × 2.5 + 10 × 3.75 + 2 × 2.5 = 14 + 30 + 37.5 + 5 = 86.50
    expect(meterAmount(m, { meterKm: 25, meterSeconds: 480 })).toBeCloseTo(86.5, 9)
    expect(total(standard, "2019-05-14", 60, 86.5)).toBeCloseTo(112.45, 9)
    // No holiday surcharge before 2022: the 2019 National Day holiday pays the meter.
    expect(total(standard, "2019-10-02", 11 * 60, 86.5)).toBeCloseTo(86.5, 9)
  })
})

describe("Shanghai: Pudong (PVG) and Hongqiao (SHA) are served on the city meter", () => {
  it("both airports lie in the market; no airport fare or pick-up fee", () => {
    const pvg = { latitude: 31.1515, longitude: 121.8025 }, sha = { latitude: 31.1962, longitude: 121.3355 }
    expect(market.serves(pvg)).toBe(true)
    expect(market.serves(sha)).toBe(true)
    // Suzhou is not Shanghai's.
    expect(market.serves({ latitude: 31.2989, longitude: 120.5853 })).toBe(false)
    const fromPvg = market.tariffs.locate(pvg)
    expect(fromPvg.has("pvg")).toBe(true)
    const v = versionAt(standard, "2026-12-08")
    // PVG → People's Square, about 45 km, no slow time: 14 + 12 × 2.7 + 30 × 4.05 = 167.90, no airport charge.
    const fare = meterAmount(meterOn(standard, "2026-12-08"), { meterKm: 45, meterSeconds: 0 })
    expect(fare).toBeCloseTo(167.9, 9)
    expect(chargesFor(v, "meter", view("2026-12-08").moment, { pickup: fromPvg, dropoff: none }, new Set(), 2).total(fare, 0)).toBeCloseTo(167.9, 9)
  })
})

describe("Shanghai: the reported example fare against the quoted spread", () => {
  it("SHINE's 15 km at 16 yuan (48.40 yuan, no waiting) is the p5 (within 1 yuan) of a 15 km, 30 min trip; p95 above", () => {
    const priced = priceTrip(market.tariffs, sixteen, { distanceKm: 15, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 11 * 60), 2)
    const p5 = priced.distribution.quantile(0.05), p95 = priced.distribution.quantile(0.95)
    // Quoted 2026-12-08 11:00: p5 48.40, p50 54.07, p95 57.04 (the slow time the resolver assumes adds waiting periods).
    expect(Math.abs(p5 - 48.4)).toBeLessThanOrEqual(1)
    expect(p95).toBeGreaterThan(p5 + 4)
  })
})

describe("Shanghai: the holiday surcharge in the scheme's first two years, 2022 and 2023 (audit e S1)", () => {
  // Days from the State Council's notices: 2022 (2021-10-25) 春节 1月31日–2月6日, 劳动节 4月30日–5月4日,
  // 国庆节 10月1日–7日; 2023 (2022-12-08) 春节 1月21日–27日, 劳动节 4月29日–5月3日, 中秋节、国庆节 9月29日–10月6日.
  it("10 yuan in the Spring Festival holidays, 5 yuan on the Labour Day and National Day holidays, none the day before or after, both tariffs", () => {
    const days = ["2022-01-30", "2022-01-31", "2022-02-06", "2022-02-07", "2022-04-29", "2022-04-30", "2022-05-04", "2022-05-05", "2022-10-01", "2022-10-07", "2022-10-08",
      "2023-01-20", "2023-01-21", "2023-01-27", "2023-01-28", "2023-04-28", "2023-04-29", "2023-05-03", "2023-05-04", "2023-09-28", "2023-09-29", "2023-10-06", "2023-10-07"]
    const expected = [0, 10, 10, 0, 0, 5, 5, 0, 5, 5, 0, 0, 10, 10, 0, 0, 5, 5, 0, 0, 5, 5, 0]
    for (const t of [standard, sixteen]) {
      expect(days.map((date) => Number((total(t, date, 11 * 60, 32.9) - 32.9).toFixed(2)))).toEqual(expected)
    }
  })
  it("PVG → People's Square, 45 km on 2023-01-23 (初二) at 11:00: 14 + 12 × 2.7 + 30 × 4.05 = 167.90, + 10 = 177.90 (16-yuan taxis 169.90 + 10 = 179.90)", () => {
    const fromPvg = market.tariffs.locate({ latitude: 31.1515, longitude: 121.8025 })
    const at = view("2023-01-23", 11 * 60, fromPvg)
    const fare = meterAmount(meterOn(standard, "2023-01-23"), { meterKm: 45, meterSeconds: 0 })
    expect(fare).toBeCloseTo(167.9, 9)
    expect(meterCharges(standard, at).total(fare, 0)).toBeCloseTo(177.9, 9)
    const fare16 = meterAmount(meterOn(sixteen, "2023-01-23"), { meterKm: 45, meterSeconds: 0 })
    expect(fare16).toBeCloseTo(169.9, 9)
    expect(meterCharges(sixteen, at).total(fare16, 0)).toBeCloseTo(179.9, 9)
    // The quoted trip (45 km in 50 min): its p5, the no-slow fare, carries the 10 yuan.
    const priced = priceTrip(market.tariffs, standard, { distanceKm: 45, durationMinutes: 50, routeSource: "supplied" }, at, 2)
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(177.9, 2)
  })
})

describe("Shanghai: trips before the first rule (2015-10-08) are refused (audit G1)", () => {
  const FROM = { latitude: 31.2304, longitude: 121.4737 }
  const TO = { latitude: 31.2397, longitude: 121.4998 }
  it("before 2015-10-08: 13 yuan + 1 yuan fuel for 3 km, waiting per 5 min (Xinhua/CNTV 2015-10-10), 2.4 yuan/km (7tl.com.cn 2023-03-24): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("shanghai").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2015-10-04T11:00:00+08:00", "2015-10-08T11:00:00+08:00")
  })
})
