/**
 * Mumbai (MMRTA taxi fare, from the tariff alone): minimum fare for the first 1.5 km, then per
 * km (kaali-peeli taxi and AC cool cab), night 00:00–05:00 +25 %, the 2022 and 2025 revisions.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterOn, shippedMarket, tariffOf, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market } = shippedMarket("mumbai")
const [taxi, cool] = [tariffOf(doc, 0), tariffOf(doc, 1)]

describe("Mumbai: MMRTA fare of 2025-02-01 (₹31 / ₹48 for 1.5 km; per km derived; caveat)", () => {
  it("taxi 10 km: 31 + 8.5 × 20.66 = ₹206.61; cool cab 10 km: 48 + 8.5 × 32 = ₹320; 1.2 km is the minimum ₹31", () => {
    expect(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(206.61, 9)
    expect(meterAmount(meterOn(cool, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(320, 9)
    expect(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 1.2, meterSeconds: 0 })).toBeCloseTo(31, 9)
  })
  it("waiting ₹2 a minute: 10 km plus 10 slow minutes is 206.61 + 20 = ₹226.61", () => {
    expect(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(226.61, 9)
  })
  it("night 00:00–05:00: 25 % on the fare — ₹206.61 at 01:00 is ₹258.26; at 05:00 and 23:59 the day fare", () => {
    const at = (minute: number) => {
      const v = view("2026-12-08", minute)
      return meterCharges(taxi, v).total(206.61, 0)
    }
    expect(at(60)).toBeCloseTo(258.2625, 9)
    expect(at(5 * 60)).toBeCloseTo(206.61, 9)
    expect(at(23 * 60 + 59)).toBeCloseTo(206.61, 9)
  })
  it("BOM (T1 and T2) is in its zone; a trip from it is metered (prepaid slabs not modelled); caveat on today's version", () => {
    const t2 = market.tariffs.locate({ latitude: 19.0896, longitude: 72.8656 })
    const t1 = market.tariffs.locate({ latitude: 19.0957, longitude: 72.8526 })
    expect(t2.has("bom") && t1.has("bom")).toBe(true)
    const colaba = market.tariffs.locate({ latitude: 18.9067, longitude: 72.8147 })
    const priced = priceTrip(market.tariffs, taxi, { distanceKm: 24, durationMinutes: 60, routeSource: "supplied" }, view("2026-12-08", 660, t2, colaba), 2)
    // 24 km: at least 31 + 22.5 × 20.66 = ₹495.85 (slow time only adds).
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(495.85 - 1e-6)
    expect(versionAt(taxi, "2026-12-06").caveat?.note).toContain("derived")
  })
})

describe("Mumbai: MMRTA fare of 2022-10-01 (in force 2024-01-01)", () => {
  it("taxi 10 km: 28 + 8.5 × 18.66 = ₹186.61; cool cab 40 + 8.5 × 26.71 = ₹267.035", () => {
    expect(meterAmount(meterOn(taxi, "2024-01-01"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(186.61, 9)
    expect(meterAmount(meterOn(cool, "2024-01-01"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(267.035, 9)
  })
  it("version boundary 2025-02-01 (both products)", () => {
    expect(["2024-01-01", "2025-01-31", "2025-02-01"].map((d) => versionAt(taxi, d).effectiveFrom)).toEqual(["2022-10-01", "2022-10-01", "2025-02-01"])
    expect(meterOn(cool, "2025-01-31").initial).toBe(40)
    expect(meterOn(cool, "2025-02-01").initial).toBe(48)
  })
})

describe("Mumbai: the taxi fare of 2021-03-01 (audit F2)", () => {
  it("₹25 for the first 1.5 km, ₹16.93 a km: 24 km is 25 + 22.5 × 16.93 = ₹405.925 (the 2022 rule gave 28 + 22.5 × 18.66 = ₹447.85)", () => {
    expect(versionAt(taxi, "2021-03-01").effectiveFrom).toBe("2021-03-01")
    expect(versionAt(taxi, "2022-09-30").effectiveFrom).toBe("2021-03-01")
    expect(versionAt(taxi, "2022-10-01").effectiveFrom).toBe("2022-10-01")
    expect(meterAmount(meterOn(taxi, "2021-06-08"), { meterKm: 24, meterSeconds: 0 })).toBeCloseTo(405.925, 9)
    // BOM → Gateway of India, 24 km in 60 min (24 km/h, above the 7.088 km/h crossover), 2021-06-08 11:00: ₹405.93 at p5.
    const [offer] = tripsOf(market, 24, 60).offers({ latitude: 19.0896, longitude: 72.8656 }, { latitude: 18.922, longitude: 72.8347 }, "2021-06-08T11:00:00+05:30")
    expect(offer?.distribution.quantile(0.05)).toBeCloseTo(405.93, 2)
    expect(offer?.source?.tariff?.effectiveFrom).toBe("2021-03-01")
  })
})

describe("Mumbai: trips before the first rule (2021-03-01) are refused (audit G1)", () => {
  const FROM = { latitude: 18.9067, longitude: 72.8147 }
  const TO = { latitude: 19.0178, longitude: 72.8478 }
  it("before 2021-03-01: Rs 22 for 1.5 km (PTI 2021-02-22: 'will go up from Rs 22 to Rs 25'): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("mumbai").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2021-02-25T11:00:00+05:30", "2021-03-01T11:00:00+05:30")
  })
})
