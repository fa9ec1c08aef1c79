/**
 * Atlanta (City of Atlanta taxicab maximum rates, Council 2023-06-05): the meter on worked
 * examples from the rule as reported, the $10 minimum, the three ATL flat rates and the $1.50
 * airport surcharge on pick-ups at ATL; the rates the 2023 ordinance replaced (in force by
 * 2017-01-05); trips before 2017-01-05 refused.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, MILE, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("atlanta")
const ATL = { latitude: 33.6407, longitude: -84.4277 }
const FIVE_POINTS = { latitude: 33.7539, longitude: -84.3916 } // downtown
const ARTS_CENTER = { latitude: 33.7893, longitude: -84.3871 } // midtown
const LENOX = { latitude: 33.8462, longitude: -84.3621 } // Buckhead
const EMORY = { latitude: 33.7925, longitude: -84.3240 } // in the city, in no flat-rate zone

describe("Atlanta: City of Atlanta taxicab rates of 2023-06-05", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("$3.50 for the first 1/8 mile, $0.30 per further 1/8 mile: 10 miles are 3.50 + 79 × 0.30 = $27.20 (WABE: \"from $22 to $27\")", () => {
    expect(meterAmount(meter, { meterKm: 10 * MILE, meterSeconds: 0 })).toBeCloseTo(27.2, 9)
    // A started eighth counts: 1.2 miles are the first eighth and 8.6 → 9 further eighths, 3.50 + 2.70.
    expect(meterAmount(meter, { meterKm: 1.2 * MILE, meterSeconds: 0 })).toBeCloseTo(6.2, 9)
  })
  it("waiting at $24 an hour ($0.40 a minute): 2 miles and 5 minutes are 3.50 + 15 × 0.30 + 5 × 0.40 = $10.00", () => {
    expect(meterAmount(meter, { meterKm: 2 * MILE, meterSeconds: 300 })).toBeCloseTo(10, 9)
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 3600 }) - 3.5).toBeCloseTo(24, 9)
  })
  it("the $10 minimum: half a mile (3.50 + 3 × 0.30 = $4.40 on the meter) costs $10", () => {
    const fare = meterAmount(meter, { meterKm: 0.5 * MILE, meterSeconds: 0 })
    expect(fare).toBeCloseTo(4.4, 9)
    const v = versionAt(tariff, "2026-12-08")
    expect(chargesFor(v, "meter", view("2026-12-08").moment, view("2026-12-08").places, new Set(), 2).total(fare, 0)).toBeCloseTo(10, 9)
    expect(chargesFor(v, "meter", view("2026-12-08").moment, view("2026-12-08").places, new Set(), 2).total(27.2, 0)).toBeCloseTo(27.2, 9)
  })
  it("ATL flat rates both ways: Downtown $36, Midtown $38, Buckhead $48 (from ATL with or without the $1.50 surcharge); elsewhere in the city the meter", () => {
    const atl = market.tariffs.locate(ATL)
    for (const [place, amount] of [[FIVE_POINTS, 36], [ARTS_CENTER, 38], [LENOX, 48]] as const) {
      const there = market.tariffs.locate(place)
      const spread = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
        const priced = priceTrip(market.tariffs, tariff, { distanceKm: 20, durationMinutes: 30, routeSource: "resolved" }, view("2026-12-08", 14 * 60, a, b), 2)
        return [priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]
      }
      // From ATL: whether the surcharge is added to a flat rate is not stated, so p5 without it, p95 with it.
      expect(spread(atl, there)).toEqual([amount, amount + 1.5])
      // To ATL: no surcharge (it is charged on pick-ups at ATL).
      expect(spread(there, atl)).toEqual([amount, amount])
    }
    const metered = priceTrip(market.tariffs, tariff, { distanceKm: 22, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 14 * 60, atl, market.tariffs.locate(EMORY)), 2)
    expect(metered.fare).toBeUndefined()
    // 22 km with no slow time: 3.50 + 109 started eighths (108.36) × 0.30 = $36.20, + the $1.50 surcharge = $37.70 at least.
    expect(metered.distribution.quantile(0.05)).toBeGreaterThanOrEqual(37.7 - 1e-9)
  })
  it("the $1.50 ATL airport surcharge (AJC, June 2023) is added to every metered pick-up at ATL, after the $10 minimum; not to drop-offs there", () => {
    const atl = market.tariffs.locate(ATL)
    const v = versionAt(tariff, "2026-12-08")
    const charges = (pickup: ReadonlySet<string>, dropoff: ReadonlySet<string>) =>
      chargesFor(v, "meter", view("2026-12-08", 660, pickup, dropoff).moment, view("2026-12-08", 660, pickup, dropoff).places, new Set(), 2)
    // 10 miles from ATL: 3.50 + 79 × 0.30 = 27.20 + 1.50 = $28.70; to ATL $27.20.
    expect(charges(atl, new Set()).total(27.2, 0)).toBeCloseTo(28.7, 9)
    expect(charges(new Set(), atl).total(27.2, 0)).toBeCloseTo(27.2, 9)
    // Half a mile from ATL: $4.40 on the meter, the $10 minimum, then the surcharge: $11.50.
    expect(charges(atl, new Set()).total(4.4, 0)).toBeCloseTo(11.5, 9)
    // The offer says why the span exists.
    expect(v.caveat?.note).toContain("initial airport surcharge of $1.50")
    expect(v.caveat?.note).toContain("$2.90 a gallon")
  })
  it("the 2023 rule prices 2024-01-01 too (no later rate change found), and the airport is served", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2023-06-05")
    expect(versionAt(tariff, "2026-12-06").effectiveFrom).toBe("2023-06-05")
    expect(market.serves(ATL)).toBe(true)
    expect(market.serves({ latitude: 33.749, longitude: -84.388 })).toBe(true)
    expect(doc.airports.map((a) => a.iata)).toEqual(["ATL"])
  })
})

describe("Atlanta before 2023-06-05: the rates the 2023 ordinance replaced, in force by 2017-01-05", () => {
  const meter = meterOn(tariff, "2022-06-01")
  it("takes the dates: 2017-01-05 (earliest dated sighting, jamesmagazinega.com) to 2023-06-04; the 2023 rule from 2023-06-05", () => {
    expect(["2017-01-05", "2022-06-01", "2023-06-04", "2023-06-05"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2017-01-05", "2017-01-05", "2017-01-05", "2023-06-05"])
    expect(doc.define?.beforeFirstRule).toBe("refuse")
  })
  it("$2.50 for the first 1/8 mile, $0.25 per further 1/8 mile: 10 miles in 2022 are 2.50 + 79 × 0.25 = $22.25 (WABE: \"from $22 to $27\")", () => {
    expect(meterAmount(meter, { meterKm: 10 * MILE, meterSeconds: 0 })).toBeCloseTo(22.25, 9)
    // $21 an hour read as $0.35 a minute: 2 miles and 5 minutes are 2.50 + 15 × 0.25 + 5 × 0.35 = $8.00.
    expect(meterAmount(meter, { meterKm: 2 * MILE, meterSeconds: 300 })).toBeCloseTo(8, 9)
    // Crossover derived as the 2023 version's: $21 an hour against $2.00 a mile = 10.5 mph.
    expect(meter.time.crossoverKmh).toBeCloseTo(10.5 * MILE, 3)
  })
  it("a metered 10-mile trip in 2022 on the old meter: $22.25 with no slow time (no minimum fare before 2023), from ATL $23.75", () => {
    const atl = market.tariffs.locate(ATL)
    const emory = market.tariffs.locate(EMORY)
    const priced = (a: ReadonlySet<string>, b: ReadonlySet<string>, km: number) =>
      priceTrip(market.tariffs, tariff, { distanceKm: km, durationMinutes: 20, routeSource: "supplied" }, view("2022-06-01", 660, a, b), 2)
    // 10 miles in 20 minutes (48 km/h): p5 carries no slow time.
    expect(priced(new Set(), emory, 10 * MILE).distribution.quantile(0.05)).toBeCloseTo(22.25, 9)
    // From ATL the $1.50 surcharge is firm on the meter: 22.25 + 1.50.
    expect(priced(atl, emory, 10 * MILE).distribution.quantile(0.05)).toBeCloseTo(23.75, 9)
    // Half a mile: 2.50 + 3 × 0.25 = $3.25, no $10 minimum before the 2023 ordinance.
    const v = versionAt(tariff, "2022-06-01")
    expect(v.minimumFare).toBeUndefined()
    expect(chargesFor(v, "meter", view("2022-06-01").moment, view("2022-06-01").places, new Set(), 2).total(3.25, 0)).toBeCloseTo(3.25, 9)
  })
  it("ATL → Downtown on 2022-06-01 costs the $30 flat rate (AJC: \"$36 up from $30\"), up to $31.50 with the surcharge; Midtown $32, Buckhead $40", () => {
    const offers = (to: typeof ATL, iso: string) => market.offers(suppliedTrip(market, ATL, to, 17, 22)(iso))
    const ends = (to: typeof ATL, iso: string) => offers(to, iso).map((o) => [o.distribution.quantile(0.05), o.distribution.quantile(0.95)])
    expect(ends(FIVE_POINTS, "2022-06-01T11:00:00-04:00")).toEqual([[30, 31.5]])
    expect(ends(ARTS_CENTER, "2022-06-01T11:00:00-04:00")).toEqual([[32, 33.5]])
    expect(ends(LENOX, "2022-06-01T11:00:00-04:00")).toEqual([[40, 41.5]])
    // The same trip after the ordinance: $36 (to $37.50).
    expect(ends(FIVE_POINTS, "2023-06-05T11:00:00-04:00")).toEqual([[36, 37.5]])
    const [offer] = offers(FIVE_POINTS, "2022-06-01T11:00:00-04:00")
    expect(offer?.source?.tariff?.effectiveFrom).toBe("2017-01-05")
    expect(offer?.source?.level?.evidence).toContain("Buckhead $38")
  })
  it("a trip of 2016 is refused (no-rule-for-date): the rule before 2017-01-05 is not dated, and the 2017 rule is not assumed", () => {
    const trip = (iso: string) => suppliedTrip(market, ATL, FIVE_POINTS, 17, 22)(iso)
    expectRefusedBefore(market, trip, ["2016-06-01T11:00:00-04:00", "2017-01-04T23:30:00-05:00"], "2017-01-05T00:30:00-05:00")
    expect(market.offers(trip("2017-01-05T00:30:00-05:00"))).toHaveLength(1)
  })
})
