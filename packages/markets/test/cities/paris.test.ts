/**
 * Paris (forfaits of the taxis parisiens between Paris and the airports Paris-Charles-de-Gaulle and
 * Paris-Orly): a market of fixed fares alone. Each forfait exact, both ways, on the dates a single
 * version is known to be in force; from 2024-01-27 to 2025-01-31 (the arrêté for 2024, its Paris
 * amounts not read) the price spans the 2023 and 2025 forfaits (`changedAfter`). Nothing offered
 * for a trip no forfait covers (the taxis parisiens' meter, tariffs A/B/C, is not in the file).
 * Sources: packages/markets/models/sources/paris.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionAt } from "@ridequote/markets"
import { expectRefusedBefore, shippedMarket, tripsOf, type Point } from "./support.js"
import { suppliedTrip } from "../trips.js"

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

describe("Paris: forfaits in force since 2025-02-01 (arrêtés for 2025 and 2026, as DILA reports them)", () => {
  const at = "2026-12-08T11:00:00+01:00"
  it("CDG – rive droite €56, CDG – rive gauche €65, Orly – rive droite €45, Orly – rive gauche €36, both ways", () => {
    expect(price(CDG_T2E, OPERA, at)).toEqual([[56, 56]])
    expect(price(TROCADERO, CDG_T1, at)).toEqual([[56, 56]])
    expect(price(CDG_T1, MONTPARNASSE, at)).toEqual([[65, 65]])
    expect(price(EIFFEL_TOWER, CDG_T2E, at)).toEqual([[65, 65]])
    expect(price(ORLY_4, OPERA, at)).toEqual([[45, 45]])
    expect(price(OPERA, ORLY_4, at)).toEqual([[45, 45]])
    expect(price(ORLY_4, MONTPARNASSE, at)).toEqual([[36, 36]])
    expect(price(EIFFEL_TOWER, ORLY_4, at)).toEqual([[36, 36]])
    // A forfait is the same at night and on Sundays.
    expect(price(CDG_T2E, OPERA, "2026-12-06T03:00:00+01:00")).toEqual([[56, 56]])
    expect(price(MONTPARNASSE, ORLY_4, "2026-12-06T23:30:00+01:00")).toEqual([[36, 36]])
  })
  it("the same on 2025-02-01, the day the arrêté du 20 janvier 2025 was published and applied, and through 2026", () => {
    for (const d of ["2025-02-01T08:00:00+01:00", "2025-06-10T10:00:00+02:00", "2026-01-15T10:00:00+01:00"]) {
      expect([price(OPERA, CDG_T1, d), price(MONTPARNASSE, CDG_T1, d), price(OPERA, ORLY_4, d), price(MONTPARNASSE, ORLY_4, d)])
        .toEqual([[[56, 56]], [[65, 65]], [[45, 45]], [[36, 36]]])
    }
  })
  it("offers nothing for a trip no forfait covers: within Paris, airport to airport, airport to La Défense", () => {
    expect(offers(OPERA, MONTPARNASSE, at)).toEqual([])
    expect(offers(CDG_T2E, ORLY_4, at)).toEqual([])
    expect(offers(CDG_T2E, LA_DEFENSE, at)).toEqual([])
  })
  it("carries no caveat: the arrêté for 2026 left the forfaits unchanged (checked 2026-12-06)", () => {
    expect(versionAt(tariff, "2026-12-08").caveat).toBeUndefined()
    expect(offers(CDG_T2E, OPERA, at)[0]?.source?.level?.evidence).toBeUndefined()
  })
})

describe("Paris: 2024-01-27 to 2025-01-31, the arrêté for 2024 not read: priced on both the 2023 and the 2025 forfaits", () => {
  it("55–56 / 62–65 / 41–45 / 35–36, both ways, the evidence naming the window", () => {
    const at = "2024-06-14T10:00:00+02:00"
    expect([price(CDG_T2E, OPERA, at), price(CDG_T1, MONTPARNASSE, at), price(ORLY_4, OPERA, at), price(ORLY_4, MONTPARNASSE, at)])
      .toEqual([[[55, 56]], [[62, 65]], [[41, 45]], [[35, 36]]])
    expect([price(OPERA, CDG_T2E, at), price(MONTPARNASSE, CDG_T1, at), price(OPERA, ORLY_4, at), price(MONTPARNASSE, ORLY_4, at)])
      .toEqual([[[55, 56]], [[62, 65]], [[41, 45]], [[35, 36]]])
    const evidence = offers(ORLY_4, OPERA, at)[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("a rule in force between 2024-01-27 and 2025-02-01 was not read (its amounts are not known)")
    expect(evidence).toContain("(41 EUR) was last seen in force on 2024-01-27")
    expect(evidence).toContain("(45 EUR) in force from 2025-02-01")
    expect(offers(OPERA, MONTPARNASSE, at)).toEqual([])
  })
  it("the window's ends: 2024-01-27 and 2025-01-31 span both, 2024-01-26 and 2025-02-01 are exact", () => {
    expect(price(CDG_T2E, OPERA, "2024-01-26T10:00:00+01:00")).toEqual([[55, 55]])
    expect(price(CDG_T2E, OPERA, "2024-01-27T10:00:00+01:00")).toEqual([[55, 56]])
    expect(price(CDG_T1, MONTPARNASSE, "2025-01-31T10:00:00+01:00")).toEqual([[62, 65]])
    expect(price(CDG_T1, MONTPARNASSE, "2025-02-01T10:00:00+01:00")).toEqual([[65, 65]])
  })
})

describe("Paris: earlier forfaits, each trip on its own date's rule", () => {
  it("2024-01-01 is priced on the 2023 forfaits (55 / 62 / 41 / 35), exact, both ways", () => {
    const at = "2024-01-01T10:00:00+01:00"
    expect([price(CDG_T2E, OPERA, at), price(CDG_T2E, MONTPARNASSE, at), price(ORLY_4, OPERA, at), price(ORLY_4, MONTPARNASSE, at)])
      .toEqual([[[55, 55]], [[62, 62]], [[41, 41]], [[35, 35]]])
    expect([price(OPERA, CDG_T2E, at), price(MONTPARNASSE, CDG_T2E, at), price(OPERA, ORLY_4, at), price(MONTPARNASSE, ORLY_4, at)])
      .toEqual([[[55, 55]], [[62, 62]], [[41, 41]], [[35, 35]]])
    expect(offers(CDG_T2E, OPERA, at)[0]?.source?.level?.evidence).toBeUndefined()
  })
  it("2020-02-01 to 2023-01-31: 53 / 58 / 37 / 32; 2016-03-01 to 2020-01-31: 50 / 55 / 35 / 30", () => {
    expect(["2016-03-01", "2019-12-31", "2020-02-01", "2023-01-31", "2023-02-01", "2024-01-26", "2024-01-27", "2025-01-31", "2025-02-01", "2026-12-08"]
      .map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2016-03-01", "2016-03-01", "2020-02-01", "2020-02-01", "2023-02-01", "2023-02-01", "2023-02-01", "2023-02-01", "2025-02-01", "2025-02-01"])
    const y2022 = "2022-06-14T10:00:00+02:00", y2019 = "2019-06-11T10:00:00+02:00"
    expect([price(OPERA, CDG_T1, y2022), price(MONTPARNASSE, CDG_T1, y2022), price(OPERA, ORLY_4, y2022), price(MONTPARNASSE, ORLY_4, y2022)])
      .toEqual([[[53, 53]], [[58, 58]], [[37, 37]], [[32, 32]]])
    expect([price(OPERA, CDG_T1, y2019), price(MONTPARNASSE, CDG_T1, y2019), price(OPERA, ORLY_4, y2019), price(MONTPARNASSE, ORLY_4, y2019)])
      .toEqual([[[50, 50]], [[55, 55]], [[35, 35]], [[30, 30]]])
  })
})

describe("Paris: the 2020 and 2023 forfaits applied on a day not known between the arrêté's JO publication and 1 February (changedAfter)", () => {
  it("2023-01-20 → 2023-01-31 spans the 2020 and 2023 forfaits: 53–55 / 58–62 / 37–41 / 32–35, both ways; 2023-01-19 exact on 2020's", () => {
    const at = "2023-01-25T10:00:00+01:00"
    expect([price(CDG_T2E, OPERA, at), price(CDG_T1, MONTPARNASSE, at), price(ORLY_4, OPERA, at), price(ORLY_4, MONTPARNASSE, at)])
      .toEqual([[[53, 55]], [[58, 62]], [[37, 41]], [[32, 35]]])
    expect([price(OPERA, CDG_T2E, at), price(MONTPARNASSE, ORLY_4, at)]).toEqual([[[53, 55]], [[32, 35]]])
    const evidence = offers(CDG_T2E, OPERA, at)[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("the rule changed on a day not known between 2023-01-20 and 2023-02-01")
    expect(price(CDG_T2E, OPERA, "2023-01-19T10:00:00+01:00")).toEqual([[53, 53]])
    expect(price(CDG_T2E, OPERA, "2023-01-20T10:00:00+01:00")).toEqual([[53, 55]])
    expect(price(CDG_T2E, OPERA, "2023-02-01T10:00:00+01:00")).toEqual([[55, 55]])
  })
  it("2019-12-29 → 2020-01-31 spans the 2016 and 2020 forfaits: 50–53 / 55–58 / 35–37 / 30–32; 2019-12-28 exact on 2016's", () => {
    const at = "2020-01-15T10:00:00+01:00"
    expect([price(CDG_T2E, OPERA, at), price(CDG_T1, MONTPARNASSE, at), price(ORLY_4, OPERA, at), price(ORLY_4, MONTPARNASSE, at)])
      .toEqual([[[50, 53]], [[55, 58]], [[35, 37]], [[30, 32]]])
    expect(price(CDG_T2E, OPERA, "2019-12-28T10:00:00+01:00")).toEqual([[50, 50]])
    expect(price(CDG_T2E, OPERA, "2019-12-29T10:00:00+01:00")).toEqual([[50, 53]])
    expect(price(CDG_T2E, OPERA, "2020-02-01T10:00:00+01:00")).toEqual([[53, 53]])
  })
})

describe("Paris: trips before the first rule (2016-03-01) are refused (audit G1)", () => {
  it("before 2016-03-01 there was no forfait: airport trips were metered (France Soir 2016-03-01: the forfaits begin that day): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("paris").market
    const trip = suppliedTrip(before, CDG_T2E, OPERA, 30, 40)
    expectRefusedBefore(before, trip, "2016-02-26T11:00:00+01:00", "2016-03-01T11:00:00+01:00")
  })
})
