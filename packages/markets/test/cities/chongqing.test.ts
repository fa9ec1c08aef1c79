/**
 * Chongqing: the main-city (主城区) taxi fare as given in the T3A traffic guide reported on
 * 2017-08-24 (10元 for 3 km, 1元 per started 500 m; night 23:00–06:00 11元, 1.15元 per 500 m;
 * low-speed fee below 12 km/h: nothing before 5 minutes, then 1元 (1.15元) at 5 minutes and per
 * further 2.5 minutes, on top of the distance), with the return-empty tier beyond 25 km (1.50元 /
 * 1.73元 per 500 m) read in undated copies; worked examples by hand (sources: models/sources/chongqing.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, meterReading, versionAt } from "@ridequote/markets"
import { meterForView, priceSupplied, shippedMarket, tripsOf, view } from "./support.js"

const { market, tariff } = shippedMarket("chongqing")
const meterAt = (date: string, minute: number) => meterForView(tariff, view(date, minute), market.tariffs.holidays)

const CKG = { latitude: 29.7192, longitude: 106.6417 }
/** Jiefangbei (解放碑), Yuzhong: "about 25 km" from T3A in the 2017 guide. */
const JIEFANGBEI = { latitude: 29.5577, longitude: 106.577 }
const BEIBEI = { latitude: 29.8257, longitude: 106.4375 }
const CHENGDU_TIANFU_SQUARE = { latitude: 30.6575, longitude: 104.0657 }
const WANZHOU = { latitude: 30.8078, longitude: 108.4086 }

describe("Chongqing: main-city taxi fare of the T3A guide (2017-08-24; in force 2024-01-01 and the newest found)", () => {
  const day = meterAt("2026-12-08", 11 * 60)
  const night = meterAt("2026-12-08", 23 * 60 + 30)

  it("day, by distance: 10元 covers 3 km; each 500 m after is charged 1元 when it begins (先计费后计里程)", () => {
    expect(meterAmount(day, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(10, 9)
    expect(meterAmount(day, { meterKm: 3, meterSeconds: 0 })).toBeCloseTo(10, 9)
    // 3.2 km: the 500 m from 3.0 km has begun = 10 + 1 = 11元; 3.5 km still 11元; 3.6 km 12元.
    expect(meterAmount(day, { meterKm: 3.2, meterSeconds: 0 })).toBeCloseTo(11, 9)
    expect(meterAmount(day, { meterKm: 3.5, meterSeconds: 0 })).toBeCloseTo(11, 9)
    expect(meterAmount(day, { meterKm: 3.6, meterSeconds: 0 })).toBeCloseTo(12, 9)
    // 10 km: 10 + (10 − 3) / 0.5 = 14 steps × 1元 = 24.00元.
    expect(meterAmount(day, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(24, 9)
  })

  it("beyond 25 km (25 excluded) 3元/km by day, 1.50元 per 500 m: 25 km = 10 + 44 = 54元; 25.2 km = 55.50元; 27 km = 54 + 4 × 1.5 = 60元", () => {
    expect(meterAmount(day, { meterKm: 25, meterSeconds: 0 })).toBeCloseTo(54, 9)
    expect(meterAmount(day, { meterKm: 25.2, meterSeconds: 0 })).toBeCloseTo(55.5, 9)
    expect(meterAmount(day, { meterKm: 27, meterSeconds: 0 })).toBeCloseTo(60, 9)
  })

  it("night 23:00–06:00: 11元 for 3 km, 1.15元 per 500 m, 1.73元 per 500 m beyond 25 km — 10 km = 11 + 14 × 1.15 = 27.10元; 27 km = 11 + 44 × 1.15 + 4 × 1.73 = 68.52元; the day meter at 06:00 and 22:59", () => {
    expect(meterAmount(night, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(27.1, 9)
    expect(meterAmount(night, { meterKm: 27, meterSeconds: 0 })).toBeCloseTo(68.52, 9)
    for (const minute of [23 * 60, 2 * 60, 5 * 60 + 59]) {
      expect(meterAmount(meterAt("2026-12-08", minute), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(27.1, 9)
    }
    for (const minute of [6 * 60, 22 * 60 + 59]) {
      expect(meterAmount(meterAt("2026-12-08", minute), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(24, 9)
    }
  })

  it("low speed (0–12 km/h): nothing before 5 minutes, 1元 at 5 minutes, 1元 more per further 2.5 minutes, nothing for a part — on top of the distance", () => {
    expect(day.time.crossoverKmh).toBe(12)
    const at = (seconds: number) => meterAmount(day, { meterKm: 10, meterSeconds: seconds })
    // 10 km by day is 24元; 4:59 slow adds nothing, 5:01 adds 1元, 7:29 still 1元, 7:31 2元, 12:00 3元 (5 + 2.5 + 2.5 = 10 min, 12.5 not reached).
    expect(at(299)).toBeCloseTo(24, 9)
    expect(at(301)).toBeCloseTo(25, 9)
    expect(at(449)).toBeCloseTo(25, 9)
    expect(at(451)).toBeCloseTo(26, 9)
    expect(at(720)).toBeCloseTo(27, 9)
    // The file's units are "started" (the distance rule: each 500 m charged when it begins), so the
    // time rule is written initialSeconds 300 + one unit per started 150 s: the same amounts as the
    // rule's "at 5 minutes, then per completed 2.5 minutes" at every moment except the instants
    // 5:00, 7:30, … themselves, where the unit falls due an instant later. The note's
    // initialSeconds 150 holds only with "completed" units: with "started" it would charge 1元 at 3:20.
    expect(day.units).toBe("started")
    expect(day.initialSeconds).toBe(300)
    expect(meterAmount({ ...day, initialSeconds: 150 }, { meterKm: 10, meterSeconds: 200 })).toBeCloseTo(25, 9)
    expect(meterAmount({ ...day, units: "completed", initialSeconds: 150 }, { meterKm: 3, meterSeconds: 200 })).toBeCloseTo(10, 9)
    expect(meterAmount({ ...day, units: "completed", initialSeconds: 150 }, { meterKm: 3, meterSeconds: 300 })).toBeCloseTo(11, 9)
    // The distance keeps counting while slow ("in addition to the normal fees"): 10 km in 30 min
    // of which 12 slow = 24 + 3 = 27元 by day; at night 27.10 + 3 × 1.15 = 30.55元.
    expect(meterAmount(day, meterReading(day, 10, 30, 12))).toBeCloseTo(27, 9)
    expect(meterAmount(night, meterReading(night, 10, 30, 12))).toBeCloseTo(30.55, 9)
  })

  it("CKG → Jiefangbei (about 25 km in the guide), 26 km in 40 min supplied, 11:00: at least 10 + 44 + 2 × 1.5 = 57元; the same both ways (no airport charge read)", () => {
    const { offers, price } = tripsOf(market, 26, 40)
    const at = "2026-12-08T11:00:00+08:00"
    const [there] = price(CKG, JIEFANGBEI, at)
    const [back] = price(JIEFANGBEI, CKG, at)
    expect(there?.[0]).toBeGreaterThanOrEqual(57 - 1e-9)
    // 40 minutes hold at most 14 slow units after the first 5 minutes: 57 + 14 = 71元.
    expect(there?.[1]).toBeLessThanOrEqual(71 + 1e-9)
    expect(back).toEqual(there)
    expect(offers(CKG, JIEFANGBEI, at)[0]?.source?.tariff?.charges ?? []).toEqual([])
    // At 23:30 the night meter: at least 11 + 44 × 1.15 + 2 × 1.73 = 65.06元.
    const [late] = price(CKG, JIEFANGBEI, "2026-12-08T23:30:00+08:00")
    expect(late?.[0]).toBeGreaterThanOrEqual(65.06 - 1e-9)
  })

  it("2024-01-01 is on the same rule (the only version, from its sighting of 2017-08-24); an earlier trip is priced on it and says so", () => {
    expect(tariff.versions.length).toBe(1)
    expect(["2017-08-24", "2024-01-01", "2026-12-08"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2017-08-24", "2017-08-24", "2017-08-24"])
    expect(meterAmount(meterAt("2024-01-01", 11 * 60), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(24, 9)
    const priced = priceSupplied(market, tariff, 10, 20, view("2024-01-01", 660))
    expect(priced.distribution.quantile(0.05)).toBeGreaterThanOrEqual(24 - 1e-9)
    const { offers } = tripsOf(market, 10, 20)
    expect(offers(JIEFANGBEI, BEIBEI, "2016-06-01T11:00:00+08:00")[0]?.source?.level?.evidence ?? "").toContain("before the earliest rule")
  })

  it("every offer carries the caveat: the single dated sighting, the 2025 page's 2.5元/km, the 25 km tier in undated copies, no airport surcharge read", () => {
    const { offers } = tripsOf(market, 26, 40)
    for (const at of ["2024-01-10T11:00:00+08:00", "2026-12-08T11:00:00+08:00"]) {
      const evidence = offers(CKG, JIEFANGBEI, at)[0]?.source?.level?.evidence ?? ""
      expect(evidence).toContain("The only dated sighting of this fare is the T3A traffic guide")
      expect(evidence).toContain("2017-08-24")
      expect(evidence).toContain("2.5元/km")
      expect(evidence).toContain("read only in undated copies")
      expect(evidence).toContain("'an extra RMB 10' from the airport")
    }
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    expect(versionAt(tariff, "2026-12-08").source.published).toBe("2017-08-24")
    expect(versionAt(tariff, "2026-12-08").source.reading).toBe("secondary")
  })

  it("serves the main city and Jiangbei airport (CKG, inside the box), not Wanzhou nor Chengdu", () => {
    for (const p of [CKG, JIEFANGBEI, BEIBEI]) expect(market.serves(p)).toBe(true)
    expect(market.serves(WANZHOU)).toBe(false)
    expect(market.serves(CHENGDU_TIANFU_SQUARE)).toBe(false)
    expect(market.tariffs.locate(CKG).has("ckg")).toBe(true)
    // The ACI list's point for CKG (29.7123, 106.6519) and Terminal 3A (about 29.7267, 106.6396) are in the zone too.
    expect(market.tariffs.locate({ latitude: 29.7123, longitude: 106.6519 }).has("ckg")).toBe(true)
    expect(market.tariffs.locate({ latitude: 29.7267, longitude: 106.6396 }).has("ckg")).toBe(true)
    expect(market.tariffs.locate(JIEFANGBEI).has("ckg")).toBe(false)
  })
})
