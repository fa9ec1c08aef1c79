/**
 * Atlanta (City of Atlanta taxicab maximum rates, Council 2023-06-05): the meter on worked
 * examples from the rule as reported, the $10 minimum and the three ATL flat rates.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterOn, MILE, shippedMarket, view } from "./support.js"

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
  it("ATL flat rates both ways: Downtown $36, Midtown $38, Buckhead $48; elsewhere in the city the meter", () => {
    const atl = market.tariffs.locate(ATL)
    for (const [place, amount] of [[FIVE_POINTS, 36], [ARTS_CENTER, 38], [LENOX, 48]] as const) {
      const there = market.tariffs.locate(place)
      for (const [a, b] of [[atl, there], [there, atl]] as const) {
        const priced = priceTrip(market.tariffs, tariff, { distanceKm: 20, durationMinutes: 30, routeSource: "resolved" }, view("2026-12-08", 14 * 60, a, b), 2)
        expect([priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]).toEqual([amount, amount])
      }
    }
    const metered = priceTrip(market.tariffs, tariff, { distanceKm: 22, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 14 * 60, atl, market.tariffs.locate(EMORY)), 2)
    expect(metered.fare).toBeUndefined()
    // 22 km with no slow time: 3.50 + 109 started eighths (108.36) × 0.30 = $36.20 at least.
    expect(metered.distribution.quantile(0.05)).toBeGreaterThanOrEqual(36.2 - 1e-9)
  })
  it("the 2023 rule prices 2024-01-01 too (no later rate change found), and the airport is served", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2023-06-05")
    expect(versionAt(tariff, "2026-12-06").effectiveFrom).toBe("2023-06-05")
    expect(market.serves(ATL)).toBe(true)
    expect(market.serves({ latitude: 33.749, longitude: -84.388 })).toBe(true)
    expect(doc.airports.map((a) => a.iata)).toEqual(["ATL"])
  })
})
