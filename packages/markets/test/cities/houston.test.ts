/**
 * Houston: City Code § 46-31 rates in force from 2012-03-01 ($2.75 day / $3.75 night for the
 * first 1/11 mile, $0.20 per further 1/11 mile, $0.40 a minute of waiting), by hand; the airport
 * use fees on pick-ups at IAH ($2.75) and HOU ($1.25), which § 46-31(a)(3) says "may be
 * additionally imposed" (amounts from an undated operator page): priced with and without.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterForView, MILE, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

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
  it("airport use fees \"may be additionally imposed on metered or flat fares\" (§ 46-31(a)(3)): IAH $2.75, HOU $1.25 on pick-ups, open on every fare", () => {
    const v = versionAt(tariff, "2026-12-08")
    const iah = market.tariffs.locate(doc.airports[0] ?? { latitude: 0, longitude: 0 })
    const hou = market.tariffs.locate(doc.airports[1] ?? { latitude: 0, longitude: 0 })
    const none = new Set<string>()
    const charges = (pickup: ReadonlySet<string>, dropoff: ReadonlySet<string>, confirmedOnly: boolean) => {
      const trip = view("2026-12-08", 660, pickup, dropoff)
      return chargesFor(v, "meter", trip.moment, trip.places, new Set(), 2, confirmedOnly)
    }
    // IAH → Market Square, 37 km by day: (37 − 0.146304) ÷ 0.146304 = 251.9 → 252 started × $0.20 = 50.40 + 2.75 = $53.15;
    // with the IAH fee $55.90, without it $53.15.
    expect(charges(iah, none, false).total(53.15, 0)).toBeCloseTo(55.9, 9)
    expect(charges(iah, none, false).unconfirmed).toBe(true)
    expect(charges(iah, none, true).total(53.15, 0)).toBeCloseTo(53.15, 9)
    // HOU → Market Square, 16 km: 109 started × 0.20 = 21.80 + 2.75 = $24.55; with the HOU fee $25.80.
    expect(charges(hou, none, false).total(24.55, 0)).toBeCloseTo(25.8, 9)
    // A drop-off at the airport pays no use fee.
    expect(charges(none, iah, false).total(53.15, 0)).toBeCloseTo(53.15, 9)
    expect(charges(none, iah, false).applied).toEqual([])
    // The quote spans both: p5 the fare without the fee (no slow time at 63 km/h), p95 at least the fare with it.
    const [offer] = market.offers(suppliedTrip(market, { latitude: 29.9902, longitude: -95.3368 }, { latitude: 29.7627, longitude: -95.3625 }, 37, 35)("2026-12-08T11:00:00-06:00"))
    expect(offer?.distribution.quantile(0.05)).toBeCloseTo(53.15, 9)
    expect(offer?.distribution.quantile(0.95)).toBeGreaterThanOrEqual(55.9 - 1e-9)
    expect(offer?.source?.tariff?.charges).toContain("IAH airport use fee")
    expect(v.caveat?.note).toContain("outofthewayindustry.com")
  })
})

describe("Houston: trips before the first rule (2012-03-01) are refused (audit G1)", () => {
  const FROM = { latitude: 29.7604, longitude: -95.3698 }
  const TO = { latitude: 29.7392, longitude: -95.4637 }
  it("before 2012-03-01: $2.50 for the first 2/11 mile, $0.17 per 1/11 mile (the 2006 rule, paguro.net, secondary): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("houston").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2012-02-26T11:00:00-06:00", "2012-03-01T11:00:00-06:00")
  })
})
