/**
 * Mexico City: the taxi libre tariff of 2013-04-01 (banderazo MXN 8.74, MXN 1.07 per 250 m or
 * 45 s on one counter; 23:00–06:00 MXN 10.48 and 1.28), on worked examples by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { meterForView, shippedMarket, view } from "./support.js"

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
  it("the same rule on 2024-01-01; the offer carries the AICM and 2026 caveat; AICM and the Zócalo are served", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2013-04-01")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("AICM")
    // Update check of 2026-12-06: the Gaceta's 2025-11-01 rise was for the colectivo; no taxi revision found.
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("colectivo")
    expect(market.serves({ latitude: 19.4363, longitude: -99.0721 })).toBe(true)
    expect(market.serves({ latitude: 19.4326, longitude: -99.1332 })).toBe(true)
    expect(market.serves({ latitude: 19.2826, longitude: -99.6557 })).toBe(false) // Toluca
    expect(doc.currency).toBe("MXN")
  })
})
