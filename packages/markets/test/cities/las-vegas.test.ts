/**
 * Las Vegas (Nevada Taxicab Authority rates of 2023-06-05): the meter on worked examples, the
 * airport fee, the 3 % excise tax on everything, and the three airport–Strip zone flat rates.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { meterOn, MILE, shippedMarket, view } from "./support.js"

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
    for (const p of [T1, T3, BELLAGIO, FREMONT, HENDERSON]) expect(market.serves(p)).toBe(true)
    expect(market.serves({ latitude: 36.1699, longitude: -115.6 })).toBe(false)
  })
})
