/**
 * Taipei: the Greater Taipei taxi fare (Taipei City Public Transportation Office, shared with New
 * Taipei and Keelung), worked examples from the rule text (sources: models/sources/taipei.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterForView, none, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("taipei")
const taipeiMainStation = market.tariffs.locate({ latitude: 25.0478, longitude: 121.517 })
const xinyi = market.tariffs.locate({ latitude: 25.0339, longitude: 121.5645 })
const tpe = market.tariffs.locate({ latitude: 25.0797, longitude: 121.2342 })
const tsa = market.tariffs.locate({ latitude: 25.0694, longitude: 121.5526 })

const meterAt = (date: string, minute = 660, pickup: ReadonlySet<string> = taipeiMainStation) => meterForView(tariff, view(date, minute, pickup, xinyi))
/** What the surcharges add to a meter of NT$100 at a moment, between places. */
const extras = (date: string, minute: number, pickup: ReadonlySet<string> = taipeiMainStation, dropoff: ReadonlySet<string> = xinyi) =>
  meterCharges(tariff, view(date, minute, pickup, dropoff), none, 0).total(100, 0) - 100

describe("Taipei: fare of 2023-04-01 (in force 2024-01-01 and today)", () => {
  const day = meterAt("2026-12-08")
  it("NT$85 covers the first 1.25 km; NT$5 per completed 200 m", () => {
    expect(meterAmount(day, { meterKm: 1.2, meterSeconds: 0 })).toBe(85)
    expect(meterAmount(day, { meterKm: 1.44, meterSeconds: 0 })).toBe(85)
    expect(meterAmount(day, { meterKm: 1.45, meterSeconds: 0 })).toBe(90)
    // 10 km: 8.75 km past the start are 43.75 units of 200 m, 43 completed: 85 + 215 = 300.
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 0 })).toBe(300)
  })
  it("延滯計時: NT$5 per 60 s accumulated below 5 km/h (10 km and 5 min slow: 300 + 25 = 325)", () => {
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 300 })).toBe(325)
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 59 })).toBe(300)
  })
  it("night 23:00–06:00 by boarding time: NT$20 a trip; none at 06:00 or 22:59", () => {
    expect([23 * 60, 2 * 60, 5 * 60 + 59].map((m) => extras("2026-12-08", m))).toEqual([20, 20, 20])
    expect([6 * 60, 11 * 60, 22 * 60 + 59].map((m) => extras("2026-12-08", m))).toEqual([0, 0, 0])
  })
  it("Lunar New Year: NT$30 a trip 2026-02-11 to 02-22 (night NT$50); 2024-02-05 to 02-14", () => {
    expect(extras("2026-02-10", 11 * 60)).toBe(0)
    expect(extras("2026-02-11", 11 * 60)).toBe(30)
    expect(extras("2026-02-22", 23 * 60 + 30)).toBe(50)
    expect(extras("2026-02-23", 11 * 60)).toBe(0)
    expect(extras("2024-02-05", 11 * 60)).toBe(30)
    expect(extras("2024-02-14", 11 * 60)).toBe(30)
    expect(extras("2024-02-15", 11 * 60)).toBe(0)
  })
  it("the version in force: 2015 rule to 2023-03-31, 2023 rule from 2023-04-01 (2024-01-01 and 2026-12-06 included)", () => {
    expect(["2015-09-30", "2015-10-01", "2023-03-31", "2023-04-01", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2007-11-01", "2015-10-01", "2015-10-01", "2023-04-01", "2023-04-01", "2023-04-01"])
    // 2024-01-01 (a Monday holiday, no holiday rate in Taipei): 10 km and 5 min slow = 325, at 23:30 + 20.
    expect(meterAmount(meterAt("2024-01-01"), { meterKm: 10, meterSeconds: 300 })).toBe(325)
    expect(extras("2024-01-01", 23 * 60 + 30)).toBe(20)
  })
})

describe("Taipei before 2023-04-01: the fares of 2015-10-01 and 2007-11-01", () => {
  it("2015: NT$70 for 1.25 km, NT$5 per 200 m, NT$5 per 80 s (10 km and 5 min slow: 70 + 215 + 15 = 300)", () => {
    const m = meterAt("2019-06-04")
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBe(285)
    // 300 s / 80 s = 3.75 → 3 units.
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 300 })).toBe(300)
    expect(extras("2019-06-04", 23 * 60 + 30)).toBe(20)
    expect(extras("2023-01-20", 11 * 60)).toBe(30)
  })
  it("2007: NT$70 for 1.25 km, NT$5 per 250 m, NT$5 per 100 s (10 km and 5 min slow: 70 + 175 + 15 = 260)", () => {
    const m = meterAt("2010-06-01")
    // 8.75 km / 250 m = 35 units.
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBe(245)
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 300 })).toBe(260)
  })
})

describe("Taipei: airports", () => {
  it("TPE lies in Taoyuan, outside the city, and is served; Taoyuan city centre is not", () => {
    expect(market.serves({ latitude: 25.0797, longitude: 121.2342 })).toBe(true)
    expect(market.serves({ latitude: 25.0777, longitude: 121.2328 })).toBe(true)
    expect(market.serves({ latitude: 24.9937, longitude: 121.3010 })).toBe(false)
    expect(tpe.has("tpe")).toBe(true)
  })
  it("from TPE the queue taxi's meter: NT$105 for 1,250 m, NT$5.75 per 200 m, NT$5 per 80 s; no Taipei night surcharge", () => {
    const m = meterAt("2026-12-08", 11 * 60, tpe)
    // 40 km TPE → Taipei Main Station: 38.75 km / 200 m = 193.75 → 193 units × 5.75 = 1,109.75; + 105 = 1,214.75.
    expect(meterAmount(m, { meterKm: 40, meterSeconds: 0 })).toBeCloseTo(1214.75, 6)
    // With 8 min slow: 480 s / 80 s = 6 units × NT$5 = 30.
    expect(meterAmount(m, { meterKm: 40, meterSeconds: 480 })).toBeCloseTo(1244.75, 6)
    expect(extras("2026-12-08", 23 * 60 + 30, tpe, taipeiMainStation)).toBe(0)
    // Taoyuan's Lunar New Year surcharge for TPE queue taxis: NT$100, 2026-02-13 to 02-22.
    expect(extras("2026-02-12", 11 * 60, tpe, taipeiMainStation)).toBe(0)
    expect(extras("2026-02-13", 11 * 60, tpe, taipeiMainStation)).toBe(100)
  })
  it("to TPE the Taipei meter, no airport charge (40 km: 85 + 193 × 5 = 1,050)", () => {
    const m = meterAt("2026-12-08", 11 * 60, taipeiMainStation)
    expect(meterAmount(m, { meterKm: 40, meterSeconds: 0 })).toBe(1050)
    expect(extras("2026-12-08", 11 * 60, taipeiMainStation, tpe)).toBe(0)
  })
  it("Songshan (TSA): NT$50 from its taxi queue from 2024-01-01, with the night NT$20", () => {
    expect(tsa.has("tsa")).toBe(true)
    expect(extras("2023-12-31", 11 * 60, tsa, xinyi)).toBe(0)
    expect(extras("2024-01-01", 11 * 60, tsa, xinyi)).toBe(50)
    expect(extras("2026-12-08", 23 * 60 + 30, tsa, xinyi)).toBe(70)
    expect(extras("2026-12-08", 11 * 60, xinyi, tsa)).toBe(0)
  })
  it("a supplied TPE → Taipei Main Station trip (40 km, 45 min) quotes between the no-slow-time meter and that plus 45 min slow", () => {
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 40, durationMinutes: 45, routeSource: "supplied" }, view("2026-12-08", 660, tpe, taipeiMainStation), 0)
    expect(priced.version.effectiveFrom).toBe("2023-04-01")
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(1000)
    expect(priced.distribution.quantile(0.95)).toBeLessThanOrEqual(1214.75 + (45 * 60 / 80) * 5)
  })
})

describe("Taipei: TPE pick-ups before 2023-04-01 on the Taoyuan airport queue meter, in force by 2021-01-13 (audit F4)", () => {
  it("2022-06-08: 45 km from TPE is 105 + ⌊43.75 / 0.2⌋ = 218 × 5.75 = NT$1,358.50 (the Taipei 2015 meter gave 70 + 218 × 5 = 1,160)", () => {
    expect(meterAmount(meterAt("2022-06-08", 11 * 60, tpe), { meterKm: 45, meterSeconds: 0 })).toBeCloseTo(1358.5, 9)
    expect(meterAmount(meterAt("2021-01-13", 11 * 60, tpe), { meterKm: 45, meterSeconds: 0 })).toBeCloseTo(1358.5, 9)
  })
  it("before 2021-01-13 (its start not known) TPE pick-ups stay on the Taipei meter: 70 + 218 × 5 = NT$1,160; pick-ups in Taipei too", () => {
    expect(meterAmount(meterAt("2021-01-12", 11 * 60, tpe), { meterKm: 45, meterSeconds: 0 })).toBe(1160)
    expect(meterAmount(meterAt("2022-06-08"), { meterKm: 45, meterSeconds: 0 })).toBe(1160)
  })
})

describe("Taipei: trips before the first rule (2007-11-01) are refused (audit G1)", () => {
  const FROM = { latitude: 25.0478, longitude: 121.517 }
  const TO = { latitude: 25.034, longitude: 121.5645 }
  it("before 2007-11-01: NT$70 for 1.5 km, increments of 300 m (Taipei Times 2006-04-23, the rule of 2000-12-01): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("taipei").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2007-10-28T11:00:00+08:00", "2007-11-01T11:00:00+08:00")
  })
})
