/**
 * Shenzhen: the unified taxi fare of 2017-05-05, worked examples from the rule as reported
 * (sources: models/sources/shenzhen.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { meterForView, none, priceSupplied, quantilesOf, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("shenzhen")
/** The meter for a trip starting at a local date and minute (time variants by start time). */
const meterAt = (date: string, minute: number, pickup: ReadonlySet<string> = none) => meterForView(tariff, view(date, minute, pickup))
/** p5, p50, p95 of a supplied route at a local date and minute. */
const spread = (date: string, minute: number, km: number, minutes: number) =>
  quantilesOf(priceSupplied(market, tariff, km, minutes, view(date, minute)))

describe("Shenzhen: unified taxi fare of 2017-05-05 (in force 2024-01-01 and, as found, today)", () => {
  it("10 yuan for 2 km, 2.6 yuan/km; empty-return +30 % (3.38) from 25 to 50 km, +60 % (4.16) beyond 50 km, 06:00–23:00", () => {
    const m = meterAt("2026-12-08", 11 * 60)
    expect(meterAmount(m, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(10, 9)
    // 10 km: 10 + 8 × 2.6 = 30.80
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.8, 9)
    // 60 km: 10 + 23 × 2.6 + 25 × 3.38 + 10 × 4.16 = 10 + 59.8 + 84.5 + 41.6 = 195.90
    expect(meterAmount(m, { meterKm: 60, meterSeconds: 0 })).toBeCloseTo(195.9, 9)
  })
  it("waiting 0.8 yuan per minute: 10 km + 6 min slow = 30.80 + 4.80", () => {
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), { meterKm: 10, meterSeconds: 360 })).toBeCloseTo(35.6, 9)
  })
  it("23:00–06:00: flag fall and distance price +30 % (13 yuan, 3.38 yuan/km), no empty-return fee: 10 km = 40.04; 60 km = 13 + 58 × 3.38 = 209.04", () => {
    const night = meterAt("2026-12-08", 23 * 60)
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(40.04, 9)
    expect(meterAmount(night, { meterKm: 60, meterSeconds: 0 })).toBeCloseTo(209.04, 9)
    expect(meterAmount(meterAt("2026-12-09", 5 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(40.04, 9)
    expect(meterAmount(meterAt("2026-12-09", 6 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.8, 9)
  })
  it("one version from 2017-05-05 with its caveat", () => {
    expect(["2017-05-05", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2017-05-05", "2017-05-05", "2017-05-05"])
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("review every June")
  })
  it("no fuel surcharge: electric taxis charge none (Xinhua 2017-11-08) and 99.06 % of the fleet was electric by the end of 2018 (Southern Daily 2019-01-02)", () => {
    const today = versionAt(tariff, "2026-12-08")
    expect(today.surcharges).toEqual([])
    expect(today.fees).toEqual([])
    expect(today.caveat?.note).toContain("99.06 %")
    expect(today.caveat?.checked).toBe("2026-12-06")
  })
})

describe("Shenzhen: Bao'an (SZX) on the city meter; Hong Kong not served", () => {
  it("SZX and Futian are served, Hong Kong's Central and Lok Ma Chau are not", () => {
    const szx = { latitude: 22.6393, longitude: 113.8107 }
    expect(market.serves(szx)).toBe(true)
    expect(market.serves({ latitude: 22.5431, longitude: 114.0579 })).toBe(true)
    expect(market.serves({ latitude: 22.282, longitude: 114.158 })).toBe(false)
    expect(market.serves({ latitude: 22.5067, longitude: 114.0659 })).toBe(false)
    const atSzx = market.tariffs.locate(szx)
    expect(atSzx.has("szx")).toBe(true)
    // SZX → Futian, about 32 km by day: 10 + 23 × 2.6 + 7 × 3.38 = 93.46
    expect(meterAmount(meterAt("2026-12-08", 11 * 60, atSzx), { meterKm: 32, meterSeconds: 0 })).toBeCloseTo(93.46, 9)
  })
})

describe("Shenzhen: the quoted spread", () => {
  it("a 10 km, 30 min trip at 11:00: the no-waiting fare (30.80) lies just below the p5 (the derived 18.46 km/h crossover counts some waiting)", () => {
    // Quoted: p5 33.00, p50 37.66, p95 40.68.
    const [p5, p50, p95] = spread("2026-12-08", 11 * 60, 10, 30)
    expect(p5 ?? 0).toBeGreaterThanOrEqual(30.8)
    expect((p5 ?? 0) - 30.8).toBeLessThanOrEqual(4)
    expect(p95 ?? 0).toBeGreaterThan(p50 ?? 0)
  })
})
