/**
 * Melbourne: the Essential Services Commission's maximum fares for unbooked taxis in the
 * Melbourne Metropolitan Zone from 2025-09-23 ('time or distance' tariffs), worked examples from
 * the published schedule (sources: models/sources/melbourne.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterForView, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("melbourne")
const meterAt = (date: string, minute: number) => meterForView(tariff, view(date, minute), market.tariffs.holidays)
/** 10 km above 21 km/h and 5 minutes below it. */
const tenKmFiveMin = { meterKm: 10, meterSeconds: 300 }

describe("Melbourne: maximum unbooked taxi fares from 2025-09-23 (in force today, with a caveat)", () => {
  it("Tariff 1 'Day' 09:00–17:00 (Tuesday 2026-12-08 11:00): $5.25 + 10 × $2.037 + 5 × $0.713 = $29.185", () => {
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), tenKmFiveMin)).toBeCloseTo(5.25 + 20.37 + 3.565, 6)
    expect(meterAmount(meterAt("2026-12-08", 9 * 60), tenKmFiveMin)).toBeCloseTo(29.185, 6)
  })
  it("Tariff 2 'Overnight' 17:00–09:00: $6.55 + 10 × $2.265 + 5 × $0.792 = $33.16 (17:00, 08:59, and a Saturday 11:00 is Day)", () => {
    expect(meterAmount(meterAt("2026-12-08", 17 * 60), tenKmFiveMin)).toBeCloseTo(6.55 + 22.65 + 3.96, 6)
    expect(meterAmount(meterAt("2026-12-09", 8 * 60 + 59), tenKmFiveMin)).toBeCloseTo(33.16, 6)
    expect(meterAmount(meterAt("2026-12-12", 11 * 60), tenKmFiveMin)).toBeCloseTo(29.185, 6)
  })
  it("Tariff 3 'Peak' Friday and Saturday nights 22:00–04:00: $7.80 + 10 × $2.493 + 5 × $0.872 = $37.09; not on a Thursday night", () => {
    // Friday 2026-12-11 23:00, Saturday 2026-12-12 02:00 (Friday's night), Saturday 22:30, Sunday 03:00 (Saturday's night).
    for (const [d, m] of [["2026-12-11", 23 * 60], ["2026-12-12", 2 * 60], ["2026-12-12", 22 * 60 + 30], ["2026-12-13", 3 * 60]] as const) {
      expect(meterAmount(meterAt(d, m), tenKmFiveMin)).toBeCloseTo(7.8 + 24.93 + 4.36, 6)
    }
    expect(meterAmount(meterAt("2026-12-10", 23 * 60), tenKmFiveMin)).toBeCloseTo(33.16, 6)
    expect(meterAmount(meterAt("2026-12-13", 4 * 60), tenKmFiveMin)).toBeCloseTo(33.16, 6)
  })
  it("Peak all day on Christmas Day and from 18:00 on New Year's Eve", () => {
    expect(meterAmount(meterAt("2026-12-25", 11 * 60), tenKmFiveMin)).toBeCloseTo(37.09, 6)
    expect(meterAmount(meterAt("2026-12-31", 19 * 60), tenKmFiveMin)).toBeCloseTo(37.09, 6)
    expect(meterAmount(meterAt("2026-12-31", 17 * 60), tenKmFiveMin)).toBeCloseTo(33.16, 6)
  })
  it("the distance rate runs above 21 km/h and the detention rate below: $2.037/km = $0.713 per 21 km/h-minute (crossover 21 km/h)", () => {
    const day = meterAt("2026-12-08", 11 * 60)
    expect(day.time.crossoverKmh).toBe(21)
    expect(0.713 * 60 / 2.037).toBeCloseTo(21, 1)
    expect(meterAmount(day, { meterKm: 0, meterSeconds: 0 })).toBe(5.25)
  })
  it("one version, from 2025-09-23 (earlier dates priced on it, the caveat says so)", () => {
    expect(versionAt(tariff, "2026-12-06").effectiveFrom).toBe("2025-09-23")
    expect(versionAt(tariff, "2026-12-06").caveat?.checked).toBe("2026-12-06")
    // Update check of 2026-12-06: no fares after 2025-09-23 and no successor regulator found.
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("update check of 2026-12-06")
  })
})

describe("Melbourne: the airport", () => {
  it("MEL (Tullamarine) is served; a MEL → CBD trip of 23 km in 25 min by day quotes from the no-slow-time meter up", () => {
    expect(market.serves({ latitude: -37.669, longitude: 144.841 })).toBe(true)
    const mel = market.tariffs.locate({ latitude: -37.669, longitude: 144.841 })
    const cbd = market.tariffs.locate({ latitude: -37.8136, longitude: 144.9631 })
    expect(mel.has("mel")).toBe(true)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 23, durationMinutes: 25, routeSource: "supplied" }, view("2026-12-08", 660, mel, cbd), 0)
    // 5.25 + 23 × 2.037 = 52.101 with no slow time.
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(52.0)
    expect(priced.distribution.quantile(0.95)).toBeLessThan(52.101 + 25 * 0.713)
  })
})

describe("Melbourne: trips before the first rule (2025-09-23) are refused (audit G1)", () => {
  const FROM = { latitude: -37.669, longitude: 144.841 }
  const TO = { latitude: -37.818, longitude: 144.9691 }
  const { offers } = tripsOf(market, 23, 25)
  it("the maximum fares before were lower and not read (ESC: +4.1 % from 2023-10-01, the 2024 review, +2.8 % from 2025-09-23; audit F6): no-rule-for-date, not a price on the later rule", () => {
    expectRefusedBefore(market, suppliedTrip(market, FROM, TO, 23, 25), ["2024-01-10T11:00:00+11:00", "2025-09-22T11:00:00+10:00"], "2025-09-23T11:00:00+10:00")
    expect(offers(FROM, TO, "2025-09-23T11:00:00+10:00")).toHaveLength(1)
  })
})

describe("Melbourne: the airport rank fee is a caveat, not an amount (audit F7)", () => {
  it("every offer says the rank fee is not modelled and gives the last amounts read ($3.58 from 2016-11-01, $4.50 from 2019-09-01)", () => {
    const { offers } = tripsOf(market, 23, 25)
    const evidence = offers({ latitude: -37.669, longitude: 144.841 }, { latitude: -37.818, longitude: 144.9691 }, "2026-12-08T11:00:00+11:00")[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("The Melbourne Airport rank fee is not modelled")
    expect(evidence).toContain("$4.50 from 2019-09-01")
    expect(evidence).toContain("Trips before 2025-09-23 are refused")
  })
})
