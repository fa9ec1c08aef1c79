/**
 * Las Vegas (Nevada Taxicab Authority rates of 2023-06-05): the meter on worked examples, the
 * airport fee, the 3 % excise tax on everything, and the three airport–Strip zone flat rates.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, meterOn, MILE, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("las-vegas")
const T1 = { latitude: 36.0843, longitude: -115.1537 }
const T3 = { latitude: 36.0795, longitude: -115.1385 }
const MANDALAY_BAY = { latitude: 36.0909, longitude: -115.1761 } // Zone 1
const BELLAGIO = { latitude: 36.1126, longitude: -115.1767 } // Zone 2
const WYNN = { latitude: 36.1265, longitude: -115.1657 } // Zone 3
const FREMONT = { latitude: 36.1707, longitude: -115.1433 } // downtown, no zone
const HENDERSON = { latitude: 36.0395, longitude: -114.9817 }

describe("Las Vegas: Nevada Taxicab Authority rates of 2023-06-05", () => {
  const meter = meterOn(tariff, "2026-12-08")
  const v = versionAt(tariff, "2026-12-08")
  it("$5.25 on activation, $0.35 per further 1/9 mile: 5 miles are 5.25 + 44 × 0.35 = $20.65; $32.40 an hour waiting", () => {
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(20.65, 9)
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 600 })).toBeCloseTo(20.65 + 5.4, 9)
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 3600 }) - 5.25).toBeCloseTo(32.4, 9)
  })
  it("the 3 % excise tax on the fare and on the $2.40 airport fee: 5 miles from the airport are (20.65 + 2.40) × 1.03 = $23.74", () => {
    const fromLas = chargesFor(v, "meter", view("2026-12-08").moment, { pickup: market.tariffs.locate(T1), dropoff: market.tariffs.locate(HENDERSON) }, new Set(), 2)
    expect(fromLas.total(20.65, 0)).toBeCloseTo((20.65 + 2.4) * 1.03, 9)
    expect(fromLas.itemize(20.65, 0).total).toBeCloseTo(23.74, 9)
    const toLas = chargesFor(v, "meter", view("2026-12-08").moment, { pickup: market.tariffs.locate(HENDERSON), dropoff: market.tariffs.locate(T3) }, new Set(), 2)
    expect(toLas.itemize(20.65, 0).total).toBeCloseTo(21.27, 9)
  })
  it("airport–Strip zone flat rates $22, $26, $30 both ways, with the pick-up fee from the airport and the excise tax", () => {
    for (const [place, amount] of [[MANDALAY_BAY, 22], [BELLAGIO, 26], [WYNN, 30]] as const) {
      for (const terminal of [T1, T3]) {
        const las = market.tariffs.locate(terminal), hotel = market.tariffs.locate(place)
        const from = priceTrip(market.tariffs, tariff, { distanceKm: 8, durationMinutes: 15, routeSource: "resolved" }, view("2026-12-08", 14 * 60, las, hotel), 2)
        const to = priceTrip(market.tariffs, tariff, { distanceKm: 8, durationMinutes: 15, routeSource: "resolved" }, view("2026-12-08", 14 * 60, hotel, las), 2)
        expect(from.distribution.quantile(0.05)).toBeCloseTo((amount + 2.4) * 1.03, 2)
        expect(from.distribution.quantile(0.95)).toBeCloseTo((amount + 2.4) * 1.03, 2)
        expect(to.distribution.quantile(0.5)).toBeCloseTo(amount * 1.03, 2)
      }
    }
    const downtown = priceTrip(market.tariffs, tariff, { distanceKm: 14, durationMinutes: 20, routeSource: "resolved" }, view("2026-12-08", 14 * 60, market.tariffs.locate(T1), market.tariffs.locate(FREMONT)), 2)
    expect(downtown.fare).toBeUndefined()
  })
  it("the 2023 rule prices 2024-01-01 and today; the airport and the Strip are served", () => {
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2023-06-05")
    expect(versionAt(tariff, "2026-12-06").effectiveFrom).toBe("2023-06-05")
    expect(versionAt(tariff, "2023-06-04").effectiveFrom).toBe("2020-01-01")
    for (const p of [T1, T3, BELLAGIO, FREMONT, HENDERSON]) expect(market.serves(p)).toBe(true)
    expect(market.serves({ latitude: 36.1699, longitude: -115.6 })).toBe(false)
  })
})

describe("Las Vegas: the 2023 F1 pilot surcharge (audit F-LAS-2; Nevada B&I release 2023-10-30)", () => {
  const trip = (from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }, date: string, minute: number, km = 8, minutes = 15) =>
    priceTrip(market.tariffs, tariff, { distanceKm: km, durationMinutes: minutes, routeSource: "resolved" }, view(date, minute, market.tariffs.locate(from), market.tariffs.locate(to)), 2)
  it("LAS → Bellagio (Zone 2) on 2023-11-17 15:00: ($26 + $15 + $2.40 airport fee) × 1.03 = $44.70 (the release's Zone 2 $41 + fee + tax)", () => {
    const priced = trip(T1, BELLAGIO, "2023-11-17", 15 * 60)
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(44.7, 2)
    expect(priced.distribution.quantile(0.95)).toBeCloseTo(44.7, 2)
    // Bellagio → LAS (no pick-up fee): (26 + 15) × 1.03 = 42.23.
    expect(trip(BELLAGIO, T1, "2023-11-17", 15 * 60).distribution.quantile(0.5)).toBeCloseTo(42.23, 2)
  })
  it("from noon on 2023-11-15 to noon on 2023-11-21, on metered trips touching the airport or a zone too; not Fremont ↔ Henderson", () => {
    const bellagio = (date: string, minute: number) => trip(T1, BELLAGIO, date, minute).distribution.quantile(0.5)
    expect(bellagio("2023-11-15", 11 * 60 + 59)).toBeCloseTo(29.25, 2) // (26 + 2.40) × 1.03
    expect(bellagio("2023-11-15", 12 * 60)).toBeCloseTo(44.7, 2)
    expect(bellagio("2023-11-21", 11 * 60 + 59)).toBeCloseTo(44.7, 2)
    expect(bellagio("2023-11-21", 12 * 60)).toBeCloseTo(29.25, 2)
    expect(bellagio("2023-11-22", 11 * 60)).toBeCloseTo(29.25, 2)
    // LAS → Fremont (metered), 14.5 km in 17 min: the surcharge on top of the meter, the spread moved by (15 × 1.03).
    const on = trip(T1, FREMONT, "2023-11-17", 15 * 60, 14.5, 17), off = trip(T1, FREMONT, "2024-01-10", 15 * 60, 14.5, 17)
    expect(on.distribution.quantile(0.05) - off.distribution.quantile(0.05)).toBeCloseTo(15.45, 2)
    const away = trip(FREMONT, HENDERSON, "2023-11-17", 15 * 60, 20, 25), awayAfter = trip(FREMONT, HENDERSON, "2024-01-10", 15 * 60, 20, 25)
    expect(away.distribution.quantile(0.5)).toBeCloseTo(awayAfter.distribution.quantile(0.5), 2)
  })
})

describe("Las Vegas before 2023-06-05 (audit F-LAS-1): $3.50 + $0.23 per 1/12 mile, zones $19 / $23 / $27, from 2020-01-01", () => {
  const v = versionAt(tariff, "2022-06-10")
  const meter = meterOn(tariff, "2022-06-10")
  it("LAS → Fremont, 14.5 km, 2022-06-10: 3.50 + ceil((14.5 − 0.134112) / 0.134112) = 108 × 0.23 = $28.34; no airport fee in this version; × 1.03 = $29.19", () => {
    expect(v.effectiveFrom).toBe("2020-01-01")
    expect(meterAmount(meter, { meterKm: 14.5, meterSeconds: 0 })).toBeCloseTo(28.34, 9)
    const fromLas = chargesFor(v, "meter", view("2022-06-10").moment, { pickup: market.tariffs.locate(T1), dropoff: market.tariffs.locate(FREMONT) }, new Set(), 2)
    expect(fromLas.itemize(28.34, 0).total).toBeCloseTo(29.19, 9)
    // $32.40 an hour waiting, as in 2023.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 3600 }) - 3.5).toBeCloseTo(32.4, 9)
    expect(v.caveat?.note).toContain("airport pick-up fee is NOT in this version")
  })
  it("LAS → Bellagio (Zone 2) on 2022-06-10: $23 × 1.03 = $23.69; Zone 1 $19, Zone 3 $27", () => {
    for (const [place, amount] of [[MANDALAY_BAY, 19], [BELLAGIO, 23], [WYNN, 27]] as const) {
      const priced = priceTrip(market.tariffs, tariff, { distanceKm: 8, durationMinutes: 15, routeSource: "resolved" }, view("2022-06-10", 14 * 60, market.tariffs.locate(T1), market.tariffs.locate(place)), 2)
      expect(priced.distribution.quantile(0.5)).toBeCloseTo(amount * 1.03, 2)
    }
  })
  it("a trip before 2020-01-01 is refused (no-rule-for-date): the rule before it differed ($3.45 + $0.22 per 1/13 mile from December 2014, Review-Journal) and the $3.50 meter's start is not known", () => {
    const trip = suppliedTrip(market, T1, FREMONT, 14.5, 17)
    expectRefusedBefore(market, trip, ["2019-06-10T11:00:00-07:00", "2019-12-31T23:30:00-08:00"], "2020-01-01T11:00:00-08:00")
    expect(market.offers(trip("2020-01-01T11:00:00-08:00"))).toHaveLength(1)
  })
})
