/**
 * Chengdu: the central-city taxi fare of 2010-09-10 (8元 for 2 km, 1.90元/km, +50 % beyond
 * 10 km; night 23:00–06:00 9元, 2.20元/km), the newest found, on worked examples by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterFare, meterForView, priceSupplied, quantilesOf, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("chengdu")
const meterAt = (date: string, minute: number) => meterForView(tariff, view(date, minute), market.tariffs.holidays)

describe("Chengdu: central-city taxi fare of 2010-09-10 (in force 2024-01-01 and the newest found)", () => {
  const day = meterAt("2026-12-08", 11 * 60)
  it("day, 5 km: 8元 for 2 km + 6 steps of 500 m × 0.95元 (1.90元/km) = 13.70元", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(13.7, 9)
    expect(meterAmount(day, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(8, 9)
    // A step is charged when its 500 m are completed: 2.49 km is still 8元.
    expect(meterAmount(day, { meterKm: 2.49, meterSeconds: 0 })).toBeCloseTo(8, 9)
  })
  it("day, 15 km: 8 + 16 × 0.95 (2–10 km) + 10 × 1.425 (2.85元/km beyond 10 km) = 37.45元", () => {
    expect(meterAmount(day, { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(37.45, 9)
  })
  it("5 minutes at or below 12 km/h are charged as 1 km (1.90元): 5 km + 10 min = 13.70 + 3.80 = 17.50元", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 600 })).toBeCloseTo(17.5, 9)
    expect(day.time.crossoverKmh).toBe(12)
  })
  it("night 23:00–06:00: 9元, 2.20元/km, 3.30元/km beyond 10 km — 15 km = 9 + 16 × 1.10 + 10 × 1.65 = 43.10元; the day meter at 06:00 and 22:59", () => {
    for (const minute of [23 * 60, 2 * 60, 5 * 60 + 59]) {
      expect(meterAmount(meterAt("2026-12-08", minute), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(43.1, 9)
    }
    for (const minute of [6 * 60, 22 * 60 + 59]) {
      expect(meterAmount(meterAt("2026-12-08", minute), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(37.45, 9)
    }
  })
  it("the same rule on 2024-01-01 as today, carrying the caveat of the 2022-11-29 hearing (1.90 → 2.30元/km proposed, outcome not found)", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2010-09-10")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("2022-11-29")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("2.30元/km")
    // Update check 2026-12-06: no decision found; undated later pages still give 1.90元/km
    // (8元 dual-fuel, 9元 pure-electric), and the file keeps one version.
    expect(tariff.versions.length).toBe(1)
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("pure-electric taxis 9元")
    // The caveat's figure: 10 km by day is 8 + 16 × 0.95 = 23.20元 here.
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(23.2, 9)
  })
  it("serves Shuangliu (CTU) in the city's box and Tianfu (TFU) through alsoServes, not Chongqing", () => {
    expect(market.serves({ latitude: 30.5785, longitude: 103.9471 })).toBe(true)
    expect(market.serves({ latitude: 30.3124, longitude: 104.444 })).toBe(true)
    expect(market.serves({ latitude: 30.6575, longitude: 104.0657 })).toBe(true)
    expect(market.serves({ latitude: 29.5630, longitude: 106.5516 })).toBe(false)
    expect(market.tariffs.locate({ latitude: 30.3124, longitude: 104.444 }).has("tfu")).toBe(true)
  })
  it("TFU → Tianfu Square, 60 km in 60 min supplied, day: at least 8 + 16 × 0.95 + 100 × 1.425 = 165.70元", () => {
    const tfu = market.tariffs.locate({ latitude: 30.3124, longitude: 104.444 })
    const square = market.tariffs.locate({ latitude: 30.6575, longitude: 104.0657 })
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 60, durationMinutes: 60, routeSource: "supplied" }, view("2026-12-08", 660, tfu, square), 0)
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(165.7 - 1e-9)
    expect(priced.distribution.quantile(0.95)).toBeLessThan(200)
  })
})

describe("Chengdu: slow time counted on top of the distance (时程并计, audit e C1)", () => {
  // lhyxw.cn 2023-05-16: "500米計費5分鐘按1公里計費.車速低于12公里/小時時程并計" — below 12 km/h time and
  // distance are both counted: every metre is charged as distance and each completed 150 s on top.
  const day = meterAt("2026-12-08", 11 * 60)
  it("CTU → Tianfu Square, 18 km in 60 min with 28 min slow: 8 + 16 × 0.95 + 16 × 1.425 (46.00) + 11 × 0.95 (10.45) = 56.45元", () => {
    expect(day.time.counter).toBe("concurrent")
    // 28 min = 1680 s = 11 completed units of 150 s; the distance is not reduced by the slow time.
    expect(meterFare(day, 18, 60, 28)).toBeCloseTo(56.45, 9)
    expect(meterFare(day, 18, 60, 0)).toBeCloseTo(46, 9)
  })
  it("night 23:30, 15 km in 40 min with 10 min slow: 9 + 16 × 1.10 + 10 × 1.65 (43.10) + 4 × 1.10 (4.40) = 47.50元", () => {
    const night = meterAt("2026-12-08", 23 * 60 + 30)
    expect(night.time.counter).toBe("concurrent")
    expect(meterFare(night, 15, 40, 10)).toBeCloseTo(47.5, 9)
  })
  it("the quoted median of that CTU trip moves to the rule's figure: p5 46.00 (no slow time), p50 56.45 (the resolver's median slow time, 28 min: 46.00 + 11 × 0.95)", () => {
    const ctu = market.tariffs.locate({ latitude: 30.5785, longitude: 103.9471 })
    const square = market.tariffs.locate({ latitude: 30.6575, longitude: 104.0657 })
    const [p5, p50, p95] = quantilesOf(priceSupplied(market, tariff, 18, 60, view("2026-12-08", 660, ctu, square)))
    expect(p5).toBeCloseTo(46, 2)
    // Counted instead of distance (the file before the fix) the same median was 47.90.
    expect(p50).toBeCloseTo(56.45, 2)
    expect(p95 ?? 0).toBeGreaterThan(p50 ?? 0)
  })
})

describe("Chengdu: trips before the first rule (2010-09-10) are refused (audit G1)", () => {
  const FROM = { latitude: 30.6574, longitude: 104.0659 }
  const TO = { latitude: 30.6555, longitude: 104.0781 }
  it("before 2010-09-10: a 1 yuan fuel surcharge and a shorter base distance (天府早报 2010-08-19: 取消现行的1元燃料附加费, 基价公里扩大为2公里): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("chengdu").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2010-09-07T11:00:00+08:00", "2010-09-10T11:00:00+08:00")
  })
})
