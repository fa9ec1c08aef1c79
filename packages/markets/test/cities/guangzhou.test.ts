/**
 * Guangzhou: the cruising-taxi fare (同城同价), worked examples from the rule as reported
 * (sources: models/sources/guangzhou.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { meterCharges, meterForView, none, priceSupplied, quantilesOf, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("guangzhou")
/** The meter for a trip starting at a local date and minute (time variants by start time). */
const meterAt = (date: string, minute: number, pickup: ReadonlySet<string> = none) => meterForView(tariff, view(date, minute, pickup))
/** A metered fare with the version's surcharges at a local date and minute (no zones). */
const withCharges = (date: string, minute: number, fare: number) =>
  meterCharges(tariff, view(date, minute)).total(fare, 0)
/** p5, p50, p95 of a supplied route at a local date and minute. */
const spread = (date: string, minute: number, km: number, minutes: number) =>
  quantilesOf(priceSupplied(market, tariff, km, minutes, view(date, minute)))

describe("Guangzhou: benchmark fare (12 yuan / 3 km, 2.6 yuan/km), in force 2024-02-26 and from 2024-11-30 with the float", () => {
  it("2.6 yuan/km to 15 km, +20 % (3.12) from 15 to 25 km, +50 % (3.90) beyond 25 km", () => {
    const m = meterAt("2026-12-08", 11 * 60)
    expect(meterAmount(m, { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(12, 9)
    // 10 km: 12 + 7 × 2.6 = 30.20
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.2, 9)
    // 30 km: 12 + 12 × 2.6 + 10 × 3.12 + 5 × 3.9 = 12 + 31.2 + 31.2 + 19.5 = 93.90
    expect(meterAmount(m, { meterKm: 30, meterSeconds: 0 })).toBeCloseTo(93.9, 9)
  })
  it("候时费 44 yuan an hour below 10 km/h (0.55 yuan per completed 45 s): 10 km + 10 min = 30.20 + 13 completed units × 0.55 = 37.35", () => {
    const m = meterAt("2026-12-08", 11 * 60)
    // 600 s / 45 s = 13.3 → 13 completed units × 0.55 = 7.15
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(37.35, 9)
    // An hour below 10 km/h is 44 yuan.
    expect(meterAmount(m, { meterKm: 0, meterSeconds: 3600 }) - 12).toBeCloseTo(44, 9)
  })
  it("night 23:00–05:00: 续租价 +30 % (3.38 yuan/km), start fare unchanged: 10 km = 12 + 7 × 3.38 = 35.66; 30 km = 12 + 40.56 + 39.00 + 23.40 = 114.96", () => {
    const night = meterAt("2026-12-08", 23 * 60 + 30)
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(35.66, 9)
    expect(meterAmount(night, { meterKm: 30, meterSeconds: 0 })).toBeCloseTo(114.96, 9)
    expect(meterAmount(meterAt("2026-12-09", 5 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.2, 9)
    expect(meterAmount(meterAt("2026-12-09", 4 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(35.66, 9)
  })
  it("the Spring Festival surcharge of 10 yuan from 2024-11-30 (2025 and 2026 holidays), none before", () => {
    const extra = (date: string) => Number((withCharges(date, 11 * 60, 30.2) - 30.2).toFixed(2))
    expect(["2024-02-12", "2025-01-27", "2025-01-28", "2025-02-04", "2025-02-05", "2026-02-15", "2026-02-23", "2026-02-24"].map(extra))
      .toEqual([0, 0, 10, 10, 0, 10, 10, 0])
  })
  it("versions: the fare as found in force on 2024-02-26 (also prices 2024-01-01, before the earliest date known), 2024-11-30 from then", () => {
    expect(["2024-01-01", "2024-11-29", "2024-11-30", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2024-02-26", "2024-02-26", "2024-11-30", "2024-11-30"])
    expect(meterAmount(meterAt("2024-01-01", 11 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.2, 9)
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("up to 30 % less off-peak")
  })
})

describe("Guangzhou: Baiyun (CAN) on the city meter", () => {
  it("CAN is served; Baiyun → Tianhe (about 32 km) by day without slow time is 12 + 31.2 + 31.2 + 7 × 3.9 = 101.70", () => {
    const can = { latitude: 23.3924, longitude: 113.2988 }
    expect(market.serves(can)).toBe(true)
    expect(market.serves({ latitude: 22.5431, longitude: 114.0579 })).toBe(false)
    const atCan = market.tariffs.locate(can)
    expect(atCan.has("can")).toBe(true)
    expect(meterAmount(meterAt("2026-12-08", 11 * 60, atCan), { meterKm: 32, meterSeconds: 0 })).toBeCloseTo(101.7, 9)
  })
})

describe("Guangzhou: the quoted spread", () => {
  it("a 10 km, 30 min trip at 11:00: the no-slow-time fare (30.20) is the p5; slow time raises p50 and p95", () => {
    // Quoted: p5 30.20, p50 35.30, p95 38.95.
    const [p5, p50, p95] = spread("2026-12-08", 11 * 60, 10, 30)
    expect(Math.abs((p5 ?? 0) - 30.2)).toBeLessThanOrEqual(1)
    expect(p50 ?? 0).toBeGreaterThan(p5 ?? 0)
    expect(p95 ?? 0).toBeGreaterThan(p50 ?? 0)
  })
})
