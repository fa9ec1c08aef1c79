/**
 * Kunming: the main-district cruising-taxi fare of 2022-09-30 (10元 for 2 km, 2元/km, +50 % from
 * 10 km and +75 % from 25 km, 4 minutes below 12 km/h = 1 km counted per full 2 minutes, night
 * 22:00–06:00 +20 %), on worked examples by hand (sources: models/sources/kunming.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterOn, shippedMarket, tariffOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market } = shippedMarket("kunming")
const standard = tariffOf(doc, 0), luxury = tariffOf(doc, 1)
/** The fare with the version's surcharges at a local date and minute (no zones). */
const total = (t: typeof standard, date: string, minute: number, fare: number) =>
  meterCharges(t, view(date, minute)).total(fare, 0)

describe("Kunming: main-district taxi fare of 2022-09-30 (in force 2024-01-01 and the newest found)", () => {
  const day = meterOn(standard, "2026-12-08")
  it("standard car, 5 km: 10元 for 2 km + 3 × 2元 = 16元; 2 km and under is 10元", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(16, 9)
    expect(meterAmount(day, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(10, 9)
    expect(meterAmount(day, { meterKm: 1.2, meterSeconds: 0 })).toBeCloseTo(10, 9)
  })
  it("return-empty ladder: 15 km = 10 + 8 × 2 + 5 × 3.00 (+50 %) = 41元; 30 km = 10 + 16 + 15 × 3 + 5 × 3.50 (+75 %) = 88.50元", () => {
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(26, 9)
    expect(meterAmount(day, { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(41, 9)
    expect(meterAmount(day, { meterKm: 25, meterSeconds: 0 })).toBeCloseTo(71, 9)
    expect(meterAmount(day, { meterKm: 30, meterSeconds: 0 })).toBeCloseTo(88.5, 9)
  })
  it("below 12 km/h: 1 km's fare per 4 minutes counted per full 2 minutes (1元 per 2 min): 5 km + 10 min = 16 + 5 = 21元; 3 min 59 s adds 1元", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 600 })).toBeCloseTo(21, 9)
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 239 })).toBeCloseTo(17, 9)
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 119 })).toBeCloseTo(16, 9)
    expect(day.time.crossoverKmh).toBe(12)
  })
  it("night 22:00–06:00: +20 % on the meter — 15 km = 41 × 1.2 = 49.20元 at 22:00, 02:00 and 05:59; 41元 at 06:00 and 21:59", () => {
    for (const [date, minute] of [["2026-12-08", 22 * 60], ["2026-12-09", 2 * 60], ["2026-12-09", 5 * 60 + 59]] as const) {
      expect(total(standard, date, minute, 41)).toBeCloseTo(49.2, 9)
    }
    expect(total(standard, "2026-12-09", 6 * 60, 41)).toBeCloseTo(41, 9)
    expect(total(standard, "2026-12-08", 21 * 60 + 59, 41)).toBeCloseTo(41, 9)
  })
  it("luxury car: 13元 for 2 km, 2.4元/km — 15 km = 13 + 8 × 2.4 + 5 × 3.6 = 50.20元; 30 km = 13 + 19.2 + 15 × 3.6 + 5 × 4.2 = 107.20元", () => {
    const lux = meterOn(luxury, "2026-12-08")
    expect(meterAmount(lux, { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(50.2, 9)
    expect(meterAmount(lux, { meterKm: 30, meterSeconds: 0 })).toBeCloseTo(107.2, 9)
    // 4 min below 12 km/h: 2 × 1.20元 (one 2.4元 km).
    expect(meterAmount(lux, { meterKm: 15, meterSeconds: 240 })).toBeCloseTo(52.6, 9)
  })
  it("2024-01-01 is on the same rule (the change was 2022-09-30); the rule carries its caveat (holiday charges not modelled)", () => {
    expect(["2022-09-30", "2024-01-01", "2026-12-06"].map((d) => versionAt(standard, d).effectiveFrom)).toEqual(["2022-09-30", "2022-09-30", "2022-09-30"])
    expect(meterAmount(meterOn(standard, "2024-01-01"), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(41, 9)
    expect(versionAt(standard, "2026-12-06").caveat?.note).toContain("holiday charges")
  })
  it("serves Changshui (KMG) and the centre, not Chengdu; KMG is a zone of its own", () => {
    expect(market.serves({ latitude: 25.1019, longitude: 102.9292 })).toBe(true)
    expect(market.serves({ latitude: 25.0389, longitude: 102.7183 })).toBe(true)
    expect(market.serves({ latitude: 30.6575, longitude: 104.0657 })).toBe(false)
    expect(market.tariffs.locate({ latitude: 25.1019, longitude: 102.9292 }).has("kmg")).toBe(true)
    expect(market.tariffs.locate({ latitude: 25.0389, longitude: 102.7183 }).has("kmg")).toBe(false)
  })
  it("KMG → Dongfeng Square, 27 km in 35 min supplied, day: at least 10 + 16 + 45 + 2 × 3.5 = 78元; at night 93.60元", () => {
    const kmg = market.tariffs.locate({ latitude: 25.1019, longitude: 102.9292 })
    const centre = market.tariffs.locate({ latitude: 25.0389, longitude: 102.7183 })
    const dayTrip = priceTrip(market.tariffs, standard, { distanceKm: 27, durationMinutes: 35, routeSource: "supplied" }, view("2026-12-08", 660, kmg, centre), 0)
    expect(dayTrip.distribution.quantile(0.05)).toBeGreaterThanOrEqual(78 - 1e-9)
    expect(dayTrip.distribution.quantile(0.95)).toBeLessThan(95)
    const nightTrip = priceTrip(market.tariffs, standard, { distanceKm: 27, durationMinutes: 35, routeSource: "supplied" }, view("2026-12-08", 23 * 60, kmg, centre), 0)
    expect(nightTrip.distribution.quantile(0.05)).toBeGreaterThanOrEqual(93.6 - 1e-9)
  })
})

describe("Kunming: trips before the first rule (2022-09-30) are refused (audit G1)", () => {
  const FROM = { latitude: 25.0389, longitude: 102.7183 }
  const TO = { latitude: 25.0466, longitude: 102.7035 }
  it("before 2022-09-30: 7/8 yuan for 3 km, 1.2–2.0 yuan/km by class (Yunnan Net 2022-08-26): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("kunming").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2022-09-26T11:00:00+08:00", "2022-09-30T11:00:00+08:00")
  })
})
