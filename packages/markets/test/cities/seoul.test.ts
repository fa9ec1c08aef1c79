/**
 * Seoul: the Seoul Metropolitan Government's mid-sized taxi (중형택시) fare, worked examples
 * from the rule text (sources: models/sources/seoul.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, meterFor, meterReading, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterForView, none, priceSupplied, shippedMarket, spreadEnds, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("seoul")
/** The meter in force for a trip starting at a local date and minute (the night variants by start time). */
const meterAt = (date: string, minuteOfDay: number) => meterForView(tariff, view(date, minuteOfDay))

describe("Seoul: mid-sized taxi fare of 2023-02-01 (in force 2024-01-01 and today)", () => {
  it("day: ₩4,800 for the first 1.6 km, ₩100 per completed 131 m, ₩100 per 30 s below the speed", () => {
    const day = meterAt("2026-12-08", 11 * 60)
    expect(meterAmount(day, { meterKm: 1.5, meterSeconds: 0 })).toBe(4800)
    // 7 km: 5.4 km past the base are 41.2 units of 131 m, 41 completed: 4,800 + 4,100.
    expect(meterAmount(day, { meterKm: 7, meterSeconds: 0 })).toBe(8900)
    // 10 km and 5 min below 15.33 km/h: 8.4 km / 131 m = 64.1 → 64 units (6,400) + 300 s / 30 s = 10 units (1,000).
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 300 })).toBe(12200)
  })
  it("late night: 22:00–23:00 and 02:00–04:00 ₩5,800 + ₩120 per unit; 23:00–02:00 ₩6,700 + ₩140 per unit; from 04:00 the day fare", () => {
    // 10 km, no slow time: 64 units.
    expect(meterAmount(meterAt("2026-12-08", 22 * 60 + 30), { meterKm: 10, meterSeconds: 0 })).toBe(5800 + 64 * 120)
    expect(meterAmount(meterAt("2026-12-08", 23 * 60 + 30), { meterKm: 10, meterSeconds: 0 })).toBe(6700 + 64 * 140)
    expect(meterAmount(meterAt("2026-12-09", 60), { meterKm: 10, meterSeconds: 0 })).toBe(6700 + 64 * 140)
    expect(meterAmount(meterAt("2026-12-09", 3 * 60), { meterKm: 10, meterSeconds: 0 })).toBe(5800 + 64 * 120)
    expect(meterAmount(meterAt("2026-12-09", 4 * 60), { meterKm: 10, meterSeconds: 0 })).toBe(4800 + 64 * 100)
    expect(meterAmount(meterAt("2026-12-08", 21 * 60 + 59), { meterKm: 10, meterSeconds: 0 })).toBe(4800 + 64 * 100)
    // 30 s of slow time at night: ₩140.
    expect(meterAmount(meterAt("2026-12-08", 23 * 60 + 30), { meterKm: 1, meterSeconds: 60 })).toBe(6700 + 2 * 140)
  })
  it("the version in force: 2019 rule to 2022-11-30, the 2022-12-01 night hours, the 2023-02-01 fare from then (2024-01-01 included)", () => {
    expect(["2022-11-30", "2022-12-01", "2023-01-31", "2023-02-01", "2024-01-01", "2026-12-06"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2019-02-16", "2022-12-01", "2022-12-01", "2023-02-01", "2023-02-01", "2023-02-01"])
    const jan2024 = meterAt("2024-01-01", 11 * 60)
    expect(meterAmount(jan2024, { meterKm: 7, meterSeconds: 0 })).toBe(8900)
  })
})

describe("Seoul before 2023-02-01: the 2019-02-16 fare and the 2022-12-01 late-night hours", () => {
  it("2019: ₩3,800 for 2 km, ₩100 per 132 m or 31 s; night only 00:00–04:00 at ₩4,600 + ₩120 per unit", () => {
    // 10 km: 8 km / 132 m = 60.6 → 60 units.
    expect(meterAmount(meterAt("2021-06-01", 11 * 60), { meterKm: 10, meterSeconds: 0 })).toBe(3800 + 6000)
    expect(meterAmount(meterAt("2021-06-01", 11 * 60), { meterKm: 10, meterSeconds: 310 })).toBe(3800 + 6000 + 1000)
    expect(meterAmount(meterAt("2021-06-01", 23 * 60), { meterKm: 10, meterSeconds: 0 })).toBe(9800)
    expect(meterAmount(meterAt("2021-06-02", 60), { meterKm: 10, meterSeconds: 0 })).toBe(4600 + 60 * 120)
  })
  it("from 2022-12-01: 22:00–23:00 ₩4,600 + ₩120, 23:00–02:00 ₩5,300 + ₩140 per unit on the 2019 units", () => {
    expect(meterAmount(meterAt("2022-12-06", 22 * 60 + 30), { meterKm: 10, meterSeconds: 0 })).toBe(4600 + 60 * 120)
    expect(meterAmount(meterAt("2022-12-06", 23 * 60 + 30), { meterKm: 10, meterSeconds: 0 })).toBe(5300 + 60 * 140)
    expect(meterAmount(meterAt("2022-12-06", 11 * 60), { meterKm: 10, meterSeconds: 0 })).toBe(9800)
  })
})

describe("Seoul: Incheon airport (ICN) is served with the Seoul meter, no out-of-city surcharge, tolls passed on", () => {
  it("a pick-up at ICN's terminals is served; the meter is the day meter (no airport fare)", () => {
    expect(market.serves({ latitude: 37.449, longitude: 126.4505 })).toBe(true)
    expect(market.serves({ latitude: 37.468, longitude: 126.433 })).toBe(true)
    // Incheon city centre (Bupyeong) is not Seoul's.
    expect(market.serves({ latitude: 37.4894, longitude: 126.7245 })).toBe(false)
    const icn = market.tariffs.locate({ latitude: 37.449, longitude: 126.4505 })
    const v = versionAt(tariff, "2026-12-08")
    expect(v.tolls).toBe("passed-on")
    const m = meterFor(v, view("2026-12-08", 11 * 60, icn, none), new Set()).meter
    // 52 km ICN → Seoul Station with no slow time: 50.4 km / 131 m = 384.7 → 384 units.
    expect(m === undefined ? 0 : meterAmount(m, { meterKm: 52, meterSeconds: 0 })).toBe(4800 + 38400)
  })
})

describe("Seoul: the city's published example fares against the quoted spread", () => {
  const spread = (date: string, minute: number, km: number, minutes: number) =>
    spreadEnds(priceSupplied(market, tariff, km, minutes, view(date, minute), 0))
  it("the examples are the concurrent meter (시간·거리 동시병산): every metre as distance, slow time on top", () => {
    // Jonggak → Sinsa, 7 km by day: ₩11,000 on the 2023 fare = ₩8,900 for the 7 km + 21 units of
    // 30 s; ₩9,600 on the 2019 fare = ₩7,500 for the 7 km (37 units of 132 m) + 21 units of 31 s.
    // The same 21 slow units on both fares: the same trip, with about 10.5 minutes below 15.33 km/h.
    expect(meterAmount(meterAt("2026-12-08", 11 * 60), { meterKm: 7, meterSeconds: 21 * 30 })).toBe(11000)
    expect(meterAmount(meterAt("2021-06-01", 11 * 60), { meterKm: 7, meterSeconds: 21 * 31 })).toBe(9600)
    // Jonggak → Gangnam, 10 km at night (23:00–02:00): ₩15,660 for the 10 km + 15 units of ₩140 =
    // ₩17,760, paid as ₩17,700 (night fares are rounded to ₩100 at payment: not modelled).
    expect(meterAmount(meterAt("2026-12-08", 23 * 60 + 30), { meterKm: 10, meterSeconds: 15 * 30 })).toBe(17760)
  })
  it("a quote counts the whole distance and the slow time on top (not time instead of distance)", () => {
    // 2 km in 30 minutes with 25 of them below 15.33 km/h: the meter reads all 2 km (0.4 km beyond
    // the first 1.6 km: 3 completed units of 131 m, ₩300) and 1,500 s (50 units, ₩5,000).
    const day = meterAt("2026-12-08", 11 * 60)
    expect(meterReading(day, 2, 30, 25)).toEqual({ meterKm: 2, meterSeconds: 1500 })
    expect(meterAmount(day, meterReading(day, 2, 30, 25))).toBe(4800 + 300 + 5000)
    // A meter that charges time instead of distance would not charge the 0.4 km driven slowly.
    const instead = { ...day, time: { ...day.time, counter: "separate" as const } }
    expect(meterAmount(instead, meterReading(instead, 2, 30, 25))).toBe(4800 + 5000)
  })
  it("Jonggak → Sinsa, 7 km by day: ₩11,000 (2023 fare; ₩9,600 before) lies within the p5–p95 of a 7 km, 20 min trip", () => {
    // The examples give no trip time; 20 minutes (21 km/h) is this test's assumption, a trip whose
    // median slow time (9.5 min) is near the 10.5 the published fares imply.
    const [p5, p95] = spread("2026-12-08", 11 * 60, 7, 20)
    expect(p5).toBeLessThanOrEqual(11000)
    expect(p95).toBeGreaterThanOrEqual(11000)
    const [q5, q95] = spread("2021-06-01", 11 * 60, 7, 20)
    expect(q5).toBeLessThanOrEqual(9600)
    expect(q95).toBeGreaterThanOrEqual(9600)
  })
  it("Jonggak → Gangnam, 10 km at night (23:00–02:00): ₩17,700 lies within the p5–p95 of a 10 km, 20 min trip", () => {
    const [p5, p95] = spread("2026-12-08", 23 * 60 + 30, 10, 20)
    expect(p5).toBeLessThanOrEqual(17700)
    expect(p95).toBeGreaterThanOrEqual(17700)
  })
})

describe("Seoul: trips before the first rule (2019-02-16) are refused (audit G1)", () => {
  const FROM = { latitude: 37.5702, longitude: 126.9831 }
  const TO = { latitude: 37.4979, longitude: 127.0276 }
  it("before 2019-02-16: ₩3,000 for 2 km, ₩100 per 142 m or 35 s (Korea JoongAng Daily 2019-02-07, mothership.sg 2019-02-20): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("seoul").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2019-02-12T11:00:00+09:00", "2019-02-16T11:00:00+09:00")
  })
})
