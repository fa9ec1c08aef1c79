/**
 * Xi'an: the urban taxi fare structure of 2015-04-01 (cars of 1.8 L and under: 9元 for 3 km,
 * 2元/km, +50 % beyond 12 km; below 10 km/h 5 minutes = 1 km, 4 minutes in the peaks; night
 * 23:00–06:00 +1元 start and +0.30元/km), on worked examples by hand (sources: models/sources/xian.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterForView, shippedMarket, tariffOf, view } from "./support.js"

const { doc, market } = shippedMarket("xian")
const standard = tariffOf(doc, 0), large = tariffOf(doc, 1)
const meterAt = (t: typeof standard, date: string, minute: number) => meterForView(t, view(date, minute), market.tariffs.holidays)

describe("Xi'an: urban taxi fare of 2015-04-01 (in force 2024-01-01 and the newest found)", () => {
  const day = meterAt(standard, "2026-12-08", 11 * 60)
  it("1.8 L and under, day, 5 km: 9元 for 3 km + 2 × 2元 = 13元; 3 km and under is 9元", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(13, 9)
    expect(meterAmount(day, { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(9, 9)
    expect(meterAmount(day, { meterKm: 2.5, meterSeconds: 0 })).toBeCloseTo(9, 9)
  })
  it("empty-running +50 % beyond 12 km: 12 km = 9 + 9 × 2 = 27元; 15 km = 27 + 3 × 3 = 36元", () => {
    expect(meterAmount(day, { meterKm: 12, meterSeconds: 0 })).toBeCloseTo(27, 9)
    expect(meterAmount(day, { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(36, 9)
  })
  it("below 10 km/h: 1 km's fare (2元) per 5 min off-peak, per 4 min 07:00–09:00 and 17:00–19:00 — 5 km + 20 min: 13 + 8 = 21元 at 11:00, 13 + 10 = 23元 at 08:00 and 18:00", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 1200 })).toBeCloseTo(21, 9)
    expect(meterAmount(meterAt(standard, "2026-12-08", 8 * 60), { meterKm: 5, meterSeconds: 1200 })).toBeCloseTo(23, 9)
    expect(meterAmount(meterAt(standard, "2026-12-08", 18 * 60), { meterKm: 5, meterSeconds: 1200 })).toBeCloseTo(23, 9)
    // The peak ends at 09:00 and 19:00; 06:59 is off-peak.
    for (const minute of [6 * 60 + 59, 9 * 60, 19 * 60]) {
      expect(meterAmount(meterAt(standard, "2026-12-08", minute), { meterKm: 5, meterSeconds: 1200 })).toBeCloseTo(21, 9)
    }
    expect(day.time.crossoverKmh).toBe(10)
  })
  it("night 23:00–06:00: 10元 for 3 km, 2.30元/km, 3.45元/km beyond 12 km — 15 km = 10 + 9 × 2.3 + 3 × 3.45 = 41.05元; day meter at 06:00 and 22:59", () => {
    for (const minute of [23 * 60, 2 * 60, 5 * 60 + 59]) {
      expect(meterAmount(meterAt(standard, "2026-12-08", minute), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(41.05, 9)
    }
    for (const minute of [6 * 60, 22 * 60 + 59]) {
      expect(meterAmount(meterAt(standard, "2026-12-08", minute), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(36, 9)
    }
    // Night slow time: 5 min = one 2.30元 km.
    expect(meterAmount(meterAt(standard, "2026-12-08", 23 * 60), { meterKm: 5, meterSeconds: 300 })).toBeCloseTo(10 + 4.6 + 2.3, 9)
  })
  it("cars over 1.8 L: 9元 for 2 km, 2.4元/km, +50 % beyond 8 km — 15 km = 9 + 6 × 2.4 + 7 × 3.6 = 48.60元; night 10 + 6 × 2.7 + 7 × 4.05 = 54.55元", () => {
    expect(meterAmount(meterAt(large, "2026-12-08", 11 * 60), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(48.6, 9)
    expect(meterAmount(meterAt(large, "2026-12-08", 23 * 60 + 30), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(54.55, 9)
  })
  it("2024-01-01 is on the same rule; a trip before 2015-04-01 is priced on it too (earliest known); the rule carries its caveat", () => {
    expect(["2015-04-01", "2024-01-01", "2026-12-06"].map((d) => versionAt(standard, d).effectiveFrom)).toEqual(["2015-04-01", "2015-04-01", "2015-04-01"])
    expect(meterAmount(meterAt(standard, "2024-01-01", 11 * 60), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(36, 9)
    expect(versionAt(standard, "2026-12-06").caveat?.note).toContain("No later city-wide revision was found")
  })
  it("serves the Bell Tower and Xianyang airport (XIY, outside the box, through alsoServes), not Xianyang city nor Chengdu", () => {
    expect(market.serves({ latitude: 34.261, longitude: 108.9423 })).toBe(true)
    expect(market.serves({ latitude: 34.4471, longitude: 108.7516 })).toBe(true)
    expect(market.serves({ latitude: 34.3296, longitude: 108.7093 })).toBe(false)
    expect(market.serves({ latitude: 30.6575, longitude: 104.0657 })).toBe(false)
    expect(market.tariffs.locate({ latitude: 34.4471, longitude: 108.7516 }).has("xiy")).toBe(true)
  })
  it("XIY → Bell Tower, 45 km in 50 min supplied, day: at least 9 + 9 × 2 + 33 × 3 = 126元 (guides quote 100–150元 with tolls)", () => {
    const xiy = market.tariffs.locate({ latitude: 34.4471, longitude: 108.7516 })
    const bell = market.tariffs.locate({ latitude: 34.261, longitude: 108.9423 })
    const priced = priceTrip(market.tariffs, standard, { distanceKm: 45, durationMinutes: 50, routeSource: "supplied" }, view("2026-12-08", 660, xiy, bell), 0)
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(126 - 1e-9)
    expect(priced.distribution.quantile(0.95)).toBeLessThan(150)
  })
})
