/**
 * The shipped markets defined by a published tariff alone: each city's meter reproduced on
 * worked examples from its own rule, every fixed fare exact, published example fares against
 * the quoted spread, and every city answering a quote at a well-known place in its currency.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  chargesFor,
  meterAmount,
  meterFor,
  priceTrip,
  versionAt
} from "@ridequote/markets"
import type { DefinedMarket, TariffDocument } from "@ridequote/markets"
import { suppliedTrip } from "./trips.js"
import { expectRefusedBefore, loadTariff, meterFare, meterOn, MILE, none, shippedMarket, tariffOf, view } from "./cities/support.js"

const marketOf = (name: string): DefinedMarket => shippedMarket(name).market
/** The newest version of tariff `i`. */
const newest = (doc: TariffDocument, i = 0) => {
  const versions = tariffOf(doc, i).versions
  const v = versions[versions.length - 1]
  if (v === undefined) throw new Error("no version")
  return v
}
/** The meter of the newest version of tariff `i`. */
const meterOf = (doc: TariffDocument, i = 0) => {
  const m = newest(doc, i).meter
  if (m === undefined) throw new Error("no meter")
  return m
}
/** The meter of the version of tariff `i` in force on a local date. */
const meterAt = (doc: TariffDocument, date: string, i = 0) => meterOn(tariffOf(doc, i), date)

describe("San Francisco: SFMTA meter of 2022-11-17", () => {
  const doc = loadTariff("san-francisco")
  const meter = meterOf(doc)
  it("reproduces the worked examples: $4.15 for the first 1/5 mile, $0.65 per further 1/5 mile or fraction, $0.65 a minute", () => {
    expect(meterAmount(meter, { meterKm: 3 * MILE, meterSeconds: 0 })).toBeCloseTo(13.25, 10)
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 360 })).toBeCloseTo(23.65, 10)
    // "or fraction thereof": 2.25 miles beyond the flag are 12 started fifths.
    expect(meterAmount(meter, { meterKm: 2.45 * MILE, meterSeconds: 180 })).toBeCloseTo(13.9, 10)
  })
  it("adds the $5.50 SFO pick-up fee (no drop-off fee) and bills 150 % of the meter beyond 15 miles out of town", () => {
    const v = newest(doc)
    const fromSfo = chargesFor(v, "meter", view("2026-03-03").moment, { pickup: new Set(["sfo", "sfo-15-mile-reach", "sf-15-mile-reach"]), dropoff: new Set(["san-francisco", "sf-15-mile-reach", "sfo-15-mile-reach"]) }, new Set(), 2)
    const fare = meterAmount(meter, { meterKm: 14 * MILE, meterSeconds: 240 })
    expect(fare).toBeCloseTo(51.6, 10)
    expect(fromSfo.total(fare, 0)).toBeCloseTo(57.1, 10)
    const toSfo = chargesFor(v, "meter", view("2026-03-03").moment, { pickup: new Set(["san-francisco", "sf-15-mile-reach", "sfo-15-mile-reach"]), dropoff: new Set(["sfo", "sf-15-mile-reach", "sfo-15-mile-reach"]) }, new Set(), 2)
    expect(toSfo.total(fare, 0)).toBeCloseTo(51.6, 10)
    // San José (37.3382, −121.8863) is more than 15 miles beyond the city's box.
    const sanJose = marketOf("san-francisco").tariffs.locate({ latitude: 37.3382, longitude: -121.8863 })
    const far = chargesFor(v, "meter", view("2026-03-03").moment, { pickup: new Set(["san-francisco", "sf-15-mile-reach"]), dropoff: sanJose }, new Set(), 2)
    expect(far.total(149.75, 0)).toBeCloseTo(224.625, 10)
  })
})

describe("San Francisco before 2022-11-17: the SFMTA meter of 2011-09-01 and the SFO pick-up fee's history", () => {
  const doc = loadTariff("san-francisco")
  it("$3.50 for the first 1/5 mile, $0.55 per further 1/5 mile or fraction and per minute, from 2011-09-01 to 2022-11-16", () => {
    const tariff = tariffOf(doc)
    expect(versionAt(tariff, "2022-11-16").effectiveFrom).toBe("2011-09-01")
    expect(versionAt(tariff, "2022-11-17").effectiveFrom).toBe("2022-11-17")
    const meter = meterAt(doc, "2019-05-14")
    expect(meterAmount(meter, { meterKm: 3 * MILE, meterSeconds: 0 })).toBeCloseTo(3.5 + 14 * 0.55, 10)
    // 2.0 km is 6.21 fifths of a mile: the flag and 6 started fifths, then two minutes of delay.
    expect(meterAmount(meter, { meterKm: 2, meterSeconds: 120 })).toBeCloseTo(3.5 + 6 * 0.55 + 2 * 0.55, 10)
  })
  it("the rider's SFO pick-up fee: $2.00 until 2015-06-05, $4.00 from 2015-06-06, $5.50 from 2021-08-04", () => {
    const tariff = tariffOf(doc)
    const fromSfo = { pickup: new Set(["sfo", "sfo-15-mile-reach", "sf-15-mile-reach"]), dropoff: new Set(["san-francisco", "sf-15-mile-reach", "sfo-15-mile-reach"]) }
    const fee = (date: string) => chargesFor(versionAt(tariff, date), "meter", view(date).moment, fromSfo, new Set(), 2).total(40, 0) - 40
    expect(["2015-06-05", "2015-06-06", "2021-08-03", "2021-08-04", "2022-11-16", "2026-03-03"].map((d) => Number(fee(d).toFixed(2))))
      .toEqual([2, 4, 4, 5.5, 5.5, 5.5])
  })
  it("a trip before 2011-09-01 is refused (no-rule-for-date, audit F-ALL-1): the earlier meter differed (flag $3.10, $0.45 per fifth of a mile or minute, CBS SF 2011; last raised in 2003, SFMTA Board 2011-05-17)", () => {
    const market = marketOf("san-francisco")
    const trip = suppliedTrip(market, { latitude: 37.6189, longitude: -122.375 }, { latitude: 37.788, longitude: -122.4075 }, 22, 38)
    expectRefusedBefore(market, trip, ["2010-06-01T11:00:00-07:00", "2011-08-31T23:30:00-07:00"], "2011-09-01T11:00:00-07:00")
    expect(market.offers(trip("2011-09-01T11:00:00-07:00"))).toHaveLength(1)
  })
})

/** Tokyo's tariff file and market, read once for the Haneda tables' hundred-odd trips. */
const tokyo = (() => {
  let loaded: { doc: TariffDocument; market: DefinedMarket; tariff: TariffDocument["tariffs"][number] } | undefined
  return () => {
    if (loaded === undefined) {
      const doc = loadTariff("tokyo"), tariff = tariffOf(doc)
      loaded = { doc, market: marketOf("tokyo"), tariff }
    }
    return loaded
  }
})()

/**
 * The ward and city offices of Tokyo's 19 Haneda fixed-fare wards/cities (latitude, longitude):
 * the centres of the 1 km circles the file used before the ward boundaries (N03) replaced them.
 */
const WARD_OFFICES: Readonly<Record<string, readonly [number, number]>> = {
  chiyoda: [35.694, 139.7536], shibuya: [35.664, 139.6982], setagaya: [35.6466, 139.6532], shinjuku: [35.6938, 139.7034],
  nakano: [35.7074, 139.6638], suginami: [35.6995, 139.6364], bunkyo: [35.7081, 139.7523], toshima: [35.7262, 139.7166],
  kita: [35.7528, 139.7337], itabashi: [35.7512, 139.7094], nerima: [35.7356, 139.6516], taito: [35.7126, 139.78],
  arakawa: [35.736, 139.7834], adachi: [35.775, 139.8044], katsushika: [35.7434, 139.8473], sumida: [35.7107, 139.8015],
  edogawa: [35.7067, 139.8683], musashino: [35.7178, 139.5661], mitaka: [35.6836, 139.5595]
}

/**
 * A 20 km, 30 min trip between Tokyo's Haneda zone and a ward's on a date at a minute of the
 * day, priced on Tokyo's tariff (a fixed fare where the version in force has one).
 */
const hanedaTrip = (date: string, minute: number, ward: string, fromHaneda = true) => {
  const { market, tariff } = tokyo()
  const office = WARD_OFFICES[ward]
  if (office === undefined) throw new Error(`no ward office for ${ward}`)
  const hnd = market.tariffs.locate({ latitude: 35.5533, longitude: 139.7811 })
  const wardPlaces = market.tariffs.locate({ latitude: office[0], longitude: office[1] })
  if (!wardPlaces.has(`ward-${ward}`)) throw new Error(`the ${ward} ward office is not in zone ward-${ward}`)
  const [a, b] = fromHaneda ? [hnd, wardPlaces] : [wardPlaces, hnd]
  return priceTrip(market.tariffs, tariff, { distanceKm: 20, durationMinutes: 30, routeSource: "resolved" }, view(date, minute, a, b), 0)
}

describe("Tokyo: 23 wards, Musashino and Mitaka, fare of 2022-11-14", () => {
  const doc = loadTariff("tokyo")
  const meter = meterAt(doc, "2026-03-03")
  it("reproduces the MLIT/Nikkei examples (3.9 km ¥1,600, Tokyo–Ikebukuro 10 km ¥4,000) and the initial ¥500", () => {
    expect(meterAmount(meter, { meterKm: 3.9, meterSeconds: 0 })).toBe(1600)
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBe(4000)
    expect(meterAmount(meter, { meterKm: 1.0, meterSeconds: 0 })).toBe(500)
  })
  it("counts slow time on the same counter as distance (95 s = 255 m): 5 km plus 3 min at ≤ 10 km/h is ¥2,300", () => {
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 180 })).toBe(2300)
    // Slow time alone uses up the initial 1.096 km: 10 min standing counts as 1,611 m, 3 started units past it.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 300 })).toBe(500)
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBe(800)
  })

  /** 羽田空港定額運賃表 (令和4年11月14日改正), Nikkoren: day and 22:00–05:00 columns, typed from the table. */
  const HANEDA: ReadonlyArray<readonly [string, number, number]> = [
    ["chiyoda", 6900, 8300], ["shibuya", 7800, 9200], ["setagaya", 8100, 9600], ["shinjuku", 8300, 9800],
    ["nakano", 9100, 10800], ["suginami", 9900, 11700], ["bunkyo", 8600, 10000], ["toshima", 10200, 12100],
    ["kita", 10100, 11900], ["itabashi", 11300, 13400], ["nerima", 11700, 13800], ["taito", 8400, 9900],
    ["arakawa", 9500, 11200], ["adachi", 10200, 12000], ["katsushika", 10400, 12300], ["sumida", 8400, 9900],
    ["edogawa", 8200, 9700], ["musashino", 12800, 15200], ["mitaka", 12200, 14400]
  ]
  it("prices every Haneda fixed fare of the table exactly, both ways, by day and by night (not 1.2 × day), tolls apart", () => {
    for (const [ward, day, night] of HANEDA) {
      for (const [minute, expected] of [[14 * 60, day], [23 * 60 + 30, night], [4 * 60, night]] as const) {
        for (const fromHaneda of [true, false]) {
          const priced = hanedaTrip("2026-03-03", minute, ward, fromHaneda)
          expect([ward, minute, priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]).toEqual([ward, minute, expected, expected])
        }
      }
    }
  })
  it("a ward without a fixed fare (Minato) is metered from Haneda", () => {
    const market = marketOf("tokyo")
    const tariff = tariffOf(doc)
    const roppongi = market.tariffs.locate({ latitude: 35.6628, longitude: 139.7314 })
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 16, durationMinutes: 30, routeSource: "supplied" }, view("2026-03-03", 840, market.tariffs.locate({ latitude: 35.5533, longitude: 139.7811 }), roppongi), 0)
    expect(priced.fare).toBeUndefined()
    expect(priced.distribution.quantile(0.5)).toBeGreaterThan(5000)
  })
  it("the fares before 2022-11-14: ¥410 for 1.052 km and ¥80 per 237 m or 90 s from 2017-01-30; ¥420, 233 m, 85 s from 2019-10-01", () => {
    const tariff = tariffOf(doc)
    expect(["2017-01-29", "2017-01-30", "2019-09-30", "2019-10-01", "2022-11-13", "2022-11-14"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2017-01-30", "2017-01-30", "2017-01-30", "2019-10-01", "2019-10-01", "2022-11-14"])
    const y2017 = meterAt(doc, "2018-06-01"), y2019 = meterAt(doc, "2020-06-01")
    // An operator's published examples of 2017-02 (Tokyo station to): 2 km ¥730, Akihabara 2.5 km ¥970,
    // Ryogoku 3.5 km ¥1,290, 4 km ¥1,450, Shibuya 7.6 km ¥2,650.
    expect([2, 2.5, 3.5, 4, 7.6].map((km) => meterAmount(y2017, { meterKm: km, meterSeconds: 0 }))).toEqual([730, 970, 1290, 1450, 2650])
    expect(meterAmount(y2019, { meterKm: 1.0, meterSeconds: 0 })).toBe(420)
    // 4 km: 2.948 km past the initial 1.052 km are 13 started units of 233 m.
    expect(meterAmount(y2019, { meterKm: 4, meterSeconds: 0 })).toBe(420 + 13 * 80)
    // Slow time on the same counter: 85 s count as 233 m.
    expect(meterAmount(y2019, { meterKm: 4, meterSeconds: 170 })).toBe(420 + 15 * 80)
  })
  it("a trip of 2016 (before the 2017-01-30 fare, the first the file has) is refused: the fare then (¥730 for 2 km, ¥90 per 280 m) differed (audit G1)", () => {
    const market = marketOf("tokyo")
    const shibuya = { latitude: 35.658, longitude: 139.7016 }
    const trip = suppliedTrip(market, shibuya, { latitude: 35.6812, longitude: 139.7671 }, 7, 20)
    expect(market.offers(trip("2016-06-07T11:00:00+09:00"))).toEqual([])
    expect(market.unoffered?.(trip("2016-06-07T11:00:00+09:00"))?.reason).toBe("no-rule-for-date")
    expect(market.unoffered?.(trip("2017-01-29T23:30:00+09:00"))?.message)
      .toBe("market tokyo knows no rule in force on 2017-01-29: its earliest known rule is in force from 2017-01-30")
    const [first] = market.offers(trip("2017-01-30T11:00:00+09:00"))
    const [y2018] = market.offers(trip("2018-06-05T11:00:00+09:00"))
    const [now] = market.offers(trip("2026-06-02T11:00:00+09:00"))
    expect(first?.source?.tariff?.effectiveFrom).toBe("2017-01-30")
    expect(y2018?.source?.level?.evidence ?? "").not.toContain("before the earliest rule")
    expect(now?.source?.tariff?.effectiveFrom).toBe("2026-04-20")
    expect(now?.distribution.quantile(0.5)).toBeGreaterThan(y2018?.distribution.quantile(0.5) ?? Infinity)
  })
})

describe("Tokyo from 2026-04-20: the revision as proposed, dated by the taxi association's Haneda table", () => {
  const doc = loadTariff("tokyo")
  const meter = meterAt(doc, "2026-11-24")
  it("¥500 for the first 1.0 km, ¥100 per 232 m or per 85 s at ≤ 10 km/h, on one counter", () => {
    expect(meterAmount(meter, { meterKm: 1.0, meterSeconds: 0 })).toBe(500)
    // 10 km: 9 km past the first are 38.8 units of 232 m, 39 started (¥4,000 on the 2022 fare).
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBe(500 + 39 * 100)
    // 5 km and 170 s of slow time: 4 km + 2 × 232 m past the first, 19.2 units, 20 started.
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 170 })).toBe(500 + 20 * 100)
  })
  /** 羽田空港定額運賃表 特別区・武三版 2026年4月20日適用 (as copied): day and 22:00–05:00 columns. */
  const HANEDA_2026: ReadonlyArray<readonly [string, number, number]> = [
    ["chiyoda", 7600, 9000], ["shibuya", 8500, 10000], ["setagaya", 8900, 10400], ["shinjuku", 9000, 10700],
    ["nakano", 9900, 11700], ["suginami", 10800, 12600], ["bunkyo", 9300, 10900], ["toshima", 11200, 13200],
    ["kita", 11000, 13000], ["itabashi", 12300, 14500], ["nerima", 12800, 15100], ["taito", 9100, 10800],
    ["arakawa", 10400, 12200], ["adachi", 11100, 13100], ["katsushika", 11300, 13400], ["sumida", 9100, 10700],
    ["edogawa", 9000, 10500], ["musashino", 14000, 16500], ["mitaka", 13300, 15700]
  ]
  it("prices the 2026 Haneda fixed fares from 2026-04-20 and the 2022 ones the day before; the offer carries what is unconfirmed", () => {
    for (const [ward, day, night] of HANEDA_2026) {
      for (const [minute, expected] of [[14 * 60, day], [23 * 60 + 30, night]] as const) {
        const priced = hanedaTrip("2026-04-20", minute, ward)
        expect([ward, minute, priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]).toEqual([ward, minute, expected, expected])
      }
    }
    const before = hanedaTrip("2026-04-19", 14 * 60, "chiyoda")
    expect(before.distribution.quantile(0.5)).toBe(6900)
    const market = marketOf("tokyo")
    const shibuya = { latitude: 35.658, longitude: 139.7016 }
    const [offer] = market.offers(suppliedTrip(market, shibuya, { latitude: 35.6812, longitude: 139.7671 }, 7, 20)("2026-11-24T11:00:00+09:00"))
    expect(offer?.source?.tariff?.effectiveFrom).toBe("2026-04-20")
    expect(offer?.source?.level?.evidence).toMatch(/approval notice .*searched again 2026-12-06.*about 9 % too high.*last checked 2026-12-06/)
  })
})

describe("Berlin: Senate tariff of 2022-12-20", () => {
  const doc = loadTariff("berlin")
  const meter = meterOf(doc)
  it("reproduces Tarifstufe 2: €4.30, €2.80/km to 3 km, €2.60/km to 7 km, €2.10/km after", () => {
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(17.9, 10)
    // The meter moves in €0.20 steps: at €2.10/km a step is 95.24 m, so the 3 km past 7 km are
    // 31 completed steps (€6.20), one step under the €29.40 a per-km reading of the rule gives.
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(29.3, 10)
    expect(meterAmount(meter, { meterKm: 7 + 32 * (0.2 / 2.1), meterSeconds: 0 })).toBeCloseTo(29.5, 10)
  })
  it("charges waiting (also in traffic) at €33 an hour in €0.20 steps below the crossover speed", () => {
    // €33/h is €0.20 per 21.82 s: 10 minutes are 27 completed steps (€5.40) on top of 5 km
    // (€17.90), and a step is only charged once its 21.82 s are full.
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 600 })).toBeCloseTo(17.9 + 5.4, 10)
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 21 })).toBeCloseTo(17.9, 10)
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 22 })).toBeCloseTo(18.1, 10)
    // An hour's wait is €33.00 (165 steps): the rate as the tariff states it.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 3600 }) - 4.3).toBeCloseTo(33, 10)
    expect(meter.time.crossoverKmh).toBeCloseTo(33 / 2.8, 10)
  })
  it("from BER: Tarifstufe 3 (€2.60/km to 5 km, €2.00/km after) plus €1.50; Großraumtaxi +€6", () => {
    const market = marketOf("berlin")
    const ber = market.tariffs.locate({ latitude: 52.3667, longitude: 13.5033 })
    const standard = doc.tariffs[0], xl = doc.tariffs[1]
    if (standard === undefined || xl === undefined) throw new Error("tariffs")
    const v = view("2026-03-03", 660, ber, none)
    const stage3 = meterFor(newest(doc), v, new Set()).meter
    if (stage3 === undefined) throw new Error("no BER meter")
    expect(meterAmount(stage3, { meterKm: 25, meterSeconds: 0 })).toBeCloseTo(57.3, 10)
    expect(chargesFor(newest(doc), "meter", v.moment, v.places, new Set(), 2).total(57.3, 0)).toBeCloseTo(58.8, 10)
    const large = chargesFor(newest(doc, 1), "meter", view("2026-03-03").moment, view("2026-03-03").places, new Set(), 2)
    // 12 km: 4.30 + 8.40 + 10.40 + 52 steps of €0.20 past 7 km (10.40) + €6.00.
    expect(large.total(meterAmount(meter, { meterKm: 12, meterSeconds: 0 }), 0)).toBeCloseTo(39.5, 10)
  })
})

describe("Berlin before 2022-12-20: the tariffs of 2014-02-19, 2015-06-30, 2019-10-01 and 2022-06-01", () => {
  const doc = loadTariff("berlin")
  it("each version's €0.20 steps: €3.40 + €1.79/km (2014), €3.90 + €2.00/km (2015), €3.90 + €2.30/km (2019), to 7 km", () => {
    const tariff = tariffOf(doc)
    expect(["2014-02-19", "2015-06-29", "2015-06-30", "2019-09-30", "2019-10-01", "2022-05-31", "2022-06-01", "2022-12-19", "2022-12-20"]
      .map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2014-02-19", "2014-02-19", "2015-06-30", "2015-06-30", "2019-10-01", "2019-10-01", "2022-06-01", "2022-06-01", "2022-12-20"])
    // 4 km with no slow time: the completed steps of 111.70 m, 100 m and 86.96 m.
    expect(meterAmount(meterAt(doc, "2014-06-03"), { meterKm: 4, meterSeconds: 0 })).toBeCloseTo(3.4 + 35 * 0.2, 10)
    expect(meterAmount(meterAt(doc, "2017-06-06"), { meterKm: 4, meterSeconds: 0 })).toBeCloseTo(3.9 + 40 * 0.2, 10)
    expect(meterAmount(meterAt(doc, "2021-06-01"), { meterKm: 4, meterSeconds: 0 })).toBeCloseTo(3.9 + 46 * 0.2, 10)
    // Beyond 7 km the lower rate: 2019's €1.65/km is a step per 121.21 m.
    expect(meterAmount(meterAt(doc, "2021-06-01"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(3.9 + 80 * 0.2 + 24 * 0.2, 10)
    // Waiting: €25, €30, €33 an hour (€0.20 per 28.8 s, 24 s, 21.82 s).
    expect(meterAmount(meterAt(doc, "2014-06-03"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(3.4 + 25, 9)
    expect(meterAmount(meterAt(doc, "2017-06-06"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(3.9 + 30, 9)
    expect(meterAmount(meterAt(doc, "2021-06-01"), { meterKm: 0, meterSeconds: 3600 })).toBeCloseTo(3.9 + 33, 9)
  })
  it("a quote of 2019 is priced on 2019's rule, with the Tegel pick-up surcharge while the airport was open", () => {
    const market = marketOf("berlin")
    const hbf = { latitude: 52.5251, longitude: 13.3694 }, alex = { latitude: 52.5219, longitude: 13.4132 }, tegel = { latitude: 52.5597, longitude: 13.2877 }
    const p5 = (from: typeof hbf, iso: string) => market.offers(suppliedTrip(market, from, alex, 4, 12)(iso)).find((o) => o.serviceLevel === "Standard")
    const y2019 = p5(hbf, "2019-11-05T11:00:00+01:00")
    expect(y2019?.source?.tariff?.effectiveFrom).toBe("2019-10-01")
    expect(y2019?.distribution.quantile(0.05)).toBeCloseTo(13.1, 9)
    expect(p5(tegel, "2019-11-05T11:00:00+01:00")?.distribution.quantile(0.05)).toBeCloseTo(13.6, 9)
    // Tegel closed on 2020-11-08: no surcharge after.
    expect(p5(tegel, "2021-03-02T11:00:00+01:00")?.distribution.quantile(0.05)).toBeCloseTo(13.1, 9)
  })
})

describe("Toronto: Chapter 546 tariff (with the 2022 fuel surcharge)", () => {
  const meter = meterOf(loadTariff("toronto"))
  it("reproduces $4.25 for the first 0.143 km and $0.25 per further 0.143 km or part", () => {
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(12.75, 10)
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(21.5, 10)
  })
  it("before 2022-05-11 the drop rate was $3.25 (from 2015-11-01), the units the same", () => {
    const doc = loadTariff("toronto")
    const old = meterAt(doc, "2019-05-14")
    expect(meterAmount(old, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(11.75, 10)
    expect(meterAmount(old, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(20.5, 10)
    expect(meterAt(doc, "2022-05-10").initial).toBe(3.25)
    expect(meterAt(doc, "2022-05-11").initial).toBe(4.25)
  })
  it("a trip before 2015-11-01 is refused (no-rule-for-date): the drop was $4.25 then (Global News 2015-10-30, sinoca.com 2015-10-31), the rule's start not dated", () => {
    const market = marketOf("toronto")
    expect(loadTariff("toronto").define?.beforeFirstRule).toBe("refuse")
    const NATHAN_PHILLIPS = { latitude: 43.6525, longitude: -79.3832 }
    const DANFORTH = { latitude: 43.6786, longitude: -79.3466 }
    const trip = (iso: string) => suppliedTrip(market, NATHAN_PHILLIPS, DANFORTH, 5, 15)(iso)
    // On 2015-10-31 a 5 km trip was 4.25 + 34 × 0.25 = $12.75 (the 2015 rule would say $11.75): not priced.
    expectRefusedBefore(market, trip, ["2014-06-03T11:00:00-04:00", "2015-10-31T23:30:00-04:00"], "2015-11-01T00:30:00-04:00")
    expect(market.offers(trip("2015-11-01T00:30:00-04:00"))).toHaveLength(1)
  })
})

describe("Singapore: ComfortDelGro fares of 2023-12-13 (operator-lodged)", () => {
  const doc = loadTariff("singapore")
  const meter = meterOf(doc)
  it("reproduces S$4.40 for the first km, S$0.26 per 400 m to 10 km and per 350 m after", () => {
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(10.38, 10)
    expect(meterAmount(meter, { meterKm: 13.5, meterSeconds: 0 })).toBeCloseTo(10.38 + 10 * 0.26, 10)
  })
  it("adds 25 % in the evening peak, 50 % after midnight and the Changi surcharge at pick-up", () => {
    const v = newest(doc)
    expect(chargesFor(v, "meter", view("2026-03-03", 18 * 60).moment, view("2026-03-03").places, new Set(), 2).total(10, 0)).toBeCloseTo(12.5, 10)
    expect(chargesFor(v, "meter", view("2026-03-03", 60).moment, view("2026-03-03").places, new Set(), 2).total(10, 0)).toBeCloseTo(15, 10)
    const changi = marketOf("singapore").tariffs.locate({ latitude: 1.3644, longitude: 103.9915 })
    expect(chargesFor(v, "meter", view("2026-03-03", 14 * 60).moment, { pickup: changi, dropoff: none }, new Set(), 2).total(10, 0)).toBeCloseTo(16, 10)
  })
})

describe("Singapore before 2023-12-13: ComfortDelGro's fares of 2011-12-12, 2022-03-01 and 2022-04-04", () => {
  const doc = loadTariff("singapore")
  it("S$3.70 + S$0.22 per 400 m (2011), S$3.90 + S$0.24 (2022-03-01), S$3.90 + S$0.25 (2022-04-04)", () => {
    // 10 km: 23 steps of 400 m past the first km (the operator's own 10 km estimates S$10.98 and S$11.82 before and after 2022-03-01 include some waiting).
    expect(meterAmount(meterAt(doc, "2019-05-14"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(3.7 + 23 * 0.22, 10)
    expect(meterAmount(meterAt(doc, "2022-03-15"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(3.9 + 23 * 0.24, 10)
    expect(meterAmount(meterAt(doc, "2023-06-06"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(3.9 + 23 * 0.25, 10)
    expect(meterAt(doc, "2023-12-13").initial).toBeCloseTo(4.4, 10)
  })
  it("the Changi pick-up surcharge: S$5 Friday–Sunday 17:00–24:00 and S$3 otherwise, S$8 and S$6 from 2022-05-19", () => {
    const tariff = tariffOf(doc)
    const changi = marketOf("singapore").tariffs.locate({ latitude: 1.3644, longitude: 103.9915 })
    const surcharge = (date: string, minute: number) => {
      const v = view(date, minute)
      // Fares of 10 at 14:00 and 11:00 (no peak) show the surcharge alone.
      return chargesFor(versionAt(tariff, date), "meter", v.moment, { pickup: changi, dropoff: none }, new Set(), 2).total(10, 0) - 10
    }
    expect(Number(surcharge("2019-05-14", 14 * 60).toFixed(2))).toBe(3)
    expect(Number(surcharge("2022-06-07", 11 * 60).toFixed(2))).toBe(6)
  })
})

describe("Amsterdam: Dutch national maximum taxi tariff of 2026", () => {
  const doc = loadTariff("amsterdam")
  const meter = meterOf(doc)
  it("reproduces start + per km + per minute of the whole trip: €4.31 + €3.17/km + €0.52/min", () => {
    // 7 km in 15 min: 4.31 + 7 × 3.17 + 15 × 0.52 = 4.31 + 22.19 + 7.80
    expect(meterFare(meter, 7, 15, 0)).toBeCloseTo(34.3, 9)
    // 3 km in 8 min: 4.31 + 9.51 + 4.16
    expect(meterFare(meter, 3, 8, 0)).toBeCloseTo(17.98, 9)
    // Time runs whatever the speed: 20 km in 25 min (a motorway trip) still pays 25 minutes.
    expect(meterFare(meter, 20, 25, 0)).toBeCloseTo(4.31 + 63.4 + 13, 9)
    // Standing still 10 minutes: the start and the minutes.
    expect(meterFare(meter, 0, 10, 0)).toBeCloseTo(9.51, 9)
  })
  it("the taxibus (5–8 passengers, XL) on its own maxima: €8.77 + €4.00/km + €0.59/min", () => {
    const bus = meterOf(doc, 1)
    expect(doc.tariffs[1]?.serviceLevel).toBe("XL")
    // 7 km in 15 min: 8.77 + 28.00 + 8.85
    expect(meterFare(bus, 7, 15, 0)).toBeCloseTo(45.62, 9)
  })
  it("a supplied route is priced exactly (time runs always: nothing to spread); the 2026 rule is the one in force", () => {
    const market = marketOf("amsterdam")
    const tariff = tariffOf(doc)
    const priced = priceTrip(market.tariffs, tariff, { distanceKm: 7, durationMinutes: 15, routeSource: "supplied" }, view("2026-11-24"), 2)
    expect(priced.version.effectiveFrom).toBe("2026-01-01")
    expect(priced.distribution.quantile(0.05)).toBeCloseTo(34.3, 9)
    expect(priced.distribution.quantile(0.95)).toBeCloseTo(34.3, 9)
  })
})

describe("Amsterdam before 2026: each year's maxima from 2014", () => {
  const doc = loadTariff("amsterdam")
  it("a trip is priced on its own year's maxima: 3.2 km in 12 min was €13.87 in 2014, €15.39 in 2019, €19.37 in 2024, €19.91 in 2025", () => {
    const at = (date: string, i: number) => meterAmount(meterAt(doc, date, i), { meterKm: 3.2, meterSeconds: 720 })
    expect([2014, 2019, 2024, 2025, 2026].map((y) => Number(at(`${y}-06-03`, 0).toFixed(2)))).toEqual([13.87, 15.39, 19.37, 19.91, 20.69])
    // The taxibus on its own maxima (2014: €5.87 + €2.67/km + €0.40/min).
    expect(Number(at("2014-06-03", 1).toFixed(2))).toBe(19.21)
    const tariff = tariffOf(doc)
    expect(["2013-12-31", "2014-01-01", "2024-12-31", "2025-01-01", "2026-01-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2014-01-01", "2014-01-01", "2024-01-01", "2025-01-01", "2026-01-01"])
  })
})

describe("Hong Kong: urban taxi fare scale of 2024-07-14 (and of 2022-07-17)", () => {
  const doc = loadTariff("hong-kong")
  const meter = meterOf(doc)
  it("reproduces $29 for the first 2 km or any part, $2.10 per further 200 m or part until the fare reaches $102.50, $1.40 after", () => {
    expect(meterAmount(meter, { meterKm: 1.5, meterSeconds: 0 })).toBeCloseTo(29, 9)
    expect(meterAmount(meter, { meterKm: 2, meterSeconds: 0 })).toBeCloseTo(29, 9)
    // "or any part": 50 m past the flagfall is a jump.
    expect(meterAmount(meter, { meterKm: 2.05, meterSeconds: 0 })).toBeCloseTo(31.1, 9)
    // 5 km: 15 jumps of $2.10.
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(60.5, 9)
    // 9 km: 35 jumps of $2.10 bring the fare to $102.50, where the lower rate begins.
    expect(meterAmount(meter, { meterKm: 9, meterSeconds: 0 })).toBeCloseTo(102.5, 9)
    expect(meterAmount(meter, { meterKm: 9.1, meterSeconds: 0 })).toBeCloseTo(103.9, 9)
    // 20 km: $102.50 + 55 jumps of $1.40.
    expect(meterAmount(meter, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(179.5, 9)
  })
  it("a minute of waiting is a jump at the rate the fare has reached: 5 km + 4 min is $68.90, 9 km + 3 min is $106.70", () => {
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 240 })).toBeCloseTo(60.5 + 4 * 2.1, 9)
    expect(meterAmount(meter, { meterKm: 9, meterSeconds: 180 })).toBeCloseTo(102.5 + 3 * 1.4, 9)
    // Waiting pushes the fare over $102.50 too: 8 km + 8 min is 30 + 5 jumps at $2.10, 3 at $1.40.
    expect(meterAmount(meter, { meterKm: 8, meterSeconds: 480 })).toBeCloseTo(102.5 + 3 * 1.4, 9)
    // On one counter, waiting also uses up the first 2 km (the reading this file takes; see SOURCES.md).
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(29, 9)
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 720 })).toBeCloseTo(33.2, 9)
  })
  it("a trip before 2024-07-14 pays the 2022 scale: $27, $1.90 per jump to $93.50 (9 km), $1.30 after", () => {
    const tariff = tariffOf(doc)
    const old = versionAt(tariff, "2024-07-13").meter
    if (old === undefined) throw new Error("no 2022 meter")
    expect(versionAt(tariff, "2024-07-14").effectiveFrom).toBe("2024-07-14")
    expect(meterAmount(old, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(55.5, 9)
    expect(meterAmount(old, { meterKm: 9, meterSeconds: 0 })).toBeCloseTo(93.5, 9)
    expect(meterAmount(old, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(165, 9)
  })
  it("a trip from 2017-04-09 to 2022-07-16 pays the 2017 scale: $24, $1.70 per jump to $83.50 (9 km), $1.20 after", () => {
    const tariff = tariffOf(doc)
    expect(["2017-04-09", "2022-07-16", "2022-07-17"].map((d) => versionAt(tariff, d).effectiveFrom)).toEqual(["2017-04-09", "2017-04-09", "2022-07-17"])
    const old = meterAt(doc, "2019-05-14")
    expect(meterAmount(old, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(49.5, 9)
    expect(meterAmount(old, { meterKm: 9, meterSeconds: 0 })).toBeCloseTo(83.5, 9)
    expect(meterAmount(old, { meterKm: 20, meterSeconds: 0 })).toBeCloseTo(149.5, 9)
    expect(meterAmount(old, { meterKm: 5, meterSeconds: 180 })).toBeCloseTo(49.5 + 3 * 1.7, 9)
  })
  it("serves the airport, Lantau and the New Territories, not Shenzhen or Macau", () => {
    const market = marketOf("hong-kong")
    for (const p of [{ latitude: 22.308, longitude: 113.9185 }, { latitude: 22.38, longitude: 114.19 }, { latitude: 22.445, longitude: 114.03 }, { latitude: 22.2819, longitude: 114.1582 }]) {
      expect(market.serves(p)).toBe(true)
    }
    for (const p of [{ latitude: 22.54, longitude: 114.05 }, { latitude: 22.535, longitude: 114.118 }, { latitude: 22.19, longitude: 113.54 }]) {
      expect(market.serves(p)).toBe(false)
    }
  })
})

describe("published typical fares against the quoted spread", () => {
  it("Tokyo: the MLIT examples (no slow time) lie at or just below the quoted p5 of a trip at 24 km/h", () => {
    const market = marketOf("tokyo")
    const tariff = tariffOf(loadTariff("tokyo"))
    for (const [km, published] of [[3.9, 1600], [10, 4000]] as const) {
      const priced = priceTrip(market.tariffs, tariff, { distanceKm: km, durationMinutes: (km / 24) * 60, routeSource: "supplied" }, view("2026-03-03"), 0)
      const p5 = priced.distribution.quantile(0.05), p95 = priced.distribution.quantile(0.95)
      expect(published).toBeLessThanOrEqual(p5)
      expect(p5 - published).toBeLessThanOrEqual(200)
      expect(p95).toBeGreaterThan(p5)
    }
  })
})
