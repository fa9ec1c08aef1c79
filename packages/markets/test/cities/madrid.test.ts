/**
 * Madrid (Tarifa 4: the taxi's fixed fare between Adolfo Suárez Madrid-Barajas, all terminals,
 * and any point inside the M-30, both ways, 24 hours, no supplements): a market of fixed fares
 * alone. €30 from 2014-01-07 (last dated sighting 2019-06-11); €33 first seen in a repository
 * commit of 2024-08-04 (r3nya/madrid101 d6ed210; seen again 2026-01-12); the day of the change is
 * not known, so a trip dated between is priced on both (`changedAfter`). Nothing is offered for a trip the fare does not cover (the meter and
 * the airport minimum, Tarifa 3, are not in the file).
 * Sources: packages/markets/models/sources/madrid.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionAt } from "@ridequote/markets"
import { type Point, shippedMarket, tripsOf } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("madrid")

// The airport: Metro de Madrid's stations under the terminals (a station list in the stored code
// corpus), the airport reference point of airports-aci-2024.json, and T4S (approximate: between
// the north–south runways, about 2 km north-east of T4; no surveyed point was found).
const T123: Point = { latitude: 40.468139, longitude: -3.570642 } // metro Aeropuerto T1-T2-T3
const T4: Point = { latitude: 40.491479, longitude: -3.594074 } // metro Aeropuerto T4
const T4S: Point = { latitude: 40.5040, longitude: -3.5775 }
const ARP: Point = { latitude: 40.4719, longitude: -3.5626 }
const ALAMEDA_DE_OSUNA: Point = { latitude: 40.456687, longitude: -3.587304 } // metro, next to the airport, not at it
// Inside the M-30.
const SOL: Point = { latitude: 40.4169, longitude: -3.7035 }
const ATOCHA: Point = { latitude: 40.406683, longitude: -3.689292 } // Atocha Renfe
const CHAMARTIN: Point = { latitude: 40.472097, longitude: -3.682476 } // station, 0.8 km inside the ring (Nudo Norte is north of it)
const RETIRO: Point = { latitude: 40.4153, longitude: -3.6845 }
const PRINCIPE_PIO: Point = { latitude: 40.4211, longitude: -3.7203 } // 0.2 km inside the ring (Manzanares side)
// Outside the M-30.
const IFEMA: Point = { latitude: 40.4637, longitude: -3.6163 } // Feria de Madrid, Campo de las Naciones
const LAS_ROZAS: Point = { latitude: 40.4929, longitude: -3.8737 }
const PLAZA_ELIPTICA: Point = { latitude: 40.3855, longitude: -3.7180 } // south of the river
const ARTURO_SORIA: Point = { latitude: 40.456042, longitude: -3.656302 } // metro, 0.6 km east of the ring
const CASA_DE_CAMPO: Point = { latitude: 40.4192, longitude: -3.7378 } // the lake

const { offers, price } = tripsOf(market, 16, 25)

describe("Madrid: zones", () => {
  it("the airport's terminals (two circles) and the M-30 (a polygon of 26 points, an approximation)", () => {
    const has = (p: Point, zone: string) => market.tariffs.locate(p).has(zone)
    expect([T123, T4, T4S, ARP].map((p) => has(p, "mad"))).toEqual([true, true, true, true])
    expect(has(ALAMEDA_DE_OSUNA, "mad")).toBe(false)
    expect([SOL, ATOCHA, CHAMARTIN, RETIRO, PRINCIPE_PIO].map((p) => has(p, "m30"))).toEqual([true, true, true, true, true])
    expect([IFEMA, LAS_ROZAS, PLAZA_ELIPTICA, ARTURO_SORIA, CASA_DE_CAMPO, T4].map((p) => has(p, "m30")))
      .toEqual([false, false, false, false, false, false])
    expect([market.serves(T4S), market.serves(T123), market.serves(SOL)]).toEqual([true, true, true])
    expect(doc.airports.map((a) => a.iata)).toEqual(["MAD"])
  })
})

describe("Madrid: €33, first seen 2024-08-04 (with the caveat)", () => {
  it("every terminal – inside the M-30 €33, both ways, day and night (2026-12-08 11:00 and 03:00)", () => {
    for (const at of ["2026-12-08T11:00:00+01:00", "2026-12-08T03:00:00+01:00"]) {
      expect([price(T4, SOL, at), price(SOL, T4, at), price(T123, ATOCHA, at), price(CHAMARTIN, T123, at), price(T4S, RETIRO, at)])
        .toEqual([[[33, 33]], [[33, 33]], [[33, 33]], [[33, 33]], [[33, 33]]])
    }
    expect(price(PRINCIPE_PIO, ARP, "2026-01-12T08:00:00+01:00")).toEqual([[33, 33]])
  })
  it("offers nothing for a trip the fare does not cover: inside the M-30, outside it, airport to airport", () => {
    const at = "2026-12-08T11:00:00+01:00"
    expect(offers(SOL, ATOCHA, at)).toEqual([])
    expect(offers(T4, IFEMA, at)).toEqual([])
    expect(offers(LAS_ROZAS, T123, at)).toEqual([])
    expect(offers(T4, PLAZA_ELIPTICA, at)).toEqual([])
    expect(offers(ARTURO_SORIA, T4, at)).toEqual([])
    expect(offers(ALAMEDA_DE_OSUNA, SOL, at)).toEqual([])
    expect(offers(T123, T4, at)).toEqual([])
  })
  it("carries the caveat: no authority's text of €33, the day of the change not known", () => {
    expect(versionAt(tariff, "2026-12-08").caveat?.note).toContain("no text of the Ayuntamiento or the Comisión de Precios with the amount was read")
    const evidence = offers(T4, SOL, "2026-12-08T11:00:00+01:00")[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("the day it replaced €30 is not known (after 2019-06-11, by 2024-08-04)")
  })
  it("audit d, finding M1: €33 exact from its first sighting 2024-08-04 (r3nya/madrid101 commit d6ed210 of 2024-08-04): 2024-08-04, 2025-03-11 and 2026-01-11 give 33–33, both ways, not the €30–€33 span", () => {
    for (const at of ["2024-08-04T10:00:00+02:00", "2025-03-11T11:00:00+01:00", "2026-01-11T23:00:00+01:00"]) {
      expect([price(T4, SOL, at), price(SOL, T123, at)]).toEqual([[[33, 33]], [[33, 33]]])
      expect(offers(T4, SOL, at)[0]?.source?.level?.evidence ?? "").not.toContain("the rule changed on a day not known")
    }
    expect(versionAt(tariff, "2024-08-04").source.url).toContain("r3nya/madrid101/blob/d6ed210ff807c517ba8a06df1dc7f64051fe5488")
  })
})

describe("Madrid: the change whose day is not known, priced on both versions", () => {
  it("2024-01-01 lies between 2019-06-11 (€30 last seen) and 2024-08-04 (€33 first seen): 30–33, both ways", () => {
    const at = "2024-01-01T10:00:00+01:00"
    expect([price(T4, SOL, at), price(SOL, T4, at), price(T123, CHAMARTIN, at), price(ATOCHA, T123, at)])
      .toEqual([[[30, 33]], [[30, 33]], [[30, 33]], [[30, 33]]])
    const evidence = offers(T4, SOL, at)[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("the rule changed on a day not known between 2019-06-11 and 2024-08-04")
    expect(evidence).toContain("(30 EUR) was last seen in force on 2019-06-11")
    expect(evidence).toContain("(33 EUR) first seen in force on 2024-08-04")
    expect(offers(SOL, ATOCHA, at)).toEqual([])
  })
  it("the window's ends: 2019-06-11 and 2024-08-03 on both, 2019-06-10 on €30 alone", () => {
    expect(price(T4, SOL, "2019-06-11T10:00:00+02:00")).toEqual([[30, 33]])
    expect(price(SOL, T123, "2024-08-03T23:00:00+02:00")).toEqual([[30, 33]])
    expect(price(T4, SOL, "2019-06-10T10:00:00+02:00")).toEqual([[30, 30]])
  })
})

describe("Madrid: dates a single version is known to be in force", () => {
  it("€30 from 2014-01-07 to 2019-06-10: exact both ways in 2015 and 2018, day and night", () => {
    expect(["2014-01-07", "2019-06-10", "2019-06-11", "2024-08-03", "2024-08-04", "2026-01-12", "2026-12-08"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2014-01-07", "2014-01-07", "2014-01-07", "2014-01-07", "2024-08-04", "2024-08-04", "2024-08-04"])
    for (const at of ["2015-05-12T11:00:00+02:00", "2018-02-06T02:30:00+01:00"]) {
      expect([price(T4, SOL, at), price(SOL, T4, at), price(T123, ATOCHA, at), price(ATOCHA, T123, at)])
        .toEqual([[[30, 30]], [[30, 30]], [[30, 30]], [[30, 30]]])
    }
    expect(offers(T4, SOL, "2015-05-12T11:00:00+02:00")[0]?.source?.level?.evidence).toBeUndefined()
  })
  it("before 2014-01-07 (when the trip was metered, no fixed fare, and the meter is not in the file) it is refused: no-rule-for-date", () => {
    const trip = (at: string) => suppliedTrip(market, T4, SOL, 16, 25)(at)
    expect(market.offers(trip("2014-01-06T11:00:00+01:00"))).toEqual([])
    expect(market.unoffered?.(trip("2014-01-06T11:00:00+01:00"))?.message)
      .toBe("market madrid knows no rule in force on 2014-01-06: its earliest known rule is in force from 2014-01-07")
    expect(market.unoffered?.(trip("2014-01-07T00:30:00+01:00"))).toBeUndefined()
  })
})
