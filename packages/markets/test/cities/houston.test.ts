/**
 * Houston: City Code § 46-31 rates in force from 2012-03-01 ($2.75 day / $3.75 night for the
 * first 1/11 mile, $0.20 per further 1/11 mile, $0.40 a minute of waiting), by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { meterForView, MILE, shippedMarket, view } from "./support.js"

const { doc, market, tariff } = shippedMarket("houston")
/** The meter that prices a trip starting at a local minute (day meter or the night variant). */
const meterAtMinute = (date: string, minute: number) => meterForView(tariff, view(date, minute))

describe("Houston: City Code § 46-31 rates (2012-03-01)", () => {
  it("day, 5 miles, no waiting: $2.75 for the first 1/11 mile + 54 elevenths × $0.20 = $13.55", () => {
    expect(meterAmount(meterAtMinute("2026-12-08", 11 * 60), { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(13.55, 9)
  })
  it("day, 3 miles and 5 minutes of waiting: $2.75 + 32 × $0.20 + 5 × $0.40 = $11.15", () => {
    expect(meterAmount(meterAtMinute("2026-12-08", 11 * 60), { meterKm: 3 * MILE, meterSeconds: 300 })).toBeCloseTo(11.15, 9)
  })
  it("night (a trip starting 20:00–06:00): the first 1/11 mile is $3.75, so 5 miles are $14.55", () => {
    for (const minute of [20 * 60, 23 * 60 + 30, 2 * 60, 5 * 60 + 59]) {
      expect(meterAmount(meterAtMinute("2026-12-08", minute), { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(14.55, 9)
    }
    expect(meterAmount(meterAtMinute("2026-12-08", 6 * 60), { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(13.55, 9)
    expect(meterAmount(meterAtMinute("2026-12-08", 19 * 60 + 59), { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(13.55, 9)
  })
  it("\"1/11 of a mile or less\": a started eleventh is charged", () => {
    const day = meterAtMinute("2026-12-08", 11 * 60)
    expect(meterAmount(day, { meterKm: MILE / 11, meterSeconds: 0 })).toBeCloseTo(2.75, 9)
    expect(meterAmount(day, { meterKm: MILE / 11 + 0.01, meterSeconds: 0 })).toBeCloseTo(2.95, 9)
  })
  it("waiting runs below 10.9 mph (17.55 km/h, derived: $24 an hour against $2.20 a mile)", () => {
    expect(meterAtMinute("2026-12-08", 660).time.crossoverKmh).toBeCloseTo((24 / 2.2) * MILE, 3)
  })
  it("2024-01-01 and today are priced on the same rule; IAH and HOU lie in the city and are served", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2012-03-01")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("$2.91")
    // Update check 2026-12-06: the 2022 amendments (Council of 2022-05-17) proposed a fuel surcharge, no meter change.
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("2022-05-17")
    expect(tariff.versions).toHaveLength(1)
    for (const a of doc.airports) expect(market.serves(a)).toBe(true)
    expect(doc.airports.map((a) => a.iata)).toEqual(["IAH", "HOU"])
    expect(market.serves({ latitude: 29.3013, longitude: -94.7977 })).toBe(false) // Galveston
  })
})
