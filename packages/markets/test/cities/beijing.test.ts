/**
 * Beijing: the Development and Reform Commission's taxi fare of 2013-06-10, worked examples from
 * the rule as reported (sources: models/sources/beijing.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterForView, none, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("beijing")
/** The meter for a trip starting at a local date and minute (peak and night variants by start time). */
const meterAt = (date: string, minute: number, pickup: ReadonlySet<string> = none) => meterForView(tariff, view(date, minute, pickup))
const withCharges = (date: string, minute: number, fare: number) =>
  meterCharges(tariff, view(date, minute)).total(fare, 0)

describe("Beijing: taxi fare of 2013-06-10 (in force 2024-01-01 and, as found, today)", () => {
  it("13 yuan for 3 km, 2.3 yuan/km, 3.45 yuan/km beyond 15 km (空驶费 +50 %); 1 yuan fuel surcharge per trip", () => {
    const day = meterAt("2026-12-08", 11 * 60)
    expect(meterAmount(day, { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(13, 9)
    // 10 km: 13 + 7 × 2.3 = 29.10; with the fuel surcharge 30.10.
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(29.1, 9)
    expect(withCharges("2026-12-08", 11 * 60, 29.1)).toBeCloseTo(30.1, 9)
    // 20 km: 13 + 12 × 2.3 + 5 × 3.45 = 13 + 27.60 + 17.25 = 57.85
    expect(meterAmount(day, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(57.85, 9)
  })
  it("low speed below 12 km/h: 1 km's fare (2.3) per completed 5 min off-peak, 2 km's (4.6) at 07:00–09:00 and 17:00–19:00", () => {
    // 10 km + 12 min slow: two completed 5-minute periods.
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(29.1 + 2 * 2.3, 9)
    expect(meterAmount(meterAt("2026-12-08", 8 * 60), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(29.1 + 2 * 4.6, 9)
    expect(meterAmount(meterAt("2026-12-08", 17 * 60 + 30), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(38.3, 9)
    // 09:00 and 19:00 are off-peak again; 06:59 too.
    for (const minute of [9 * 60, 19 * 60, 6 * 60 + 59]) {
      expect(meterAmount(meterAt("2026-12-08", minute), { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(33.7, 9)
    }
  })
  it("night 23:00–05:00: 14 yuan start, 2.76 yuan/km (2.3 + 20 %), 3.91 beyond 15 km (2.3 + 20 % + 50 %)", () => {
    const night = meterAt("2026-12-08", 23 * 60 + 30)
    // 10 km: 14 + 7 × 2.76 = 33.32
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(33.32, 9)
    // 20 km: 14 + 12 × 2.76 + 5 × 3.91 = 14 + 33.12 + 19.55 = 66.67
    expect(meterAmount(night, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(66.67, 9)
    expect(meterAmount(meterAt("2026-12-09", 4 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(33.32, 9)
    expect(meterAmount(meterAt("2026-12-09", 5 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(29.1, 9)
  })
  it("one version from 2013-06-10 (2024-01-01 and today), with its caveat", () => {
    expect(["2013-06-10", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2013-06-10", "2013-06-10", "2013-06-10"])
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("fuel surcharge")
  })
})

describe("Beijing: Capital (PEK) and Daxing (PKX) on the city meter", () => {
  it("PEK is in the box, PKX outside it and served; no airport fare or pick-up fee; tolls passed on", () => {
    const pek = { latitude: 40.0799, longitude: 116.6031 }, pkx = { latitude: 39.5098, longitude: 116.4105 }
    expect(market.serves(pek)).toBe(true)
    expect(market.serves(pkx)).toBe(true)
    // Langfang city (Hebei), 10 km east of PKX's latitude band, is not Beijing's.
    expect(market.serves({ latitude: 39.5383, longitude: 116.6837 })).toBe(false)
    const atPkx = market.tariffs.locate(pkx)
    expect(atPkx.has("pkx")).toBe(true)
    // PKX → Tiananmen, about 46 km by day, no slow time: 13 + 12 × 2.3 + 31 × 3.45 = 147.55, + 1 fuel.
    const m = meterAt("2026-12-08", 11 * 60, atPkx)
    expect(meterAmount(m, { meterKm: 46, meterSeconds: 0 })).toBeCloseTo(147.55, 9)
    const v = versionAt(tariff, "2026-12-08")
    expect(v.tolls).toBe("passed-on")
    expect(chargesFor(v, "meter", view("2026-12-08").moment, { pickup: atPkx, dropoff: none }, new Set(), 2).total(147.55, 0)).toBeCloseTo(148.55, 9)
  })
})

describe("Beijing: the reported peak waiting example against the quoted spread", () => {
  it("a 10 km, 30 min trip at 08:00 is quoted above the same trip at 11:00 (4.6 vs 2.3 yuan per 5 slow minutes)", () => {
    const at = (minute: number) => priceTrip(market.tariffs, tariff, { distanceKm: 10, durationMinutes: 30, routeSource: "supplied" }, view("2026-12-08", minute), 2)
    const peak = at(8 * 60), off = at(11 * 60)
    // The no-slow-time fare (30.10 with the fuel surcharge) is at or below the p5 of both.
    expect(off.distribution.quantile(0.05)).toBeGreaterThanOrEqual(30.1 - 0.5)
    expect(peak.distribution.quantile(0.5)).toBeGreaterThan(off.distribution.quantile(0.5))
    expect(peak.distribution.quantile(0.95)).toBeGreaterThan(off.distribution.quantile(0.95))
  })
})

describe("Beijing: trips before the first rule (2013-06-10) are refused (audit G1)", () => {
  const FROM = { latitude: 39.9087, longitude: 116.3975 }
  const TO = { latitude: 39.9334, longitude: 116.454 }
  it("before 2013-06-10: 10 yuan for 3 km, 2 yuan/km (CRI 2013-06-06: 3公里10元 → 13元, 每公里2元 → 2.3元): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("beijing").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2013-06-07T11:00:00+08:00", "2013-06-10T11:00:00+08:00")
  })
})
