/**
 * Mexico City: the taxi libre tariff of 2013-04-01 (banderazo MXN 8.74, MXN 1.07 per 250 m or
 * 45 s on one counter; 23:00–06:00 MXN 10.48 and 1.28), on worked examples by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, meterForView, shippedMarket, tripsOf, view } from "./support.js"

const { doc, market, tariff } = shippedMarket("mexico-city")
const meterAtMinute = (date: string, minute: number) => meterForView(tariff, view(date, minute))

describe("Mexico City: taxi libre tariff of 2013-04-01", () => {
  const day = meterAtMinute("2026-12-08", 11 * 60)
  it("5 km with no slow time: MXN 8.74 + 20 increments of 250 m × 1.07 = 30.14", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(30.14, 9)
  })
  it("5 km and 3 minutes slow on one counter: 180 s = 4 increments, 24 × 1.07 + 8.74 = 34.42", () => {
    expect(meterAmount(day, { meterKm: 5, meterSeconds: 180 })).toBeCloseTo(34.42, 9)
  })
  it("an increment is charged once its 250 m (or 45 s) are completed", () => {
    expect(meterAmount(day, { meterKm: 0.24, meterSeconds: 0 })).toBeCloseTo(8.74, 9)
    expect(meterAmount(day, { meterKm: 0.25, meterSeconds: 0 })).toBeCloseTo(9.81, 9)
    expect(meterAmount(day, { meterKm: 0, meterSeconds: 90 })).toBeCloseTo(8.74 + 2 * 1.07, 9)
  })
  it("night service 23:00–06:00: MXN 10.48 + 20 × 1.28 = 36.08 for 5 km (day rate at 06:00 and 22:59)", () => {
    for (const minute of [23 * 60, 1 * 60, 5 * 60 + 59]) {
      expect(meterAmount(meterAtMinute("2026-12-08", minute), { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(36.08, 9)
    }
    for (const minute of [6 * 60, 22 * 60 + 59]) {
      expect(meterAmount(meterAtMinute("2026-12-08", minute), { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(30.14, 9)
    }
  })
  it("the same rule on 2024-01-01; the offer carries the AICM and 2026 caveat; the Zócalo is served", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2013-04-01")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("Pick-ups at AICM are not served")
    // Update check of 2026-12-06: the Gaceta's 2025-11-01 rise was for the colectivo; no taxi revision found.
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("colectivo")
    expect(market.serves({ latitude: 19.4326, longitude: -99.1332 })).toBe(true)
    expect(market.serves({ latitude: 19.2826, longitude: -99.6557 })).toBe(false) // Toluca
    expect(doc.currency).toBe("MXN")
  })
})

/** AICM Terminal 1 (the former listed reference point) and the Zócalo. */
const AICM_T1 = { latitude: 19.4363, longitude: -99.0721 }
const ZOCALO = { latitude: 19.4326, longitude: -99.1332 }
/** `km` from the `aicm` zone's centre (19.4326, -99.0746) at a bearing (degrees from north), on the mean sphere. */
const fromAicmCentre = (km: number, bearing: number) => {
  const r = (bearing * Math.PI) / 180, lat = 19.4326
  return {
    latitude: lat + ((km * Math.cos(r)) / 6371.0088) * (180 / Math.PI),
    longitude: -99.0746 + ((km * Math.sin(r)) / (6371.0088 * Math.cos((lat * Math.PI) / 180))) * (180 / Math.PI)
  }
}

describe("Mexico City and AICM (audit F-MEX-1): pick-ups at the airport are not priced, drop-offs there are", () => {
  it("AICM → Zócalo is refused as no-rule-for-trip, naming the airport's authorised taxis: the market holds the place but prices no pick-up in the aicm zone (r 2 km)", () => {
    // Only the airport's authorised taxis pick up at AICM, at their own federally authorised fares (not this meter).
    expect(market.serves(AICM_T1)).toBe(true)
    const { offers } = tripsOf(market, 11, 20)
    const trip = suppliedTrip(market, AICM_T1, ZOCALO, 11, 20)("2026-12-08T11:00:00-06:00")
    expect(market.offers(trip)).toEqual([])
    const refusal = market.unoffered?.(trip)
    expect(refusal?.reason).toBe("no-rule-for-trip")
    expect(refusal?.message).toMatch(/^market mexico-city does not price pick-ups at aicm: only the airport's authorised taxis load at AICM/)
    for (let bearing = 0; bearing < 360; bearing += 15) {
      expect(offers(fromAicmCentre(0, bearing), ZOCALO, "2026-12-08T11:00:00-06:00"), "centre").toEqual([])
      expect(offers(fromAicmCentre(1.99, bearing), ZOCALO, "2026-12-08T11:00:00-06:00"), `1.99 km at ${bearing}°`).toEqual([])
      // Just outside the zone (2.1 km) the street meter prices the pick-up again.
      expect(offers(fromAicmCentre(2.1, bearing), ZOCALO, "2026-12-08T11:00:00-06:00"), `2.1 km at ${bearing}°`).toHaveLength(1)
    }
    expect(doc.airports.map((a) => a.iata)).not.toContain("MEX")
    expect(market.tariffs.locate(AICM_T1).has("aicm")).toBe(true)
  })
  it("Zócalo → AICM is priced on the meter: 11 km in 20 min (33 km/h, no slow time at p5): 44 × 1.07 + 8.74 = MXN 55.82", () => {
    const { offers } = tripsOf(market, 11, 20)
    const [offer] = offers(ZOCALO, AICM_T1, "2026-12-08T11:00:00-06:00")
    expect(offer?.distribution.quantile(0.05)).toBeCloseTo(55.82, 2)
    expect(market.unoffered?.(suppliedTrip(market, ZOCALO, AICM_T1, 11, 20)("2026-12-08T11:00:00-06:00"))).toBeUndefined()
  })
})

describe("Mexico City before 2013-04-01 (audit F-ALL-1)", () => {
  it("a trip before 2013-04-01 is refused (no-rule-for-date): the meter before it differed (7.88 + 0.96 from December 2011, day not found; 7.04 + 0.86 from 2011-01-24)", () => {
    const trip = suppliedTrip(market, ZOCALO, { latitude: 19.4270, longitude: -99.1677 }, 5, 15)
    expectRefusedBefore(market, trip, ["2012-06-05T11:00:00-05:00", "2013-03-31T23:30:00-06:00"], "2013-04-01T11:00:00-06:00")
    expect(market.offers(trip("2013-04-01T11:00:00-06:00"))).toHaveLength(1)
  })
})
