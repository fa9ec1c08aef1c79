/**
 * Istanbul (İBB/UKOME yellow-taxi tariff, from the tariff alone): açılış + per km + hourly
 * time below 10 km/h, the kısa mesafe (indi-bindi) minimum, each revision from 2023 to 2026.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterCharges, meterOn, shippedMarket, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("istanbul")
const total = (date: string, fare: number, tolls = 0) => meterCharges(tariff, view(date)).total(fare, tolls)

describe("Istanbul: İBB tariff of 2026-02-16 (açılış 65,40 TL, 43,56 TL/km, 544,45 TL/h, kısa mesafe 210 TL; caveat)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("10 km at speed: 65,40 + 10 × 43,56 = 501,00 TL; 40 km (Taksim–IST): 65,40 + 1 742,40 = 1 807,80 TL", () => {
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(501, 6)
    expect(meterAmount(meter, { meterKm: 40, meterSeconds: 0 })).toBeCloseTo(1807.8, 6)
  })
  it("time below 10 km/h at 544,45 TL an hour: 10 km plus 12 min slow is 501,00 + 108,89 = 609,89 TL", () => {
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 720 })).toBeCloseTo(501 + 544.45 / 5, 6)
    expect(meter.time.crossoverKmh).toBe(10)
  })
  it("the kısa mesafe minimum: 2 km (65,40 + 87,12 = 152,52 TL) is charged 210 TL; tolls on top", () => {
    const fare = meterAmount(meter, { meterKm: 2, meterSeconds: 0 })
    expect(fare).toBeCloseTo(152.52, 6)
    expect(total("2026-12-08", fare)).toBeCloseTo(210, 6)
    expect(total("2026-12-08", 501, 47)).toBeCloseTo(548, 6)
  })
  it("IST and SAW are at their terminals and priced on the same meter (no airport charge); the version carries its caveat", () => {
    const ist = market.tariffs.locate({ latitude: 41.2620, longitude: 28.7420 })
    const saw = market.tariffs.locate({ latitude: 40.8986, longitude: 29.3092 })
    expect(ist.has("ist")).toBe(true)
    expect(saw.has("saw")).toBe(true)
    const taksim = market.tariffs.locate({ latitude: 41.0370, longitude: 28.9850 })
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 40, durationMinutes: 45, routeSource: "supplied" }, view("2026-12-08", 660, ist, taksim), 2)
    expect(priced.version.effectiveFrom).toBe("2026-02-16")
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(1807.8 - 1e-6)
    expect(versionAt(tariff, "2026-12-06").caveat?.note).toContain("2026-02-16")
  })
})

describe("Istanbul before 2026-02-16: each revision from 2023", () => {
  it("on 2024-01-01 the UKOME tariff of 2023-08-14: 10 km is 19,17 + 137,50 = 156,67 TL; 2 km is the 70 TL minimum", () => {
    const m = meterOn(tariff, "2024-01-01")
    expect(meterAmount(m, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(156.67, 6)
    expect(total("2024-01-01", meterAmount(m, { meterKm: 2, meterSeconds: 0 }))).toBeCloseTo(70, 6)
    // 152,73 TL an hour: 30 min below 10 km/h is 76,365 TL.
    expect(meterAmount(m, { meterKm: 0, meterSeconds: 1800 }) - 19.17).toBeCloseTo(76.365, 6)
  })
  it("10 km at each version: 2023-01 97,75; 2023-08 156,67; 2024-01 200,65; 2024-07 230,00; 2025-01 322,00; 2025-09 417,50; 2026-02 501,00 TL", () => {
    const dates = ["2023-06-06", "2023-10-03", "2024-03-05", "2024-10-01", "2025-05-06", "2025-11-04", "2026-06-02"]
    expect(dates.map((d) => Number(meterAmount(meterOn(tariff, d), { meterKm: 10, meterSeconds: 0 }).toFixed(2))))
      .toEqual([97.75, 156.67, 200.65, 230, 322, 417.5, 501])
    expect(dates.map((d) => total(d, 0))).toEqual([40, 70, 90, 100, 135, 175, 210])
  })
  it("version boundaries", () => {
    expect(["2023-08-13", "2023-08-14", "2024-01-08", "2024-01-09", "2024-07-28", "2024-07-29", "2025-09-14", "2025-09-15", "2026-02-15", "2026-02-16"]
      .map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2023-01-01", "2023-08-14", "2023-08-14", "2024-01-09", "2024-01-09", "2024-07-29", "2025-01-16", "2025-09-15", "2025-09-15", "2026-02-16"])
  })
})

describe("Istanbul: trips before the first rule (2023-01-01) are refused (audit G1)", () => {
  const FROM = { latitude: 41.037, longitude: 28.985 }
  const TO = { latitude: 41.0054, longitude: 28.9768 }
  it("before 2023-01-01: 9,80 TL opening, 6,30 TL/km, 67,20 TL/h, 28 TL short (AA via habervakti.com 2023-01-01): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("istanbul").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2022-12-28T11:00:00+03:00", "2023-01-01T11:00:00+03:00")
  })
})
