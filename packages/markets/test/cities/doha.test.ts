/**
 * Doha (Mowasalat/Karwa taxi tariff of 2018-02-01, from the tariff alone): QR4 flag fall,
 * QR1.60 per km inside Doha by day, QR10 minimum plus the QR1 technology charge, QR25 from HIA.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import type { TariffTripView } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterForView, shippedMarket, tripsOf, type Point, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("doha")
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

// Audit group d (2026-12-06), finding D2: the HIA zone is centred on the passenger terminal. Two
// stored data files place the terminal at 25.2611, 51.6131 (a map's "Doha Hamad International
// Airport") and 25.2609, 51.6138 (a charging-station list's "Hamad International Airport, Doha");
// the old circle (1.5 km round the reference point 25.2731, 51.6081) reached them by 30–70 m only.
const ARP: Point = { latitude: 25.2731, longitude: 51.6081 }
const TERMINAL_MAP: Point = { latitude: 25.2611, longitude: 51.6131 }
const TERMINAL_CHARGER: Point = { latitude: 25.2609, longitude: 51.6138 }
const SOUTH_OF_TERMINAL: Point = { latitude: 25.2585, longitude: 51.6130 } // ≈ 290 m south of the new centre, 1.70 km from the old
const SOUQ_WAQIF: Point = { latitude: 25.2867, longitude: 51.5333 }

describe("Doha: audit d fixes (2026-12-06)", () => {
  const { offers, price } = tripsOf(market, 13, 18)
  it("D2: the HIA zone is a 1.5 km circle on the terminal (25.2611, 51.6134): the terminal points, a pick-up 290 m south of them and the reference point inside; Souq Waqif not", () => {
    const inDoh = (p: Point) => market.tariffs.locate(p).has("doh")
    expect([TERMINAL_MAP, TERMINAL_CHARGER, SOUTH_OF_TERMINAL, ARP].map(inDoh)).toEqual([true, true, true, true])
    expect(inDoh(SOUQ_WAQIF)).toBe(false)
    expect(doc.airports.map((a) => [a.iata, a.zone])).toEqual([["DOH", "doh"]])
  })
  it("D2: from 290 m south of the terminal to Souq Waqif, 13 km by day (2026-12-08 11:00): the airport base, 25 + 13 × 1.60 = 45.80 + 1 = QR46.80 (was the street meter's QR25.80)", () => {
    expect(price(SOUTH_OF_TERMINAL, SOUQ_WAQIF, "2026-12-08T11:00:00+03:00")).toEqual([[46.8, 46.8]])
  })
  it("D1: the night rate QR1.90/km is not priced (its hours not found): Souq Waqif → HIA 13 km at 23:30 is 4 + 20.80 + 1 = QR25.80, and the offer carries the caveat naming the rate and the 13 % (QR29.70 on the night rate)", () => {
    const at = "2026-12-08T23:30:00+03:00"
    expect(price(SOUQ_WAQIF, TERMINAL_MAP, at)).toEqual([[25.8, 25.8]])
    const evidence = offers(SOUQ_WAQIF, TERMINAL_MAP, at)[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("QR1.90 per km")
    expect(evidence).toContain("its hours were not found")
    expect(evidence).toContain("4 + 13 × 1.90 + 1 = QR29.70 (13 % low)")
  })
})

describe("Doha: trips before the first rule (2018-02-01) are refused (audit G1)", () => {
  const FROM = { latitude: 25.2867, longitude: 51.5333 }
  const TO = { latitude: 25.3215, longitude: 51.527 }
  it("before 2018-02-01: QR1.20 per km by day (I Love Qatar 2018-02-01: day rate up 40 dirhams a km; Madhyamam 2018-02-07): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("doha").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2018-01-28T11:00:00+03:00", "2018-02-01T11:00:00+03:00")
  })
})
