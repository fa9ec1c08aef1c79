/**
 * Brussels (Brussels-Capital Region, arrêté of 2022-10-06, in force 2022-10-21: the tariff of
 * unbooked taxi rides): the meter on worked examples computed by hand from the prise en charge,
 * €/km and €/minute of waiting, the €2 night supplement, the €8 minimum, and Brussels Airport
 * (in Zaventem: a Brussels taxi drops off there on the meter; pick-ups are Zaventem's).
 * Sources: packages/markets/models/sources/brussels.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, meterCharges, meterOn, none, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("brussels")
const total = (date: string, minute: number, fare: number, pickup: ReadonlySet<string> = none, dropoff: ReadonlySet<string> = none) =>
  meterCharges(tariff, view(date, minute, pickup, dropoff)).total(fare, 0)
const BRU = { latitude: 50.8990, longitude: 4.4840 }
const GRAND_PLACE = { latitude: 50.8467, longitude: 4.3525 }

describe("Brussels: the 2022 tariff (in force on 2024-01-01 and today)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("€2.60 + €2.30/km, €0.60 a minute of waiting", () => {
    // 10 km: 2.60 + 23.00 = 25.60; 10 minutes waiting: 100 steps of 6 s × €0.06 = 6.00 + 2.60.
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(25.6, 9)
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(8.6, 9)
    // 6 km and 5 minutes slow: 2.60 + 13.80 + 3.00 = 19.40.
    expect(meterAmount(meter, { meterKm: 6, meterSeconds: 300 })).toBeCloseTo(19.4, 9)
    expect(meter.time.crossoverKmh).toBeCloseTo(36 / 2.3, 9)
    expect(["2022-10-21", "2024-01-01", "2026-12-08"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2022-10-21", "2022-10-21", "2022-10-21"])
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    // The 2022 rules index the amounts from 2024-01-01; no indexed amounts were found, so the caveat says so.
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("consumer-price index from 2024-01-01")
  })
  it("adds €2 from 22:00 to 06:00 and charges at least €8", () => {
    expect([total("2026-12-08", 21 * 60 + 59, 25.6), total("2026-12-08", 22 * 60, 25.6), total("2026-12-09", 5 * 60 + 59, 25.6), total("2026-12-09", 6 * 60, 25.6)])
      .toEqual([25.6, 27.6, 27.6, 25.6].map((x) => expect.closeTo(x, 9)))
    // 2 km by day: 2.60 + 4.60 = 7.20 → €8; at night 7.20 + 2 = 9.20 stays.
    const short = meterAmount(meter, { meterKm: 2, meterSeconds: 0 })
    expect(short).toBeCloseTo(7.2, 9)
    expect(total("2026-12-08", 11 * 60, short)).toBeCloseTo(8, 9)
    expect(total("2026-12-08", 23 * 60, short)).toBeCloseTo(9.2, 9)
  })
  it("Brussels Airport lies in Zaventem: not a Brussels pick-up; a Brussels taxi drops off there on the meter, no supplement", () => {
    expect(market.serves(BRU)).toBe(false)
    expect(market.serves(GRAND_PLACE)).toBe(true)
    const bru = market.tariffs.locate(BRU), centre = market.tariffs.locate(GRAND_PLACE)
    expect(bru.has("bru")).toBe(true)
    // 14 km: 2.60 + 32.20 = 34.80, nothing added by day.
    expect(total("2026-12-08", 11 * 60, meterAmount(meter, { meterKm: 14, meterSeconds: 0 }), centre, bru)).toBeCloseTo(34.8, 9)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 14, durationMinutes: 25, routeSource: "resolved" }, view("2026-12-08", 660, centre, bru), 2)
    expect(priced.fare).toBeUndefined()
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(30)
  })
})

describe("Brussels before 2022-10-21: refused (the tariff before, €1.80/km in the Region and €2.70 beyond, is known to differ; its start not found)", () => {
  it("Grand-Place → BRU on 2021-06-01 gets no price (no-rule-for-date), where it would have been priced on the 2022 rule (2.60 + 14 × 2.30 = €34.80)", () => {
    const trip = (at: string) => suppliedTrip(market, GRAND_PLACE, BRU, 14, 25)(at)
    expectRefusedBefore(market, trip, ["2021-06-01T11:00:00+02:00", "2022-10-20T11:00:00+02:00"], "2022-10-21T11:00:00+02:00")
    expect(market.offers(trip("2022-10-21T11:00:00+02:00"))).toHaveLength(1)
  })
})
