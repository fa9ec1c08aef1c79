/**
 * Dubai (RTA taxi tariff, from the tariff alone): the meter of each per-km rate found, the
 * night and airport flag falls, the AED 12 minimum and the version boundaries.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import type { TariffTripView } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterFare, meterForView, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("dubai")
const meterAtView = (v: TariffTripView) => meterForView(tariff, v)
const dxb = market.tariffs.locate({ latitude: 25.2528, longitude: 55.3644 })
const downtown = market.tariffs.locate({ latitude: 25.1972, longitude: 55.2744 })

describe("Dubai: RTA taxi tariff, AED 2.26 per km (reported April 2025; caveat)", () => {
  it("street hail by day: AED 5 + AED 2.26/km — 10 km is 5 + 22.60 = AED 27.60", () => {
    const m = meterAtView(view("2026-12-08", 11 * 60))
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(27.6, 9)
    // 10 minutes of waiting at AED 0.50 a minute on top: 27.60 + 5.00
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 600 })).toBeCloseTo(32.6, 9)
  })
  it("night 22:00–06:00: AED 5.50 flag fall — 10 km at 23:00 is 5.50 + 22.60 = AED 28.10, at 05:59 too, at 06:00 the day's", () => {
    expect(meterAmount(meterAtView(view("2026-12-08", 23 * 60)), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(28.1, 9)
    expect(meterAmount(meterAtView(view("2026-12-08", 5 * 60 + 59)), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(28.1, 9)
    expect(meterAmount(meterAtView(view("2026-12-08", 6 * 60)), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(27.6, 9)
  })
  it("from DXB: AED 25 flag fall day and night — 15 km is 25 + 33.90 = AED 58.90; to DXB the street flag fall", () => {
    expect(meterAmount(meterAtView(view("2026-12-08", 11 * 60, dxb, downtown)), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(58.9, 9)
    expect(meterAmount(meterAtView(view("2026-12-08", 23 * 60, dxb, downtown)), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(58.9, 9)
    expect(meterAmount(meterAtView(view("2026-12-08", 11 * 60, downtown, dxb)), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(5 + 33.9, 9)
  })
  it("the AED 12 minimum: 2 km is 5 + 4.52 = 9.52 on the meter, AED 12 to pay; Salik passed on", () => {
    const v = view("2026-12-08")
    const m = meterAtView(v)
    const fare = meterAmount(m, { meterKm: 2, meterSeconds: 0 })
    expect(fare).toBeCloseTo(9.52, 9)
    const charges = meterCharges(tariff, v)
    expect(charges.total(fare, 0)).toBeCloseTo(12, 9)
    expect(charges.total(fare, 4)).toBeCloseTo(16, 9)
    expect(charges.total(27.6, 4)).toBeCloseTo(31.6, 9)
  })
  it("today's version carries its caveat (the fuel-linked rate after April 2025 not found; AED 2.26 last seen 2025-11-05)", () => {
    const v = versionAt(tariff, "2026-12-06")
    expect(v.effectiveFrom).toBe("2025-04-01")
    expect(v.caveat?.note).toContain("fuel")
    expect(v.caveat?.note).toContain("2025-11-05")
    expect(v.caveat?.checked).toBe("2026-12-06")
  })
  it("a supplied route DXB → Downtown (15 km, 20 min, free-flowing) is priced between the meter with and without slow time", () => {
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 15, durationMinutes: 20, routeSource: "supplied" }, view("2026-12-08", 11 * 60, dxb, downtown), 2)
    const m = meterAtView(view("2026-12-08", 11 * 60, dxb, downtown))
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(58.9 - 1e-9)
    expect(priced.distribution.quantile(0.95)).toBeLessThanOrEqual(meterFare(m, 15, 20, 20) + 1e-9)
  })
})

describe("Dubai before: AED 1.97 (from December 2022, in force 2024-01-01), AED 2.09 (May 2024), AED 2.14 (August 2024)", () => {
  it("10 km by day: 5 + 19.70 = AED 24.70 on 2024-01-01, 5 + 20.90 = 25.90 in June 2024, 5 + 21.40 = 26.40 in 2024-12", () => {
    const at = (date: string) => meterAmount(meterAtView(view(date)), { meterKm: 10, meterSeconds: 0 })
    expect(at("2024-01-01")).toBeCloseTo(24.7, 9)
    expect(at("2024-06-04")).toBeCloseTo(25.9, 9)
    expect(at("2024-12-03")).toBeCloseTo(26.4, 9)
    // From DXB on 2024-01-01: 25 + 15 × 1.97 = 54.55
    expect(meterAmount(meterAtView(view("2024-01-01", 11 * 60, dxb, downtown)), { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(54.55, 9)
  })
  it("version boundaries", () => {
    expect(["2024-01-01", "2024-04-30", "2024-05-01", "2024-07-31", "2024-08-01", "2025-03-31", "2025-04-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2022-12-01", "2022-12-01", "2024-05-01", "2024-05-01", "2024-08-01", "2024-08-01", "2025-04-01"])
    expect(versionAt(tariff, "2024-01-01").caveat).toBeUndefined()
  })
})

describe("Dubai: trips before the first rule (2022-12-01) are refused (audit G1)", () => {
  const FROM = { latitude: 25.1972, longitude: 55.2744 }
  const TO = { latitude: 25.2697, longitude: 55.3095 }
  it("before December 2022: AED 2.19 per km (pledgetimes.com 2023-01-12: 2.19 → 1.97): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("dubai").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2022-11-27T11:00:00+04:00", "2022-12-01T11:00:00+04:00")
  })
})
