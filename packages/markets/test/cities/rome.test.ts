/**
 * Rome (the tariffe predeterminate of Rome-licensed taxis between the airports Fiumicino and
 * Ciampino and inside the Aurelian walls): a market of fixed fares alone. Each fare exact, both
 * ways, on the dates a single version is known to be in force; inside the two windows where the
 * day of a change is not known (`changedAfter`), the price spans both versions and says so.
 * Nothing is offered for a trip no fare covers (the city's meter is not in the file).
 * Sources: packages/markets/models/sources/rome.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionAt } from "@ridequote/markets"
import { type Point, shippedMarket, tripsOf } from "./support.js"

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
  it("offers nothing for a trip no fare covers: within the walls, airport to airport, outside the walls", () => {
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
  it("2024-01-01 lies between 2017-03-28 (€48 / €30 last seen) and 2024-01-31 (€50 / €31 first seen): 48–50 and 30–31, both ways", () => {
    const at = "2024-01-01T10:00:00+01:00"
    expect(price(FCO_T3, PANTHEON, at)).toEqual([[48, 50]])
    expect(price(PANTHEON, FCO_T1, at)).toEqual([[48, 50]])
    expect(price(CIA, TERMINI, at)).toEqual([[30, 31]])
    expect(price(TERMINI, CIA, at)).toEqual([[30, 31]])
    expect(offers(FCO_T3, PANTHEON, at)[0]?.source?.level?.evidence).toContain(
      "the rule changed on a day not known between 2017-03-28 and 2024-01-31"
    )
    expect(offers(PANTHEON, TERMINI, at)).toEqual([])
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
})

describe("Rome: dates a single version is known to be in force", () => {
  it("2024-07-15 (and 2024-03-05): €50 / €31 exact, both ways", () => {
    for (const at of ["2024-07-15T10:00:00+02:00", "2024-03-05T10:00:00+01:00"]) {
      expect([price(FCO_T3, PANTHEON, at), price(PANTHEON, FCO_T3, at), price(CIA, TERMINI, at), price(TERMINI, CIA, at)])
        .toEqual([[[50, 50]], [[50, 50]], [[31, 31]], [[31, 31]]])
    }
  })
  it("2012-10-17 to 2017-03-27: €48 / €30 exact, both ways", () => {
    expect(["2012-10-17", "2017-03-27", "2017-03-28", "2024-01-31", "2024-07-16", "2025-07-31"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2012-10-17", "2012-10-17", "2012-10-17", "2024-01-31", "2024-01-31", "2025-07-31"])
    const at = "2016-05-10T10:00:00+02:00"
    expect([price(FCO_T1, TRASTEVERE, at), price(TRASTEVERE, FCO_T1, at), price(CIA, COLOSSEUM, at), price(COLOSSEUM, CIA, at)])
      .toEqual([[[48, 48]], [[48, 48]], [[30, 30]], [[30, 30]]])
    expect(offers(FCO_T1, TRASTEVERE, at)[0]?.source?.level?.evidence).toBeUndefined()
  })
})
