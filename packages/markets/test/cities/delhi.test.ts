/**
 * Delhi (GNCTD taxi fare notified 2023-01-11, from the tariff alone): ₹40 for the first km,
 * ₹17/km non-AC and ₹20/km AC, ₹1 a minute of slow time after 15 minutes, night +25 %.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterOn, shippedMarket, tariffOf, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market } = shippedMarket("delhi")
const [nonAc, ac] = [tariffOf(doc, 0), tariffOf(doc, 1)]

describe("Delhi: GNCTD taxi fare of 2023-01-11 (in force 2024-01-01 and, as far as found, today; caveat)", () => {
  it("non-AC: ₹40 for the first km, ₹17 a km after — 10 km is 40 + 9 × 17 = ₹193; AC ₹20 a km — 40 + 180 = ₹220", () => {
    expect(meterAmount(meterOn(nonAc, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(193, 9)
    expect(meterAmount(meterOn(ac, "2026-12-08"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(220, 9)
    expect(meterAmount(meterOn(nonAc, "2026-12-08"), { meterKm: 0.8, meterSeconds: 0 })).toBeCloseTo(40, 9)
  })
  it("waiting ₹1 a minute after the first 15 minutes: 25 minutes slow add ₹10", () => {
    const m = meterOn(nonAc, "2026-12-08")
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 15 * 60 })).toBeCloseTo(193, 9)
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 25 * 60 })).toBeCloseTo(203, 9)
  })
  it("night 23:00–05:00: 25 % of the fare extra — ₹193 at 23:30 is ₹241.25; at 05:00 the day fare", () => {
    const at = (minute: number) => {
      const v = view("2026-12-08", minute)
      return meterCharges(nonAc, v).total(193, 0)
    }
    expect(at(23 * 60 + 30)).toBeCloseTo(241.25, 9)
    expect(at(4 * 60 + 59)).toBeCloseTo(241.25, 9)
    expect(at(5 * 60)).toBeCloseTo(193, 9)
    expect(at(22 * 60 + 59)).toBeCloseTo(193, 9)
  })
  it("DEL (T1 and T3) is in its zone and metered like any trip; the same version on 2024-01-01 and today, with its caveat", () => {
    const t3 = market.tariffs.locate({ latitude: 28.5562, longitude: 77.1 })
    const t1 = market.tariffs.locate({ latitude: 28.5665, longitude: 77.1207 })
    expect(t3.has("del") && t1.has("del")).toBe(true)
    const cp = market.tariffs.locate({ latitude: 28.6315, longitude: 77.2167 })
    const priced = priceTrip(market.tariffs, nonAc, { distanceKm: 16, durationMinutes: 40, routeSource: "supplied" }, view("2026-12-08", 660, t3, cp), 2)
    // 16 km: at least 40 + 15 × 17 = ₹295 on the meter (slow time only adds).
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(295 - 1e-9)
    expect(versionAt(nonAc, "2024-01-01").effectiveFrom).toBe("2023-01-11")
    expect(versionAt(nonAc, "2026-12-06").caveat?.checked).toBe("2026-12-06")
  })
})

describe("Delhi: trips before the first rule (2023-01-11) are refused (audit G1)", () => {
  const FROM = { latitude: 28.5562, longitude: 77.1 }
  const TO = { latitude: 28.6315, longitude: 77.2167 }
  const { offers } = tripsOf(market, 16, 40)
  it("the fare before (₹25 meter-down, ₹14 per km non-AC, ₹16 AC; Business Today 2023-01-11, Hindustan Times 2022-07-02) differed: no-rule-for-date, not a price on the later rule", () => {
    expectRefusedBefore(market, suppliedTrip(market, FROM, TO, 16, 40), ["2022-06-08T11:00:00+05:30", "2023-01-10T11:00:00+05:30"], "2023-01-11T11:00:00+05:30")
    // 2023-01-11 11:00, DEL → Connaught Place 16 km in 40 min: non-AC 40 + 15 × 17 = ₹295, AC 40 + 15 × 20 = ₹340.
    expect(offers(FROM, TO, "2023-01-11T11:00:00+05:30").map((o) => o.distribution.quantile(0.05))).toEqual([295, 340])
  })
})
