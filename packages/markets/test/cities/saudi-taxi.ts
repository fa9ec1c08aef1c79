/**
 * The Transport General Authority's public taxi fare of 2022-03-13, the same national rule in
 * each Saudi city's file (jeddah.test.ts, riyadh.test.ts run it on theirs): SR6.40 opening,
 * SR2.10 a km, SR0.90 a minute below 20 km/h, SR10 minimum; 5+ seats SR7.30, SR2.40, SR1.10 (XL).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterCharges, meterFare, meterOn, none, shippedMarket, tariffOf, view } from "./support.js"

/** A Saudi city whose file prices the national fare, and its airport. */
export interface SaudiCity {
  readonly id: string
  readonly name: string
  readonly iata: string
  readonly airport: { readonly latitude: number; readonly longitude: number }
}

/** The TGA's national public taxi fare, as the city's file prices it, and the city's airport on its meter. */
export const saudiTaxiFare = (city: SaudiCity) => {
  const { doc, market } = shippedMarket(city.id)
  const [taxi, large] = [tariffOf(doc, 0), tariffOf(doc, 1)]
  describe(`${city.name}: TGA public taxi fare of 2022-03-13 (in force 2024-01-01; newest found, caveat)`, () => {
    it("up to 4 passengers: 10 km is 6.40 + 10 × 2.10 = SR27.40; 5+ passengers (XL) 7.30 + 24.00 = SR31.30", () => {
      expect(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(27.4, 9)
      expect(meterAmount(meterOn(large, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(31.3, 9)
      expect(large.serviceLevel).toBe("XL")
    })
    it("waiting and running below 20 km/h: SR0.90 a minute (XL SR1.10) — 10 slow minutes add SR9.00 (SR11.00)", () => {
      expect(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(36.4, 9)
      expect(meterAmount(meterOn(large, "2026-12-08"), { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(42.3, 9)
      expect(meterOn(taxi, "2026-12-08").time.crossoverKmh).toBe(20)
    })
    it("the SR10 minimum: 1.5 km (6.40 + 3.15 = 9.55) costs SR10; 2 km (10.60) its meter", () => {
      const v = view("2026-12-08")
      const charges = meterCharges(taxi, v)
      expect(charges.total(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 1.5, meterSeconds: 0 }), 0)).toBeCloseTo(10, 9)
      expect(charges.total(meterAmount(meterOn(taxi, "2026-12-08"), { meterKm: 2, meterSeconds: 0 }), 0)).toBeCloseTo(10.6, 9)
    })
    it(`${city.iata} is in its zone; a trip from it is on the city meter (airport opening fee not found); one version from 2022-03-13 with its caveat`, () => {
      const airport = market.tariffs.locate(city.airport)
      expect(airport.has(city.iata.toLowerCase())).toBe(true)
      const priced = priceTrip(market.tariffs, taxi, { distanceKm: 30, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 660, airport, none), 2)
      const m = meterOn(taxi, "2026-12-08")
      // 30 km in 30 min: at least 6.40 + 63.00 = SR69.40, at most the meter with every minute slow.
      expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(69.4 - 1e-9)
      expect(priced.distribution.quantile(0.95)).toBeLessThanOrEqual(meterFare(m, 30, 30, 30) + 1e-9)
      expect(versionAt(taxi, "2024-01-01").effectiveFrom).toBe("2022-03-13")
      expect(versionAt(taxi, "2026-12-06").caveat?.note).toContain(city.iata)
      expect(versionAt(taxi, "2026-12-06").caveat?.note).toContain("Since November 2024 the TGA proposes taxi fares")
    })
  })
}
