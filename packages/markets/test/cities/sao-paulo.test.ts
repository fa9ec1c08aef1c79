/**
 * São Paulo (Prefeitura de São Paulo, Sistema Táxi, Categoria Comum): the portarias of 2022
 * (from 2022-04-02), 2023 (from 2023-10-28) and 2025 (from 2025-08-11) on worked examples
 * computed by hand from the bandeirada, tarifa quilométrica and tarifa horária; Bandeira 2 (+30 %
 * on the km rate) at night, on Sundays and holidays; the version boundaries; GRU (in Guarulhos:
 * dropped off on the meter, not picked up). Sources: packages/markets/models/sources/sao-paulo.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, meterForView, shippedMarket, view } from "./support.js"

const { doc, market, tariff } = shippedMarket("sao-paulo")
const holidays = new Set(doc.holidays.map((h) => h.date))
const meterAt = (date: string, minute = 660) => meterForView(tariff, view(date, minute), holidays)
const tenKm = (date: string, minute = 660) => meterAmount(meterAt(date, minute), { meterKm: 10, meterSeconds: 0 })
const GRU = { latitude: -23.4322, longitude: -46.4692 }
const SE = { latitude: -23.5505, longitude: -46.6333 }
const PAULISTA = { latitude: -23.5614, longitude: -46.6559 }

describe("São Paulo: the 2025 portaria (from 2025-08-11), Categoria Comum", () => {
  it("Bandeira 1: R$ 6,55 + R$ 4,80/km; R$ 55,50 an hour stopped or below 15 km/h", () => {
    // Tuesday 2026-12-08 11:00, 10 km: 6.55 + 48.00 = 54.55.
    expect(tenKm("2026-12-08")).toBeCloseTo(54.55, 9)
    // 10 km and 12 minutes slow: 20 units of 36 s × R$ 0,555 = R$ 11,10 → 65.65.
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(65.65, 9)
    // An hour standing: 6.55 + 55.50.
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(62.05, 9)
    expect(meterAt("2026-12-08").time.crossoverKmh).toBe(15)
  })
  it("Bandeira 2: +30 % on the km rate (R$ 6,24) 20:00–06:00, on Sundays and on holidays; the hourly rate unchanged", () => {
    // 10 km: 6.55 + 62.40 = 68.95.
    const b2 = 68.95
    expect(tenKm("2026-12-08", 20 * 60)).toBeCloseTo(b2, 9)
    expect(tenKm("2026-12-09", 5 * 60 + 59)).toBeCloseTo(b2, 9)
    expect(tenKm("2026-12-09", 6 * 60)).toBeCloseTo(54.55, 9)
    expect(tenKm("2026-12-08", 19 * 60 + 59)).toBeCloseTo(54.55, 9)
    // Saturday by day is Bandeira 1; Sunday is Bandeira 2 all day.
    expect(tenKm("2026-12-05", 15 * 60)).toBeCloseTo(54.55, 9)
    expect(tenKm("2026-12-06", 15 * 60)).toBeCloseTo(b2, 9)
    // Holidays: Consciência Negra (Friday 2026-11-20), Christmas (Friday 2026-12-25), the city's anniversary (Monday 2027-01-25).
    for (const d of ["2026-11-20", "2026-12-25", "2027-01-25"]) expect(tenKm(d)).toBeCloseTo(b2, 9)
    expect(meterAmount(meterAt("2026-12-06"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(62.05, 9)
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    // Update check of 2026-12-06: no 2026 readjustment found; the 2025 rule stays today's.
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("update check of 2026-12-06")
  })
})

describe("São Paulo before 2025-08-11: the portarias of 2022 and 2023", () => {
  it("each date on its own rule; the boundaries", () => {
    expect(["2022-04-02", "2023-10-27", "2023-10-28", "2024-01-01", "2025-08-10", "2025-08-11"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2022-04-02", "2022-04-02", "2023-10-28", "2023-10-28", "2023-10-28", "2025-08-11"])
  })
  it("2023 (in force on 2024-01-01): R$ 6,00 + R$ 4,25/km, R$ 51/h; New Year's Day is Bandeira 2 (R$ 5,525/km)", () => {
    // 2024-01-01 (Monday, a holiday) 11:00, 10 km: 6.00 + 55.25 = 61.25; the next day 6.00 + 42.50 = 48.50.
    expect(tenKm("2024-01-01")).toBeCloseTo(61.25, 9)
    expect(tenKm("2024-01-02")).toBeCloseTo(48.5, 9)
    // 10 minutes standing: 16 completed units of 36 s × R$ 0,51 = 8.16.
    expect(meterAmount(meterAt("2024-01-02"), { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(14.16, 9)
  })
  it("2022: R$ 5,50 + R$ 4,00/km, R$ 49/h; Bandeira 2 R$ 5,20/km", () => {
    // Tuesday 2023-06-06, 10 km: 5.50 + 40.00; at 23:00: 5.50 + 52.00.
    expect(tenKm("2023-06-06")).toBeCloseTo(45.5, 9)
    expect(tenKm("2023-06-06", 23 * 60)).toBeCloseTo(57.5, 9)
  })
})

describe("São Paulo and GRU", () => {
  it("GRU lies in Guarulhos: pick-ups there are not the city's (Guarucoop's table); a city taxi to GRU runs its meter", () => {
    expect(market.serves(GRU)).toBe(false)
    expect(market.serves(SE)).toBe(true)
    expect(market.serves(PAULISTA)).toBe(true)
    const gru = market.tariffs.locate(GRU), se = market.tariffs.locate(SE)
    expect(gru.has("gru")).toBe(true)
    // About 28 km in 45 minutes on a weekday: the meter, nothing added; between the flag and all of it at the km rate
    // (6.55 + 134.40) less what slow stretches bill by the hour instead, and below distance and time both (+ R$ 41,63).
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 28, durationMinutes: 45, routeSource: "resolved" }, view("2026-12-08", 660, se, gru), 2)
    expect(priced.fare).toBeUndefined()
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(100)
    expect(priced.distribution.quantile(0.5)).toBeLessThan(6.55 + 28 * 4.8 + 0.75 * 55.5)
    expect(priced.distribution.quantile(0.05)).toBeLessThan(priced.distribution.quantile(0.95))
  })
})

describe("São Paulo before 2022-04-02 (audit F-ALL-1)", () => {
  it("a trip before 2022-04-02 is refused (no-rule-for-date): the earlier rule differed (bandeirada R$ 4,50, R$ 2,75/km, R$ 33/h, Revista Oeste and Estadão 2022-03)", () => {
    const trip = suppliedTrip(market, SE, PAULISTA, 3, 12)
    expectRefusedBefore(market, trip, ["2019-06-04T11:00:00-03:00", "2022-04-01T23:30:00-03:00"], "2022-04-02T11:00:00-03:00")
    expect(market.offers(trip("2022-04-02T11:00:00-03:00"))).toHaveLength(1)
  })
})
