/**
 * Riyadh (Transport General Authority public taxi fare of 2022-03-13, from the tariff alone):
 * SR6.40 opening, SR2.10 a km, SR0.90 a minute below 20 km/h, SR10 minimum; 5+ seats SR7.30,
 * SR2.40, SR1.10 (XL). The same national rule as the other Saudi city's file.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { chargesFor, definedMarket, meterAmount, meterReading, parseTariff, priceTrip, SHIPPED_MARKETS_DIR, versionAt } from "@ridequote/markets"
import type { TariffDocument, TariffTripView } from "@ridequote/markets"

const doc: TariffDocument = Either.getOrThrow(parseTariff("riyadh", readFileSync(join(SHIPPED_MARKETS_DIR, "riyadh-tariff.json"), "utf8")))
const market = (() => {
  const m = definedMarket(doc)
  if (m === undefined) throw new Error("riyadh defines no market")
  return m
})()
const tariffOf = (i: number) => {
  const t = doc.tariffs[i]
  if (t === undefined) throw new Error("no tariff")
  return t
}
const [taxi, large] = [tariffOf(0), tariffOf(1)]
const meterOf = (t: typeof taxi, date: string) => {
  const m = versionAt(t, date).meter
  if (m === undefined) throw new Error("no meter")
  return m
}
const none: ReadonlySet<string> = new Set()
const view = (date: string, minuteOfDay = 660, pickup: ReadonlySet<string> = none, dropoff: ReadonlySet<string> = none): TariffTripView => ({
  localDate: date,
  moment: { localDate: date, dayOfWeek: new Date(`${date}T00:00:00Z`).getUTCDay(), minuteOfDay },
  places: { pickup, dropoff }
})

describe("Riyadh: TGA public taxi fare of 2022-03-13 (in force 2024-01-01; newest found, caveat)", () => {
  it("up to 4 passengers: 10 km is 6.40 + 10 × 2.10 = SR27.40; 5+ passengers (XL) 7.30 + 24.00 = SR31.30", () => {
    expect(meterAmount(meterOf(taxi, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(27.4, 9)
    expect(meterAmount(meterOf(large, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(31.3, 9)
    expect(large.serviceLevel).toBe("XL")
  })
  it("waiting and running below 20 km/h: SR0.90 a minute (XL SR1.10) — 10 slow minutes add SR9.00 (SR11.00)", () => {
    expect(meterAmount(meterOf(taxi, "2026-12-08"), { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(36.4, 9)
    expect(meterAmount(meterOf(large, "2026-12-08"), { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(42.3, 9)
    expect(meterOf(taxi, "2026-12-08").time.crossoverKmh).toBe(20)
  })
  it("the SR10 minimum: 1.5 km (6.40 + 3.15 = 9.55) costs SR10; 2 km (10.60) its meter", () => {
    const v = view("2026-12-08")
    const charges = chargesFor(versionAt(taxi, "2026-12-08"), "meter", v.moment, v.places, new Set(), 2)
    expect(charges.total(meterAmount(meterOf(taxi, "2026-12-08"), { meterKm: 1.5, meterSeconds: 0 }), 0)).toBeCloseTo(10, 9)
    expect(charges.total(meterAmount(meterOf(taxi, "2026-12-08"), { meterKm: 2, meterSeconds: 0 }), 0)).toBeCloseTo(10.6, 9)
  })
  it("RUH is in its zone; a trip from it is on the city meter (airport opening fee not found); one version from 2022-03-13 with its caveat", () => {
    const airport = market.tariffs.locate({ latitude: 24.9576, longitude: 46.6988 })
    expect(airport.has("ruh")).toBe(true)
    const priced = priceTrip(market.tariffs, taxi, { distanceKm: 30, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", 660, airport, none), 2)
    const m = meterOf(taxi, "2026-12-08")
    // 30 km in 30 min: at least 6.40 + 63.00 = SR69.40, at most the meter with every minute slow.
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(69.4 - 1e-9)
    expect(priced.distribution.quantile(0.95)).toBeLessThanOrEqual(meterAmount(m, meterReading(m, 30, 30, 30)) + 1e-9)
    expect(versionAt(taxi, "2024-01-01").effectiveFrom).toBe("2022-03-13")
    expect(versionAt(taxi, "2026-12-06").caveat?.note).toContain("RUH")
  })
})
