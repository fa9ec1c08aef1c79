/**
 * Rome (Rome-licensed taxis): Roma Capitale's meter of 2012 and of 2021 (delibera 129/2021, the
 * rule in force on 2024-01-01), each on worked examples computed by hand from the reported
 * amounts, and the tariffe predeterminate between the airports Fiumicino and Ciampino and inside
 * the Aurelian walls. Each fare exact, both ways, on the dates a single version is known to be in
 * force; inside the two windows where the day of a change is not known (`changedAfter`), the
 * price spans both versions and says so. The 2024 rule's meter was not read: from 2025-07-31
 * nothing is offered for a trip no fixed fare covers.
 * Sources: packages/markets/models/sources/rome.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterForView, meterOn, shippedMarket, tripsOf, type Point, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("rome")

const FCO_T1: Point = { latitude: 41.8003, longitude: 12.2389 }
const FCO_T3: Point = { latitude: 41.7989, longitude: 12.2519 }
const CIA: Point = { latitude: 41.7990, longitude: 12.5946 }
const PANTHEON: Point = { latitude: 41.8986, longitude: 12.4769 }
const TERMINI: Point = { latitude: 41.9009, longitude: 12.5010 }
const COLOSSEUM: Point = { latitude: 41.8902, longitude: 12.4922 }
const TRASTEVERE: Point = { latitude: 41.8894, longitude: 12.4703 } // Santa Maria in Trastevere
const ST_PETERS: Point = { latitude: 41.9022, longitude: 12.4539 } // outside the walls
const SAN_LORENZO: Point = { latitude: 41.8985, longitude: 12.5190 } // outside the walls
const EUR: Point = { latitude: 41.8300, longitude: 12.4700 }

const { offers, price } = tripsOf(market, 30, 45)

describe("Rome: zones", () => {
  it("the airports' terminals and the Aurelian walls (a polygon of 24 points, an approximation)", () => {
    const has = (p: Point, zone: string) => market.tariffs.locate(p).has(zone)
    expect([has(FCO_T1, "fco"), has(FCO_T3, "fco"), has(CIA, "cia")]).toEqual([true, true, true])
    expect([PANTHEON, TERMINI, COLOSSEUM, TRASTEVERE].map((p) => has(p, "mura-aureliane"))).toEqual([true, true, true, true])
    expect([ST_PETERS, SAN_LORENZO, EUR, FCO_T1].map((p) => has(p, "mura-aureliane"))).toEqual([false, false, false, false])
    expect([market.serves(FCO_T3), market.serves(CIA), market.serves(PANTHEON)]).toEqual([true, true, true])
    expect(doc.airports.map((a) => a.iata)).toEqual(["FCO", "CIA"])
  })
})

describe("Rome: the 2024 fares, in force by 2025-07-31 (with the caveat)", () => {
  const at = "2026-12-08T11:00:00+01:00"
  it("Fiumicino – inside the walls €55, Ciampino – inside the walls €40, both ways, day and night", () => {
    expect(price(FCO_T3, PANTHEON, at)).toEqual([[55, 55]])
    expect(price(TRASTEVERE, FCO_T1, at)).toEqual([[55, 55]])
    expect(price(CIA, TERMINI, at)).toEqual([[40, 40]])
    expect(price(COLOSSEUM, CIA, at)).toEqual([[40, 40]])
    expect(price(FCO_T1, TERMINI, "2026-12-06T03:00:00+01:00")).toEqual([[55, 55]])
    expect(price(PANTHEON, FCO_T3, "2025-07-31T10:00:00+02:00")).toEqual([[55, 55]])
  })
  it("offers nothing for a trip no fare covers (the 2024 meter was not read): within the walls, airport to airport, outside the walls", () => {
    expect(offers(PANTHEON, TERMINI, at)).toEqual([])
    expect(offers(FCO_T3, CIA, at)).toEqual([])
    expect(offers(FCO_T3, ST_PETERS, at)).toEqual([])
    expect(offers(EUR, FCO_T1, at)).toEqual([])
    expect(offers(CIA, SAN_LORENZO, at)).toEqual([])
  })
  it("carries the caveat: Rome-licensed taxis only, last seen in force in 2025-09", () => {
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("Fiumicino-licensed taxis")
    expect(offers(FCO_T3, PANTHEON, at)[0]?.source?.level?.evidence).toContain("last seen in force in September 2025")
  })
})

describe("Rome: the changes whose day is not known, priced on both versions", () => {
  it("between the Giunta of 2021-05-25 and 2023-08-31 (the 2021 rule first seen in force): 48–50 and 30–31, both ways", () => {
    const at = "2022-06-15T10:00:00+02:00"
    expect(price(FCO_T3, PANTHEON, at)).toEqual([[48, 50]])
    expect(price(PANTHEON, FCO_T1, at)).toEqual([[48, 50]])
    expect(price(CIA, TERMINI, at)).toEqual([[30, 31]])
    expect(price(TERMINI, CIA, at)).toEqual([[30, 31]])
    expect(offers(FCO_T3, PANTHEON, at)[0]?.source?.level?.evidence).toContain(
      "the rule changed on a day not known between 2021-05-25 and 2023-08-31"
    )
    // Within the walls both meters price the trip: the 2012 meter below, the 2021 one above.
    const [inWindow] = price(PANTHEON, TERMINI, at)
    const [on2012] = price(PANTHEON, TERMINI, "2019-06-12T10:00:00+02:00")
    const [on2021] = price(PANTHEON, TERMINI, "2023-10-11T10:00:00+02:00")
    expect(inWindow?.[0]).toBe(on2012?.[0])
    expect(inWindow?.[1]).toBe(on2021?.[1])
    expect(offers(PANTHEON, TERMINI, at)[0]?.source?.level?.evidence).toContain("so its price spans both versions")
  })
  it("between the Giunta of 2024-07-16 and 2025-07-31: 50–55 and 31–40, the evidence naming both amounts", () => {
    const at = "2025-01-14T10:00:00+01:00"
    expect(price(FCO_T3, PANTHEON, at)).toEqual([[50, 55]])
    expect(price(PANTHEON, FCO_T3, at)).toEqual([[50, 55]])
    expect(price(CIA, COLOSSEUM, at)).toEqual([[31, 40]])
    expect(price(COLOSSEUM, CIA, at)).toEqual([[31, 40]])
    const evidence = offers(CIA, COLOSSEUM, at)[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("(31 EUR) was last seen in force on 2024-07-16")
    expect(evidence).toContain("(40 EUR) first seen in force on 2025-07-31")
  })
  it("a metered trip in that window is refused (the 2024 meter not read: the 2021 meter alone would be a guess after the change)", () => {
    const at = "2025-01-14T10:00:00+01:00"
    expect(offers(PANTHEON, TERMINI, at)).toEqual([])
    expect(offers(PANTHEON, TERMINI, "2024-07-10T10:00:00+02:00")).toHaveLength(1)
    const refusal = market.unoffered?.(suppliedTrip(market, PANTHEON, TERMINI, 30, 45)(at))
    expect(refusal?.reason).toBe("no-rule-for-date")
    expect(refusal?.message).toBe(
      "market rome knows no rule for this trip on 2025-01-14: its rule changed between 2024-07-16 and 2025-07-31 on a day not known, and only the rule of before prices the trip"
    )
  })
})

describe("Rome: dates a single version is known to be in force", () => {
  it("2024-01-01, 2024-03-05 and 2024-07-15: €50 / €31 exact, both ways", () => {
    for (const at of ["2024-01-01T10:00:00+01:00", "2024-07-15T10:00:00+02:00", "2024-03-05T10:00:00+01:00"]) {
      expect([price(FCO_T3, PANTHEON, at), price(PANTHEON, FCO_T3, at), price(CIA, TERMINI, at), price(TERMINI, CIA, at)])
        .toEqual([[[50, 50]], [[50, 50]], [[31, 31]], [[31, 31]]])
    }
  })
  it("2012-10-17 to 2021-05-24: €48 / €30 exact, both ways", () => {
    expect(["2012-10-17", "2017-03-28", "2021-05-24", "2021-05-25", "2023-08-31", "2024-01-01", "2024-07-16", "2025-07-31"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2012-10-17", "2012-10-17", "2012-10-17", "2012-10-17", "2023-08-31", "2023-08-31", "2023-08-31", "2025-07-31"])
    for (const at of ["2016-05-10T10:00:00+02:00", "2019-06-12T10:00:00+02:00"]) {
      expect([price(FCO_T1, TRASTEVERE, at), price(TRASTEVERE, FCO_T1, at), price(CIA, COLOSSEUM, at), price(COLOSSEUM, CIA, at)])
        .toEqual([[[48, 48]], [[48, 48]], [[30, 30]], [[30, 30]]])
      expect(offers(FCO_T1, TRASTEVERE, at)[0]?.source?.level?.evidence).toBeUndefined()
    }
  })
})

describe("Rome: the meter of 2021 (delibera 129/2021), in force on 2024-01-01", () => {
  const holidays = market.tariffs.holidays
  const meter = meterOn(tariff, "2024-01-10")
  it("quota fissa €3 + T1 €1.14/km for a further €11, T2 €1.35/km for a further €13, then T3 €1.66/km, in €0.10 ticks", () => {
    // 5 km: 5 ÷ (0.10 ÷ 1.14) = 57 ticks = €5.70; + €3 = €8.70.
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(8.7, 9)
    // T1 ends at 11 ÷ 1.14 = 9.649 km (110 ticks, €11): €14.
    expect(meterAmount(meter, { meterKm: 11 / 1.14, meterSeconds: 0 })).toBeCloseTo(14, 9)
    // 15 km: T1 €11; T2 (15 − 9.649) km ÷ (0.10 ÷ 1.35) = 72.24 → 72 ticks = €7.20; €3 + 11 + 7.20 = €21.20.
    expect(meterAmount(meter, { meterKm: 15, meterSeconds: 0 })).toBeCloseTo(21.2, 9)
    // 25 km: T1 €11; T2 ends at 9.649 + 13 ÷ 1.35 = 19.279 km (130 ticks, €13);
    // T3 (25 − 19.279) km ÷ (0.10 ÷ 1.66) = 94.97 → 94 ticks = €9.40; €3 + 11 + 13 + 9.40 = €36.40.
    expect(meterAmount(meter, { meterKm: 25, meterSeconds: 0 })).toBeCloseTo(36.4, 9)
    expect(meter.distance.map((t) => t.fromKm)).toEqual([0, 11 / 1.14, 11 / 1.14 + 13 / 1.35].map((x) => expect.closeTo(x, 9)))
  })
  it("€28 an hour below 20 km/h: 10 minutes are 600 ÷ (0.10 ÷ 28 × 3600 = 12.857 s) = 46.67 → 46 ticks, €4.60", () => {
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(3 + 4.6, 9)
    expect(meter.time.crossoverKmh).toBe(20)
  })
  it("the quota fissa: €3 on working days 06:00–22:00 (Saturdays too), €5 on Sundays and holidays, €7 at night 22:00–06:00", () => {
    const initial = (date: string, minute: number) => meterForView(tariff, view(date, minute), holidays).initial
    expect([
      initial("2024-01-10", 11 * 60), // Wednesday
      initial("2024-01-13", 11 * 60), // Saturday
      initial("2024-01-14", 11 * 60), // Sunday
      initial("2024-01-01", 11 * 60), // Capodanno (Monday)
      initial("2024-06-29", 11 * 60), // Santi Pietro e Paolo (a Saturday, Rome's patron saint)
      initial("2023-11-01", 11 * 60), // Ognissanti (Wednesday)
      initial("2024-01-10", 22 * 60), // Wednesday night
      initial("2024-01-14", 23 * 60), // Sunday night
      initial("2024-01-10", 5 * 60 + 59), // before 06:00
      initial("2024-01-10", 6 * 60) // 06:00
    ]).toEqual([3, 3, 5, 5, 5, 5, 7, 7, 7, 3])
    // 5 km on New Year's Day by day: €5 + €5.70 = €10.70; at night €7 + €5.70 = €12.70.
    expect(meterAmount(meterForView(tariff, view("2024-01-01", 11 * 60), holidays), { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(10.7, 9)
    expect(meterAmount(meterForView(tariff, view("2024-01-01", 23 * 60), holidays), { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(12.7, 9)
  })
  it("the market prices trips no fixed fare covers on the meter: within the walls, Fiumicino – St Peter's, outside the walls", () => {
    const at = "2024-01-10T11:00:00+01:00"
    for (const [from, to] of [[PANTHEON, TERMINI], [FCO_T3, ST_PETERS], [EUR, FCO_T1], [CIA, SAN_LORENZO]] as const) {
      const priced = offers(from, to, at)
      expect(priced).toHaveLength(1)
      expect(priced[0]?.source?.level?.evidence).toBeUndefined()
    }
    // A supplied route of 30 km in 45 minutes: at least the meter on 30 km with no slow time
    // less the distance slow time takes off, and at least €3 + 11 + 13 = €27 for its first 19.28 km.
    const [[p5, p95] = [0, 0]] = price(PANTHEON, TERMINI, at)
    expect(p5).toBeGreaterThan(27)
    expect(p95).toBeGreaterThan(p5)
    // The fixed fares still price the trips they cover.
    expect(price(FCO_T3, PANTHEON, at)).toEqual([[50, 50]])
  })
})

describe("Rome: the meter of 2012 (delibera 151 of 2012-05-23)", () => {
  const holidays = market.tariffs.holidays
  const meter = meterOn(tariff, "2016-05-10")
  it("€3 + T1 €1.10/km to 10 km (a further €11), T2 €1.30/km to 20 km (a further €13), T3 €1.60/km; €27 an hour below 20 km/h", () => {
    // 10 km: 100 ticks of 0.0909 km = €11; + €3 = €14.
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(14, 9)
    // 25 km: €11 + 130 ticks (€13) + 5 km ÷ 0.0625 = 80 ticks (€8); €3 + 11 + 13 + 8 = €35.
    expect(meterAmount(meter, { meterKm: 25, meterSeconds: 0 })).toBeCloseTo(35, 9)
    // 10 minutes below 20 km/h: 600 ÷ 13.33 s = 45 ticks = €4.50.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(7.5, 9)
    const initial = (date: string, minute: number) => meterForView(tariff, view(date, minute), holidays).initial
    expect([initial("2016-05-10", 660), initial("2016-05-08", 660), initial("2016-04-25", 660), initial("2016-05-10", 23 * 60)]).toEqual([3, 4.5, 4.5, 6.5])
  })
})

describe("Rome: trips before the first rule (2012-10-17) are refused (audit G1)", () => {
  const PIAZZA_VENEZIA = { latitude: 41.896, longitude: 12.4823 } // inside the Aurelian walls
  it("before the 2012 fares: Fiumicino €40, Ciampino €30 from 2006-10-01 (Il Tempo 2011-03-27): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("rome").market
    const trip = suppliedTrip(before, FCO_T1, PIAZZA_VENEZIA, 30, 40)
    expectRefusedBefore(before, trip, "2012-10-13T11:00:00+02:00", "2012-10-17T11:00:00+02:00")
  })
})
