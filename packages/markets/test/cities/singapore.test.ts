/**
 * Singapore: ComfortDelGro's normal taxi (operator-lodged fares): the City Area surcharge on hires
 * in the CBD 17:00–24:00 (audit F8) and the public holidays that change the peak surcharges (F9).
 * Worked examples from the rule (sources: models/SOURCES.md, models/sources/singapore.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { expectRefusedBefore, shippedMarket, tripsOf } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market } = shippedMarket("singapore")
const RAFFLES_PLACE = { latitude: 1.284, longitude: 103.8515 }
const CHANGI = { latitude: 1.3644, longitude: 103.9915 }
/** Orchard Road (ION Orchard): outside the stand-in CBD box. */
const ORCHARD = { latitude: 1.304, longitude: 103.8318 }

// Raffles Place → Changi, 20 km in 22 min (54.5 km/h, above the 32 km/h crossover): the meter is
// 4.40 + ⌈9 / 0.4⌉ = 23 × 0.26 (5.98) + ⌈10 / 0.35⌉ = 29 × 0.26 (7.54) = S$17.92.
const trip = tripsOf(market, 20, 22)

describe("Singapore: City Area surcharge (F8)", () => {
  it("Raffles Place → Changi on Tuesday 2026-12-08 at 23:30: 17.92 × 1.25 (evening peak) + S$3 City Area = S$25.40", () => {
    const [[p5, p95] = []] = trip.price(RAFFLES_PLACE, CHANGI, "2026-12-08T23:30:00+08:00")
    expect(p5).toBeCloseTo(25.4, 9)
    expect(p95).toBeGreaterThanOrEqual(25.4)
  })
  it("not before 17:00 (16:59: S$17.92), and not for a hire outside the CBD (Orchard at 23:30: 17.92 × 1.25 = S$22.40)", () => {
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-12-08T16:59:00+08:00")[0]?.[0]).toBeCloseTo(17.92, 9)
    expect(trip.price(ORCHARD, CHANGI, "2026-12-08T23:30:00+08:00")[0]?.[0]).toBeCloseTo(22.4, 9)
  })
})

describe("Singapore: public holidays (F9)", () => {
  it("Christmas Day 2026-12-25 (a Friday) at 07:00: no weekday morning peak (S$17.92); an ordinary Friday, 2026-12-18: 17.92 × 1.25 = S$22.40", () => {
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-12-25T07:00:00+08:00")[0]?.[0]).toBeCloseTo(17.92, 9)
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-12-18T07:00:00+08:00")[0]?.[0]).toBeCloseTo(22.4, 9)
  })
  it("Christmas Day 2026-12-25 at 11:00: the public-holiday late-morning peak, 17.92 × 1.25 = S$22.40; an ordinary Friday at 11:00: S$17.92", () => {
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-12-25T11:00:00+08:00")[0]?.[0]).toBeCloseTo(22.4, 9)
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-12-18T11:00:00+08:00")[0]?.[0]).toBeCloseTo(17.92, 9)
  })
  it("a holiday on a Sunday (Vesak Day 2026-05-31) pays the late-morning peak once: 17.92 × 1.25 = S$22.40; its Monday in lieu (06-01) has no morning peak", () => {
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-05-31T11:00:00+08:00")[0]?.[0]).toBeCloseTo(22.4, 9)
    expect(trip.price(RAFFLES_PLACE, CHANGI, "2026-06-01T07:00:00+08:00")[0]?.[0]).toBeCloseTo(17.92, 9)
  })
})

describe("Singapore: trips before the first rule (2011-12-12) are refused (audit G1)", () => {
  const FROM = { latitude: 1.284, longitude: 103.8515 }
  const TO = { latitude: 1.3048, longitude: 103.8318 }
  it("before 2011-12-12: S$0.20 per 385 m (news2z.blogspot.com 2011-12-06), peak +35 % and flag-down 20 cents lower (Yahoo, 2011-12): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("singapore").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2011-12-08T11:00:00+08:00", "2011-12-12T11:00:00+08:00")
  })
})
