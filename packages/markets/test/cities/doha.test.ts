/**
 * Doha (Mowasalat/Karwa taxi tariff of 2018-02-01, from the tariff alone): QR4 flag fall,
 * QR1.60 per km inside Doha by day, QR10 minimum plus the QR1 technology charge, QR25 from HIA.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import type { TariffTripView } from "@ridequote/markets"
import { meterCharges, meterForView, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("doha")
const meterAtView = (v: TariffTripView) => meterForView(tariff, v)
const hia = market.tariffs.locate({ latitude: 25.2731, longitude: 51.6081 })
const westBay = market.tariffs.locate({ latitude: 25.3250, longitude: 51.5310 })

describe("Doha: Karwa tariff of 2018-02-01 (in force 2024-01-01; newest found, caveat)", () => {
  it("street: QR4 + QR1.60 a km — 10 km is 4 + 16 = QR20, QR21 with the technology charge", () => {
    const v = view("2026-12-08")
    const fare = meterAmount(meterAtView(v), { meterKm: 10, meterSeconds: 0 })
    expect(fare).toBeCloseTo(20, 9)
    expect(meterCharges(tariff, v).total(fare, 0)).toBeCloseTo(21, 9)
  })
  it("the QR10 minimum plus QR1: 2 km (4 + 3.20 = 7.20) costs QR11", () => {
    const v = view("2026-12-08")
    const fare = meterAmount(meterAtView(v), { meterKm: 2, meterSeconds: 0 })
    expect(fare).toBeCloseTo(7.2, 9)
    expect(meterCharges(tariff, v).total(fare, 0)).toBeCloseTo(11, 9)
  })
  it("from HIA: QR25 base — to West Bay 18 km is 25 + 28.80 = QR53.80 (+QR1); to HIA the street flag fall", () => {
    expect(meterAmount(meterAtView(view("2026-12-08", 660, hia, westBay)), { meterKm: 18, meterSeconds: 0 })).toBeCloseTo(53.8, 9)
    expect(meterAmount(meterAtView(view("2026-12-08", 660, westBay, hia)), { meterKm: 18, meterSeconds: 0 })).toBeCloseTo(32.8, 9)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 18, durationMinutes: 22, routeSource: "supplied" }, view("2026-12-08", 660, hia, westBay), 2)
    expect(priced.distribution.quantile(0.5)).toBeCloseTo(54.8, 9)
  })
  it("one version from 2018-02-01, carrying its caveat (night and outside-Doha rates not modelled)", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2018-02-01")
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("night")
  })
})
