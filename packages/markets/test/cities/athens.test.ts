/**
 * Athens (Greek national taxi tariff of the Ministry of Infrastructure and Transport, decision of
 * 2022-06-17): the meter (Τιμολόγιο 1 by day, 2 from 00:00 to 05:00) on worked examples computed
 * by hand from the decision's σημαία, €/km and €/hour, the €4 minimum, the €4 airport charge, and
 * the airport – centre (δακτύλιος) fixed fares of €40 and €55. Sources: packages/markets/models/sources/athens.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, meterForView, shippedMarket, spreadEnds, view } from "./support.js"

const { market, tariff } = shippedMarket("athens")
const holidays: ReadonlySet<string> = new Set()
const meterAt = (date: string, minute = 660) => meterForView(tariff, view(date, minute), holidays)
const AIRPORT = { latitude: 37.9364, longitude: 23.9445 }
const SYNTAGMA = { latitude: 37.9755, longitude: 23.7348 }
const OMONOIA = { latitude: 37.9841, longitude: 23.7281 }
const KYPSELI = { latitude: 38.0030, longitude: 23.7370 }

describe("Athens: the 2022 national tariff (today's and 2024-01-01's)", () => {
  it("Τιμολόγιο 1: €1.80 + €0.90/km, €15 an hour stopped", () => {
    // 10 km at 11:00: 1.80 + 9.00 = 10.80.
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(10.8, 9)
    // 20 minutes stopped: 33 completed units of 36 s × €0.15 = €4.95 + 1.80 (the hour's €15 pro rata is €5.00).
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 0, meterSeconds: 1200 })).toBeCloseTo(6.75, 9)
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(16.8, 9)
    // 8 km and 10 minutes slow: 1.80 + 7.20 + 16 completed units (€2.40) = 11.40.
    expect(meterAmount(meterAt("2026-12-08"), { meterKm: 8, meterSeconds: 600 })).toBeCloseTo(11.4, 9)
    expect(meterAt("2026-12-08").time.crossoverKmh).toBeCloseTo(15 / 0.9, 9)
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2022-06-17")
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
  })
  it("Τιμολόγιο 2 from 00:00 to 05:00: €1.25/km", () => {
    // 10 km at 02:00: 1.80 + 12.50 = 14.30; 04:59 still Τιμολόγιο 2, 05:00 and 23:59 Τιμολόγιο 1.
    expect(meterAmount(meterAt("2026-12-08", 2 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(14.3, 9)
    expect(meterAmount(meterAt("2026-12-08", 4 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(14.3, 9)
    expect(meterAmount(meterAt("2026-12-08", 5 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(10.8, 9)
    expect(meterAmount(meterAt("2026-12-08", 23 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(10.8, 9)
    expect(meterAmount(meterAt("2024-01-01", 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(14.3, 9)
  })
  it("the minimum fare is €4 (ελάχιστη διαδρομή)", () => {
    const v = versionAt(tariff, "2026-12-08")
    // 1 km by day: 1.80 + 0.90 = 2.70 → 4.00; 3 km: 4.50 stays.
    const short = meterAmount(meterAt("2026-12-08"), { meterKm: 1, meterSeconds: 0 })
    expect(short).toBeCloseTo(2.7, 9)
    expect(chargesFor(v, "meter", view("2026-12-08").moment, view("2026-12-08").places, holidays, 2).total(short, 0)).toBeCloseTo(4, 9)
    expect(chargesFor(v, "meter", view("2026-12-08").moment, view("2026-12-08").places, holidays, 2).total(4.5, 0)).toBeCloseTo(4.5, 9)
  })
})

describe("Athens airport (ATH)", () => {
  const ath = market.tariffs.locate(AIRPORT), syntagma = market.tariffs.locate(SYNTAGMA), omonoia = market.tariffs.locate(OMONOIA), kypseli = market.tariffs.locate(KYPSELI)
  it("the airport and the δακτύλιος are located; the airport lies outside the city and is served", () => {
    expect(ath.has("ath")).toBe(true)
    expect(syntagma.has("athens-daktylios")).toBe(true)
    expect(omonoia.has("athens-daktylios")).toBe(true)
    expect(kypseli.has("athens-daktylios")).toBe(false)
    expect(market.serves(AIRPORT)).toBe(true)
  })
  it("airport – centre is €40 (05:00–24:00) and €55 (00:00–05:00), either way, whatever the meter", () => {
    const fixed = (date: string, minute: number, a: ReadonlySet<string>, b: ReadonlySet<string>) =>
      spreadEnds(priceTrip(market.tariffs, tariff, { distanceKm: 33, durationMinutes: 45, routeSource: "resolved" }, view(date, minute, a, b), 2))
    expect(fixed("2026-12-08", 11 * 60, ath, syntagma)).toEqual([40, 40])
    expect(fixed("2026-12-08", 11 * 60, omonoia, ath)).toEqual([40, 40])
    expect(fixed("2026-12-08", 5 * 60, ath, syntagma)).toEqual([40, 40])
    expect(fixed("2026-12-08", 23 * 60 + 59, syntagma, ath)).toEqual([40, 40])
    expect(fixed("2026-12-08", 2 * 60, ath, syntagma)).toEqual([55, 55])
    expect(fixed("2024-01-01", 0, syntagma, ath)).toEqual([55, 55])
  })
  it("elsewhere the meter runs, plus the €4 airport charge", () => {
    const v = versionAt(tariff, "2026-12-08")
    // 30 km by day from the airport to Kypseli: 1.80 + 27.00 = 28.80, + 4 = 32.80.
    const fare = meterAmount(meterAt("2026-12-08"), { meterKm: 30, meterSeconds: 0 })
    expect(fare).toBeCloseTo(28.8, 9)
    for (const [a, b] of [[ath, kypseli], [kypseli, ath]] as const) {
      expect(chargesFor(v, "meter", view("2026-12-08").moment, { pickup: a, dropoff: b }, holidays, 2).total(fare, 0)).toBeCloseTo(32.8, 9)
    }
    expect(chargesFor(v, "meter", view("2026-12-08").moment, { pickup: kypseli, dropoff: syntagma }, holidays, 2).total(fare, 0)).toBeCloseTo(28.8, 9)
    const metered = priceTrip(market.tariffs, tariff, { distanceKm: 30, durationMinutes: 40, routeSource: "resolved" }, view("2026-12-08", 660, ath, kypseli), 2)
    expect(metered.fare).toBeUndefined()
    expect(metered.distribution.quantile(0.5)).toBeGreaterThan(20)
  })
})

describe("Athens before 2022-06-17: refused (the earlier tariffs, σημαία €1.19–1.30 and €0.68–0.74/km, are known to differ)", () => {
  it("ATH → Syntagma on 2021-06-01 gets no price (no-rule-for-date), where it would have been the 2022 fixed fare (€40)", () => {
    const trip = (at: string) => suppliedTrip(market, AIRPORT, SYNTAGMA, 33, 40)(at)
    expectRefusedBefore(market, trip, ["2021-06-01T11:00:00+03:00", "2022-06-16T11:00:00+03:00"], "2022-06-17T11:00:00+03:00")
    expect(market.offers(trip("2022-06-17T11:00:00+03:00")).map(spreadEnds)).toEqual([[40, 40]])
  })
})
