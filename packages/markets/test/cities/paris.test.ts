/**
 * Paris (forfaits of the taxis parisiens between Paris and the airports Paris-Charles-de-Gaulle and
 * Paris-Orly): a market of fixed fares alone. Each forfait exact, both ways, by year; nothing
 * offered for a trip no forfait covers (the taxis parisiens' meter, tariffs A/B/C, is not in the
 * file). Sources: packages/markets/models/sources/paris.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionAt } from "@ridequote/markets"
import { type Point, shippedMarket, tripsOf } from "./support.js"

const { doc, market, tariff } = shippedMarket("paris")

const CDG_T2E: Point = { latitude: 49.0045, longitude: 2.5715 }
const CDG_T1: Point = { latitude: 49.0147, longitude: 2.5418 }
const ORLY_4: Point = { latitude: 48.7233, longitude: 2.3593 }
const OPERA: Point = { latitude: 48.8719, longitude: 2.3316 } // right bank
const TROCADERO: Point = { latitude: 48.8616, longitude: 2.2893 } // right bank, next to the river
const MONTPARNASSE: Point = { latitude: 48.8422, longitude: 2.3211 } // left bank
const EIFFEL_TOWER: Point = { latitude: 48.8584, longitude: 2.2945 } // left bank, next to the river
const LA_DEFENSE: Point = { latitude: 48.8918, longitude: 2.2380 } // outside Paris

const { offers, price } = tripsOf(market, 30, 45)

describe("Paris: zones", () => {
  it("the airports' terminals and the two banks (the Seine as a polyline, an approximation)", () => {
    const has = (p: Point, zone: string) => market.tariffs.locate(p).has(zone)
    expect([has(CDG_T1, "cdg"), has(CDG_T2E, "cdg"), has(ORLY_4, "ory")]).toEqual([true, true, true])
    expect([has(OPERA, "rive-droite"), has(TROCADERO, "rive-droite"), has(OPERA, "rive-gauche")]).toEqual([true, true, false])
    expect([has(MONTPARNASSE, "rive-gauche"), has(EIFFEL_TOWER, "rive-gauche"), has(EIFFEL_TOWER, "rive-droite")]).toEqual([true, true, false])
    expect([has(LA_DEFENSE, "rive-droite"), has(LA_DEFENSE, "rive-gauche")]).toEqual([false, false])
    expect(market.serves(CDG_T2E)).toBe(true)
    expect(doc.airports.map((a) => a.iata)).toEqual(["CDG", "ORY"])
  })
})

describe("Paris: forfaits in force since 2023-02-01 (with the caveat on their successors)", () => {
  const at = "2026-12-08T11:00:00+01:00"
  it("CDG – rive droite €55, CDG – rive gauche €62, Orly – rive droite €41, Orly – rive gauche €35, both ways", () => {
    expect(price(CDG_T2E, OPERA, at)).toEqual([[55, 55]])
    expect(price(TROCADERO, CDG_T1, at)).toEqual([[55, 55]])
    expect(price(CDG_T1, MONTPARNASSE, at)).toEqual([[62, 62]])
    expect(price(EIFFEL_TOWER, CDG_T2E, at)).toEqual([[62, 62]])
    expect(price(ORLY_4, OPERA, at)).toEqual([[41, 41]])
    expect(price(OPERA, ORLY_4, at)).toEqual([[41, 41]])
    expect(price(ORLY_4, MONTPARNASSE, at)).toEqual([[35, 35]])
    // A forfait is the same at night and on Sundays.
    expect(price(CDG_T2E, OPERA, "2026-12-06T03:00:00+01:00")).toEqual([[55, 55]])
  })
  it("offers nothing for a trip no forfait covers: within Paris, airport to airport, airport to La Défense", () => {
    expect(offers(OPERA, MONTPARNASSE, at)).toEqual([])
    expect(offers(CDG_T2E, ORLY_4, at)).toEqual([])
    expect(offers(CDG_T2E, LA_DEFENSE, at)).toEqual([])
  })
  it("carries the caveat: the 2024–2026 revisions were not read", () => {
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("2024")
    const evidence = offers(CDG_T2E, OPERA, at).map((o) => o.source?.level?.evidence ?? "")
    expect(evidence[0]).toContain("not read")
  })
})

describe("Paris: earlier forfaits, each trip on its own date's rule", () => {
  it("2024-01-01 is priced on the 2023 forfaits (55 / 62 / 41 / 35)", () => {
    const at = "2024-01-01T10:00:00+01:00"
    expect([price(CDG_T2E, OPERA, at), price(CDG_T2E, MONTPARNASSE, at), price(ORLY_4, OPERA, at), price(ORLY_4, MONTPARNASSE, at)])
      .toEqual([[[55, 55]], [[62, 62]], [[41, 41]], [[35, 35]]])
  })
  it("2020-02-01 to 2023-01-31: 53 / 58 / 37 / 32; 2016-03-01 to 2020-01-31: 50 / 55 / 35 / 30", () => {
    expect(["2016-03-01", "2019-12-31", "2020-02-01", "2023-01-31", "2023-02-01", "2026-12-08"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2016-03-01", "2016-03-01", "2020-02-01", "2020-02-01", "2023-02-01", "2023-02-01"])
    const y2022 = "2022-06-14T10:00:00+02:00", y2019 = "2019-06-11T10:00:00+02:00"
    expect([price(OPERA, CDG_T1, y2022), price(MONTPARNASSE, CDG_T1, y2022), price(OPERA, ORLY_4, y2022), price(MONTPARNASSE, ORLY_4, y2022)])
      .toEqual([[[53, 53]], [[58, 58]], [[37, 37]], [[32, 32]]])
    expect([price(OPERA, CDG_T1, y2019), price(MONTPARNASSE, CDG_T1, y2019), price(OPERA, ORLY_4, y2019), price(MONTPARNASSE, ORLY_4, y2019)])
      .toEqual([[[50, 50]], [[55, 55]], [[35, 35]], [[30, 30]]])
  })
})
