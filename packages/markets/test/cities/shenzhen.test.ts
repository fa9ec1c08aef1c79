/**
 * Shenzhen: the unified taxi fare of 2017-05-05 and the 2.7 yuan/km fare in force from a 20 August
 * (year not read: trips from 2019-01-07 to 2024-09-05 are priced on both), worked examples from
 * the rules as reported (sources: models/sources/shenzhen.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterForView, none, priceSupplied, quantilesOf, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("shenzhen")
/** The meter for a trip starting at a local date and minute (time variants by start time). */
const meterAt = (date: string, minute: number, pickup: ReadonlySet<string> = none) => meterForView(tariff, view(date, minute, pickup))
/** p5, p50, p95 of a supplied route at a local date and minute. */
const spread = (date: string, minute: number, km: number, minutes: number) =>
  quantilesOf(priceSupplied(market, tariff, km, minutes, view(date, minute)))

describe("Shenzhen: unified taxi fare of 2017-05-05 (in force 2018-06-12; replaced by the 2.7 yuan/km fare after 2019-01-07)", () => {
  it("10 yuan for 2 km, 2.6 yuan/km; empty-return +30 % (3.38) from 25 to 50 km, +60 % (4.16) beyond 50 km, 06:00–23:00", () => {
    const m = meterAt("2018-06-12", 11 * 60)
    expect(meterAmount(m, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(10, 9)
    // 10 km: 10 + 8 × 2.6 = 30.80
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.8, 9)
    // 60 km: 10 + 23 × 2.6 + 25 × 3.38 + 10 × 4.16 = 10 + 59.8 + 84.5 + 41.6 = 195.90
    expect(meterAmount(m, { meterKm: 60, meterSeconds: 0 })).toBeCloseTo(195.9, 9)
  })
  it("waiting 0.8 yuan per minute: 10 km + 6 min slow = 30.80 + 4.80", () => {
    expect(meterAmount(meterAt("2018-06-12", 11 * 60), { meterKm: 10, meterSeconds: 360 })).toBeCloseTo(35.6, 9)
  })
  it("23:00–06:00: flag fall and distance price +30 % (13 yuan, 3.38 yuan/km), no empty-return fee: 10 km = 40.04; 60 km = 13 + 58 × 3.38 = 209.04", () => {
    const night = meterAt("2018-06-12", 23 * 60)
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(40.04, 9)
    expect(meterAmount(night, { meterKm: 60, meterSeconds: 0 })).toBeCloseTo(209.04, 9)
    expect(meterAmount(meterAt("2018-06-13", 5 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(40.04, 9)
    expect(meterAmount(meterAt("2018-06-13", 6 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.8, 9)
  })
  it("two versions: 2017-05-05, and the 2.7 yuan/km fare first seen in force on 2024-09-06 (changed after 2019-01-07)", () => {
    expect(["2017-05-05", "2019-01-06", "2024-09-05", "2024-09-06", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2017-05-05", "2017-05-05", "2017-05-05", "2024-09-06", "2024-09-06"])
    expect(versionAt(tariff, "2018-06-12").caveat?.note).toContain("review every June")
    expect(versionAt(tariff, "2026-12-06").changedAfter).toBe("2019-01-07")
  })
  it("no fuel surcharge: electric taxis charge none (Xinhua 2017-11-08) and 99.06 % of the fleet was electric by the end of 2018 (Southern Daily 2019-01-02)", () => {
    const v2017 = versionAt(tariff, "2018-06-12")
    expect(v2017.surcharges).toEqual([])
    expect(v2017.fees).toEqual([])
    expect(v2017.caveat?.note).toContain("99.06 %")
    expect(v2017.caveat?.checked).toBe("2026-12-06")
    expect(versionAt(tariff, "2026-12-08").fees).toEqual([])
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
    // SZX → Futian, about 32 km by day on the 2017 rule: 10 + 23 × 2.6 + 7 × 3.38 = 93.46
    expect(meterAmount(meterAt("2018-06-12", 11 * 60, atSzx), { meterKm: 32, meterSeconds: 0 })).toBeCloseTo(93.46, 9)
  })
})

describe("Shenzhen: the quoted spread", () => {
  it("a 10 km, 30 min trip at 11:00 on the 2017 rule: the no-waiting fare (30.80) lies just below the p5 (the derived 18.46 km/h crossover counts some waiting)", () => {
    // Quoted: p5 33.00, p50 37.66, p95 40.68.
    const [p5, p50, p95] = spread("2018-06-12", 11 * 60, 10, 30)
    expect(p5 ?? 0).toBeGreaterThanOrEqual(30.8)
    expect((p5 ?? 0) - 30.8).toBeLessThanOrEqual(4)
    expect(p95 ?? 0).toBeGreaterThan(p50 ?? 0)
  })
})

// Shenzhen Airport (SZX) and the Civic Center square (Futian), about 32 km.
const SZX = { latitude: 22.6393, longitude: 113.8107 }
const CIVIC_CENTER = { latitude: 22.5431, longitude: 114.0579 }

describe("Shenzhen: the 2.7 yuan/km fare (notice in force from a 20 August 00:00; year not read, in force by 2024-09-06)", () => {
  it("10 yuan for 2 km, 2.7 yuan/km; 返空费 +30 % (3.51) for 20–35 km, +60 % (4.32) from 35 km", () => {
    const m = meterAt("2026-12-08", 11 * 60)
    expect(meterAmount(m, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(10, 9)
    // 10 km: 10 + 8 × 2.7 = 31.60
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(31.6, 9)
    // 40 km: 10 + 18 × 2.7 + 15 × 3.51 + 5 × 4.32 = 10 + 48.60 + 52.65 + 21.60 = 132.85
    expect(meterAmount(m, { meterKm: 40, meterSeconds: 0 })).toBeCloseTo(132.85, 9)
  })
  it("候时费 0.8 yuan per minute below 10 km/h: 10 km + 6 min = 31.60 + 4.80 = 36.40", () => {
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), { meterKm: 10, meterSeconds: 360 })).toBeCloseTo(36.4, 9)
    expect(versionAt(tariff, "2026-12-08").meter?.time?.crossoverKmh).toBe(10)
  })
  it("today's SZX → Civic Center, 32 km at 11:00: 10 + 18 × 2.7 (48.60) + 12 × 3.51 (42.12) = 100.72 (the 2017 rule gave 93.46)", () => {
    const { price } = tripsOf(market, 32, 40)
    const [[p5, p95] = [0, 0]] = price(SZX, CIVIC_CENTER, "2026-12-08T11:00:00+08:00")
    expect(p5).toBeCloseTo(100.72, 2)
    expect(p95).toBeGreaterThanOrEqual(p5)
  })
  it("night 23:00–06:00: 13 yuan for 2 km, 3.51 yuan/km, 返空费 on top (4.32 for 20–35 km, 5.13 from 35 km)", () => {
    const night = meterAt("2026-12-08", 23 * 60 + 45)
    // 10 km: 13 + 8 × 3.51 = 41.08
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(41.08, 9)
    // 32 km: 13 + 18 × 3.51 + 12 × 4.32 = 13 + 63.18 + 51.84 = 128.02
    expect(meterAmount(night, { meterKm: 32, meterSeconds: 0 })).toBeCloseTo(128.02, 9)
    expect(meterAmount(meterAt("2026-12-09", 6 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(31.6, 9)
  })
  it("a night pick-up from the SZX taxi queue 23:30–06:00 pays 15 yuan: SZX → Civic Center at 23:45 = 128.02 + 15 = 143.02; not at 23:15, not towards SZX", () => {
    const { price } = tripsOf(market, 32, 35)
    const p5 = (from: typeof SZX, to: typeof SZX, iso: string) => price(from, to, iso)[0]?.[0]
    expect(p5(SZX, CIVIC_CENTER, "2026-12-08T23:45:00+08:00")).toBeCloseTo(143.02, 2)
    expect(p5(SZX, CIVIC_CENTER, "2026-12-09T05:30:00+08:00")).toBeCloseTo(143.02, 2)
    expect(p5(SZX, CIVIC_CENTER, "2026-12-08T23:15:00+08:00")).toBeCloseTo(128.02, 2)
    expect(p5(CIVIC_CENTER, SZX, "2026-12-08T23:45:00+08:00")).toBeCloseTo(128.02, 2)
  })
  it("春节附加费 10 yuan per trip from 除夕 00:00 to 初六 23:59 (days from the State Council's notices), outside the meter", () => {
    const extra = (date: string) => Number((meterCharges(tariff, view(date, 11 * 60)).total(31.6, 0) - 31.6).toFixed(2))
    expect(["2025-01-27", "2025-01-28", "2025-02-03", "2025-02-04", "2026-02-15", "2026-02-16", "2026-02-22", "2026-02-23", "2026-12-08"].map(extra))
      .toEqual([0, 10, 10, 0, 0, 10, 10, 0, 0])
  })
  it("a trip from 2019-01-07 to 2024-09-05 is priced on both rules (SZX → Civic Center 32 km: p5 93.46 on 2017's, p95 from the 2.7 fare); exact before and after", () => {
    const { offers, price } = tripsOf(market, 32, 40)
    const at = (iso: string) => price(SZX, CIVIC_CENTER, iso)[0] ?? [0, 0]
    expect(at("2019-01-06T11:00:00+08:00")[0]).toBeCloseTo(93.46, 2)
    const [low, high] = at("2024-01-10T11:00:00+08:00")
    expect(low).toBeCloseTo(93.46, 2)
    expect(high).toBeGreaterThanOrEqual(100.72)
    expect(at("2024-09-06T11:00:00+08:00")[0]).toBeCloseTo(100.72, 2)
    expect(offers(SZX, CIVIC_CENTER, "2024-01-10T11:00:00+08:00")[0]?.source?.level?.evidence).toContain("2019-01-07")
  })
})

describe("Shenzhen: trips before the first rule (2017-05-05) are refused (audit G1)", () => {
  const FROM = { latitude: 22.5431, longitude: 114.0579 }
  const TO = { latitude: 22.5485, longitude: 114.1315 }
  it("before 2017-05-05: 2.4 yuan/km (Shenzhen Government Online 2017-05-05: 2.6 yuan/km 'from 2.4'): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("shenzhen").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2017-05-01T11:00:00+08:00", "2017-05-05T11:00:00+08:00")
  })
})
