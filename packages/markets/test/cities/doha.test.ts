/**
 * Doha (Mowasalat/Karwa taxi tariff of 2018-02-01, from the tariff alone): QR4 flag fall,
 * QR1.60 per km inside Doha by day, QR10 minimum plus the QR1 technology charge, QR25 from HIA.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { chargesFor, definedMarket, meterAmount, meterFor, parseTariff, priceTrip, SHIPPED_MARKETS_DIR, versionAt } from "@ridequote/markets"
import type { TariffDocument, TariffTripView } from "@ridequote/markets"

const doc: TariffDocument = Either.getOrThrow(parseTariff("doha", readFileSync(join(SHIPPED_MARKETS_DIR, "doha-tariff.json"), "utf8")))
const market = (() => {
  const m = definedMarket(doc)
  if (m === undefined) throw new Error("doha defines no market")
  return m
})()
const tariff = (() => {
  const t = doc.tariffs[0]
  if (t === undefined) throw new Error("no tariff")
  return t
})()
const none: ReadonlySet<string> = new Set()
const view = (date: string, minuteOfDay = 660, pickup: ReadonlySet<string> = none, dropoff: ReadonlySet<string> = none): TariffTripView => ({
  localDate: date,
  moment: { localDate: date, dayOfWeek: new Date(`${date}T00:00:00Z`).getUTCDay(), minuteOfDay },
  places: { pickup, dropoff }
})
const meterAtView = (v: TariffTripView) => {
  const m = meterFor(versionAt(tariff, v.localDate), v, new Set()).meter
  if (m === undefined) throw new Error("no meter")
  return m
}
const hia = market.tariffs.locate({ latitude: 25.2731, longitude: 51.6081 })
const westBay = market.tariffs.locate({ latitude: 25.3250, longitude: 51.5310 })

describe("Doha: Karwa tariff of 2018-02-01 (in force 2024-01-01; newest found, caveat)", () => {
  it("street: QR4 + QR1.60 a km — 10 km is 4 + 16 = QR20, QR21 with the technology charge", () => {
    const v = view("2026-12-08")
    const fare = meterAmount(meterAtView(v), { meterKm: 10, meterSeconds: 0 })
    expect(fare).toBeCloseTo(20, 9)
    expect(chargesFor(versionAt(tariff, "2026-12-08"), "meter", v.moment, v.places, new Set(), 2).total(fare, 0)).toBeCloseTo(21, 9)
  })
  it("the QR10 minimum plus QR1: 2 km (4 + 3.20 = 7.20) costs QR11", () => {
    const v = view("2026-12-08")
    const fare = meterAmount(meterAtView(v), { meterKm: 2, meterSeconds: 0 })
    expect(fare).toBeCloseTo(7.2, 9)
    expect(chargesFor(versionAt(tariff, "2026-12-08"), "meter", v.moment, v.places, new Set(), 2).total(fare, 0)).toBeCloseTo(11, 9)
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
