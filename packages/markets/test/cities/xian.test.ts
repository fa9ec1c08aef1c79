/**
 * Xi'an: the urban taxi fare structure of 2015-04-01 (cars of 1.8 L and under: 9元 for 3 km,
 * 2元/km, +50 % beyond 12 km; below 10 km/h 5 minutes = 1 km, 4 minutes in the peaks; night
 * 23:00–06:00 +1元 start and +0.30元/km), on worked examples by hand (sources: models/sources/xian.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterFare, meterForView, priceSupplied, quantilesOf, shippedMarket, tariffOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

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

describe("Xi'an: slow time counted on top of the distance (低速时距并计, audit e X1)", () => {
  // The 2015-03-27 fare briefing as copied (utahskigirl.com, cited by the file): "採取低速時距並計收費
  // 時速小於10公里每5分鐘加1公里運價" — each 5 min below 10 km/h adds one km's fare; distance keeps counting.
  it("a 10 km city trip in 60 min with 36 min slow at 11:00: 9 + 7 × 2 (23.00) + 7 × 2.00 (7 completed 5-min units) = 37.00元", () => {
    const day = meterAt(standard, "2026-12-08", 11 * 60)
    expect(day.time.counter).toBe("concurrent")
    expect(meterFare(day, 10, 60, 36)).toBeCloseTo(37, 9)
    expect(meterFare(day, 10, 60, 0)).toBeCloseTo(23, 9)
  })
  it("the same trip at 08:00 (4-min units): 23 + 9 × 2 = 41.00元; at 23:30 (night): 10 + 7 × 2.30 + 7 × 2.30 = 42.20元", () => {
    expect(meterFare(meterAt(standard, "2026-12-08", 8 * 60), 10, 60, 36)).toBeCloseTo(41, 9)
    expect(meterFare(meterAt(standard, "2026-12-08", 23 * 60 + 30), 10, 60, 36)).toBeCloseTo(42.2, 9)
  })
  it("over 1.8 L (Comfort), 11:00: 9 + 6 × 2.4 + 2 × 3.6 (30.60) + 7 × 2.40 = 47.40元", () => {
    const day = meterAt(large, "2026-12-08", 11 * 60)
    expect(day.time.counter).toBe("concurrent")
    expect(meterFare(day, 10, 60, 36)).toBeCloseTo(47.4, 9)
  })
  it("every meter and variant of both tariffs counts slow time on top of the distance", () => {
    for (const t of [standard, large]) {
      for (const v of t.versions) {
        expect([v.meter, ...(v.meterVariants ?? []).map((mv) => mv.meter)].map((m) => m?.time.counter)).toEqual(["concurrent", "concurrent", "concurrent", "concurrent"])
      }
    }
  })
  it("the quoted median of that 10 km, 60 min trip moves to the rule's figure: p50 37.00 (the resolver's median slow time, 36 min: 23 + 7 × 2)", () => {
    const [p5, p50, p95] = quantilesOf(priceSupplied(market, standard, 10, 60, view("2026-12-08", 660)))
    // Counted instead of distance (the file before the fix) the same median was 30.20.
    expect(p50).toBeCloseTo(37, 2)
    expect(p5 ?? 0).toBeLessThanOrEqual(p50 ?? 0)
    expect(p95 ?? 0).toBeGreaterThan(p50 ?? 0)
  })
})

describe("Xi'an: trips before the first rule (2015-04-01) are refused (audit G1)", () => {
  const FROM = { latitude: 34.261, longitude: 108.9423 }
  const TO = { latitude: 34.2192, longitude: 108.9594 }
  it("before 2015-04-01: 7 yuan for 2 km with the gas surcharge, 1.50 yuan/km (China Economic Net 2015-03-28): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("xian").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2015-03-28T11:00:00+08:00", "2015-04-01T11:00:00+08:00")
  })
})
