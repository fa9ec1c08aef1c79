/**
 * Barcelona (AMB urban taxi tariff): the meter of each year's tariff on worked examples computed
 * by hand from the published amounts, the T-2 periods, the airport supplement, the T-4 fixed fare
 * and the special-night supplement. Sources: packages/markets/models/sources/barcelona.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterCharges, meterForView, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("barcelona")
const holidays = new Set(doc.holidays.map((h) => h.date))
/** The meter in force (version and T-1/T-2 variant) for a trip at a local date and minute. */
const meterAt = (date: string, minute = 660) => meterForView(tariff, view(date, minute), holidays)
const AIRPORT = { latitude: 41.2971, longitude: 2.0785 }
const CATALUNYA = { latitude: 41.387, longitude: 2.17 }
const PORT = { latitude: 41.3505, longitude: 2.1725 }

describe("Barcelona: AMB tariff of 2026-01-19", () => {
  it("T-1 (working days 08:00–20:00): €2.80 + €1.35/km in completed €0.05 steps (37.04 m)", () => {
    const t1 = meterAt("2026-12-01")
    // 10 km: 270 steps of 0.05/1.35 km = €13.50.
    expect(meterAmount(t1, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(2.8 + 13.5, 9)
    // 7.3 km: 197.1 steps, 197 completed = €9.85.
    expect(meterAmount(t1, { meterKm: 7.3, meterSeconds: 0 })).toBeCloseTo(2.8 + 9.85, 9)
    // Waiting €27.75/h is €0.05 per 6.486 s: 10 min are 92.5 steps, 92 completed = €4.60; an hour is €27.75.
    expect(meterAmount(t1, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(2.8 + 4.6, 9)
    expect(meterAmount(t1, { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(2.8 + 27.75, 9)
    expect(t1.time.crossoverKmh).toBeCloseTo(27.75 / 1.35, 9)
  })
  it("T-2 (working days 20:00–08:00, Saturdays, Sundays, holidays): €2.80 + €1.66/km", () => {
    // 10 km at €1.66/km: 332 steps of 30.12 m = €16.60.
    const t2 = 2.8 + 16.6
    expect(meterAmount(meterAt("2026-12-01", 22 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(t2, 9)
    expect(meterAmount(meterAt("2026-12-02", 7 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(t2, 9)
    expect(meterAmount(meterAt("2026-12-05", 11 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(t2, 9)
    expect(meterAmount(meterAt("2026-12-06", 15 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(t2, 9)
    // 2026-12-08 (la Immaculada) is a Tuesday holiday: T-2 all day.
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(t2, 9)
    // 08:00 on a working day is T-1 again.
    expect(meterAmount(meterAt("2026-12-02", 8 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(2.8 + 13.5, 9)
  })
  it("adds €4.60 to trips to or from the airport; T-4 airport – Moll Adossat is €46 with every supplement included", () => {
    const airport = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(CATALUNYA), port = market.tariffs.locate(PORT)
    expect(airport.has("bcn")).toBe(true)
    expect(market.serves(AIRPORT)).toBe(true)
    const v = versionAt(tariff, "2026-12-01")
    // 15 km by day from the airport: 2.80 + 405 steps (€20.25) + €4.60.
    const fare = meterAmount(meterAt("2026-12-01"), { meterKm: 15, meterSeconds: 0 })
    expect(fare).toBeCloseTo(23.05, 9)
    for (const [a, b] of [[airport, centre], [centre, airport]] as const) {
      expect(chargesFor(v, "meter", view("2026-12-01").moment, { pickup: a, dropoff: b }, holidays, 2).total(fare, 0)).toBeCloseTo(27.65, 9)
    }
    expect(chargesFor(v, "meter", view("2026-12-01").moment, { pickup: centre, dropoff: centre }, holidays, 2).total(fare, 0)).toBeCloseTo(23.05, 9)
    for (const [a, b] of [[airport, port], [port, airport]] as const) {
      const priced = priceTrip(market.tariffs, tariff, { distanceKm: 16, durationMinutes: 25, routeSource: "resolved" }, view("2026-12-05", 23 * 60, a, b), 2)
      expect([priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]).toEqual([46, 46])
    }
  })
  it("a minimum of €21 (supplements included) for trips from the airport only, from 2026-01-19", () => {
    const airport = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(CATALUNYA)
    const v = versionAt(tariff, "2026-12-01")
    // 4 km by day: 2.80 + 108 steps of €0.05 (€5.40) = €8.20, + €4.60 airport supplement = €12.80 → €21 from the airport.
    const fare = meterAmount(meterAt("2026-12-01"), { meterKm: 4, meterSeconds: 0 })
    expect(fare).toBeCloseTo(8.2, 9)
    const total = (a: ReadonlySet<string>, b: ReadonlySet<string>, version = v) =>
      chargesFor(version, "meter", view("2026-12-01").moment, { pickup: a, dropoff: b }, holidays, 2).total(fare, 0)
    expect(total(airport, centre)).toBeCloseTo(21, 9)
    // To the airport, and within the city: no such minimum.
    expect(total(centre, airport)).toBeCloseTo(12.8, 9)
    expect(total(centre, centre)).toBeCloseTo(8.2, 9)
    // 15 km from the airport (€27.65) is above it.
    const long = meterAmount(meterAt("2026-12-01"), { meterKm: 15, meterSeconds: 0 })
    expect(chargesFor(v, "meter", view("2026-12-01").moment, { pickup: airport, dropoff: centre }, holidays, 2).total(long, 0)).toBeCloseTo(27.65, 9)
    // The 2025 tariff carries the same €21 over (its own table not read): €8.20 of meter + the 2025 supplement €4.50 → €21.
    expect(total(airport, centre, versionAt(tariff, "2025-06-03"))).toBeCloseTo(21, 9)
  })
  it("adds the €4.60 special-night supplement 20:00–08:00 on 24–25 December, not the evening after", () => {
    const v = versionAt(tariff, "2026-12-24")
    const extra = (date: string, minute: number) =>
      meterCharges(tariff, view(date, minute), holidays).total(20, 0) - 20
    expect(v.effectiveFrom).toBe("2026-01-19")
    expect([extra("2026-12-24", 19 * 60 + 59), extra("2026-12-24", 22 * 60), extra("2026-12-25", 3 * 60), extra("2026-12-25", 8 * 60), extra("2026-12-25", 22 * 60)]
      .map((x) => Number(x.toFixed(2)))).toEqual([0, 4.6, 4.6, 0, 0])
    expect(Number(extra("2026-06-23", 21 * 60).toFixed(2))).toBe(4.6)
  })
})

describe("Barcelona before 2026-01-19: the AMB tariffs of 2024 and 2025", () => {
  it("each trip is priced on its own year's rule; the 2025 tariff runs to 2026-01-18", () => {
    expect(["2023-06-01", "2024-01-01", "2024-12-31", "2025-01-01", "2026-01-18", "2026-01-19"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2024-01-01", "2024-01-01", "2024-01-01", "2025-01-01", "2025-01-01", "2026-01-19"])
    // 10 km on a Tuesday at 11:00: 2024 €2.60 + 254 steps of 0.05/1.27 km (€12.70); 2025 €2.75 + €13.20.
    expect(meterAmount(meterAt("2024-06-04"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(15.3, 9)
    expect(meterAmount(meterAt("2025-06-03"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(15.95, 9)
    // At night: 2024 €1.56/km (€15.60), 2025 €1.61/km (€16.10).
    expect(meterAmount(meterAt("2024-06-04", 23 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(18.2, 9)
    expect(meterAmount(meterAt("2025-06-03", 23 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(18.85, 9)
    // 2024 waiting €25.60/h: an hour standing is 512 steps of €0.05.
    expect(meterAmount(meterAt("2024-06-04"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(2.6 + 25.6, 9)
  })
  it("2024-01-01 (New Year's Day, a holiday): T-2, and the airport supplement was €4.50; T-4 €45", () => {
    const airport = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(CATALUNYA), port = market.tariffs.locate(PORT)
    const v = versionAt(tariff, "2024-01-01")
    const fare = meterAmount(meterAt("2024-01-01", 12 * 60), { meterKm: 15, meterSeconds: 0 })
    // 15 km at €1.56/km: 468 steps = €23.40, + €2.60.
    expect(fare).toBeCloseTo(26, 9)
    expect(chargesFor(v, "meter", view("2024-01-01", 12 * 60).moment, { pickup: airport, dropoff: centre }, holidays, 2).total(fare, 0)).toBeCloseTo(30.5, 9)
    const t4 = priceTrip(market.tariffs, tariff, { distanceKm: 16, durationMinutes: 25, routeSource: "resolved" }, view("2025-03-04", 11 * 60, airport, port), 2)
    expect(t4.distribution.quantile(0.5)).toBe(45)
  })
})

describe("Barcelona: audit d fixes (2026-12-06)", () => {
  it("B2: the Moll Adossat supplement on metered trips to or from the cruise terminal: €4.50 (2024, 2025), €4.60 (2026); none within the city", () => {
    const centre = market.tariffs.locate(CATALUNYA), port = market.tariffs.locate(PORT)
    expect(port.has("moll-adossat")).toBe(true)
    // 3 km by day on each year's T-1: 2024 2.60 + 76 completed steps of 0.05/1.27 km (€3.80) = €6.40; 2025 2.75 + 79
    // steps of 0.05/1.32 km (€3.95) = €6.70; the supplement is added to whatever the meter shows.
    for (const [date, amount] of [["2024-06-04", 4.5], ["2025-06-03", 4.5], ["2026-12-01", 4.6]] as const) {
      const v = versionAt(tariff, date)
      const fare = meterAmount(meterAt(date), { meterKm: 3, meterSeconds: 0 })
      const total = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
        chargesFor(v, "meter", view(date).moment, { pickup: a, dropoff: b }, holidays, 2).total(fare, 0)
      expect(total(centre, port)).toBeCloseTo(fare + amount, 9)
      expect(total(port, centre)).toBeCloseTo(fare + amount, 9)
      expect(total(centre, centre)).toBeCloseTo(fare, 9)
    }
    expect(meterAmount(meterAt("2024-06-04"), { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(6.4, 9)
    expect(meterAmount(meterAt("2025-06-03"), { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(6.7, 9)
  })
  it("B1: in 2024 and 2025 the airport minimum is the €21 of the tariffs either side (2023, 2026; this year's table not read), and the caveat says so: 5 km from the airport 2025-03-11 11:00 meters 2.75 + 132 × 0.05 = €9.35, + €4.50 = €13.85 → €21 (2024-06-04: 2.60 + 127 × 0.05 = €8.95 → €21)", () => {
    const airport = market.tariffs.locate(AIRPORT), centre = market.tariffs.locate(CATALUNYA)
    for (const [date, fare] of [["2025-03-11", 9.35], ["2024-06-04", 8.95]] as const) {
      const v = versionAt(tariff, date)
      expect(meterAmount(meterAt(date), { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(fare, 9)
      expect(chargesFor(v, "meter", view(date).moment, { pickup: airport, dropoff: centre }, holidays, 2).total(fare, 0)).toBeCloseTo(21, 9)
      // To the airport: no minimum, the meter and the supplement.
      expect(chargesFor(v, "meter", view(date).moment, { pickup: centre, dropoff: airport }, holidays, 2).total(fare, 0)).toBeCloseTo(fare + 4.5, 9)
      expect(v.minimumFares.map((m) => m.amount)).toEqual([21])
      expect(v.caveat?.note).toContain("is carried over from the tariffs either side")
      expect(v.caveat?.note).toContain("if this year's minimum was €20 (as until 2021), such a trip is €1 high")
    }
    const { offers } = tripsOf(market, 5, 8)
    const evidence = offers(AIRPORT, CATALUNYA, "2025-03-11T11:00:00+01:00")[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("'Percepció mínima carreres origen aeroport incloent tots els suplements 20,00 €'")
  })
  it("B3: a trip before 2024-01-01 (the 2023 rule differs: flag €2.55, T-2 €1.51/km) is refused, not priced on the 2024 rule", () => {
    const trip = (at: string) => suppliedTrip(market, AIRPORT, CATALUNYA, 15, 25)(at)
    expect(market.offers(trip("2023-06-13T11:00:00+02:00"))).toEqual([])
    expect(market.unoffered?.(trip("2023-06-13T11:00:00+02:00"))?.message)
      .toBe("market barcelona knows no rule in force on 2023-06-13: its earliest known rule is in force from 2024-01-01")
    expect(market.offers(trip("2024-01-01T00:30:00+01:00")).length).toBe(1)
  })
})
