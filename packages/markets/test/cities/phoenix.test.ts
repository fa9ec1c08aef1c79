/**
 * Phoenix Sky Harbor (PHX): the airport's flat rate for its contract taxis, PHX → downtown Phoenix
 * (Roosevelt St – Lincoln St – 7th Ave – 7th St), $20, one way, as a research note read the
 * airport's taxi page on 2026-10-03 (a repository file; reading secondary): a market of that fixed
 * fare alone, whose area is the airport. The rule before 2026-10-03 is not known (the airport's
 * undated page gave $17), so earlier trips are refused; the meter ($7 first mile, $2.60 a mile)
 * is not in the file (its delay rate and minimum were not read).
 * Sources: packages/markets/models/sources/phoenix.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionAt } from "@ridequote/markets"
import { type Point, shippedMarket, tripsOf } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { doc, market, tariff } = shippedMarket("phoenix")

// The airport: the reference point of airports-aci-2024.json (between Terminals 3 and 4), and
// points on the two terminals' curbs (approximate, from the airport's layout: T3 west, T4 east).
const PHX: Point = { latitude: 33.4353, longitude: -112.0059 }
const T3: Point = { latitude: 33.4367, longitude: -112.0147 }
const T4: Point = { latitude: 33.4346, longitude: -112.0042 }
// Inside the downtown box.
const CITY_HALL: Point = { latitude: 33.4484, longitude: -112.074 } // 200 W Washington St
const CONVENTION_CENTER: Point = { latitude: 33.4481, longitude: -112.0699 }
const CHASE_FIELD: Point = { latitude: 33.4455, longitude: -112.0667 }
// Outside it.
const ART_MUSEUM: Point = { latitude: 33.4672, longitude: -112.0728 } // Central Ave at McDowell, north of Roosevelt
const TEMPE_MILL_AVE: Point = { latitude: 33.4255, longitude: -111.94 }
const OLD_TOWN_SCOTTSDALE: Point = { latitude: 33.4942, longitude: -111.9261 }

const { offers, price } = tripsOf(market, 8, 15)

describe("Phoenix Sky Harbor: zones", () => {
  it("the airport's terminals (a box that is also the market's area) and the downtown box (approximate)", () => {
    const has = (p: Point, zone: string) => market.tariffs.locate(p).has(zone)
    expect([PHX, T3, T4].map((p) => has(p, "phx"))).toEqual([true, true, true])
    expect([CITY_HALL, CONVENTION_CENTER, CHASE_FIELD].map((p) => has(p, "downtown-phoenix"))).toEqual([true, true, true])
    expect([ART_MUSEUM, TEMPE_MILL_AVE, OLD_TOWN_SCOTTSDALE, PHX].map((p) => has(p, "downtown-phoenix")))
      .toEqual([false, false, false, false])
    // Only pickups at the airport are served: the rates bind taxis leaving PHX.
    expect([market.serves(PHX), market.serves(T3), market.serves(CITY_HALL), market.serves(TEMPE_MILL_AVE)])
      .toEqual([true, true, false, false])
    expect(doc.airports.map((a) => a.iata)).toEqual(["PHX"])
  })
})

describe("Phoenix Sky Harbor: $20 PHX → downtown, first seen 2026-10-03 (with the caveat)", () => {
  it("one version, from 2026-10-03, secondary", () => {
    expect(tariff.versions).toHaveLength(1)
    expect(versionAt(tariff, "2026-12-08").effectiveFrom).toBe("2026-10-03")
    expect(versionAt(tariff, "2026-12-08").source.reading).toBe("secondary")
  })
  it("every terminal → downtown is $20 exactly, day and night (2026-12-08 11:00 and 03:00)", () => {
    for (const at of ["2026-12-08T11:00:00-07:00", "2026-12-08T03:00:00-07:00"]) {
      expect([price(PHX, CITY_HALL, at), price(T3, CONVENTION_CENTER, at), price(T4, CHASE_FIELD, at)])
        .toEqual([[[20, 20]], [[20, 20]], [[20, 20]]])
    }
  })
  it("one way only, and nothing for a trip the flat rate does not cover (the meter is not in the file)", () => {
    const at = "2026-12-08T11:00:00-07:00"
    expect(offers(CITY_HALL, PHX, at)).toEqual([])
    expect(offers(PHX, ART_MUSEUM, at)).toEqual([])
    expect(offers(T4, TEMPE_MILL_AVE, at)).toEqual([])
    expect(offers(T3, OLD_TOWN_SCOTTSDALE, at)).toEqual([])
    expect(offers(T3, T4, at)).toEqual([])
  })
  it("carries the caveat: one dated copy, the rule before it not known, the meter not priced", () => {
    expect(versionAt(tariff, "2026-12-08").caveat?.checked).toBe("2026-12-06")
    const evidence = offers(PHX, CITY_HALL, "2026-12-08T11:00:00-07:00")[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("$20 rests on one research note dated 2026-10-03")
    expect(evidence).toContain("$17 → $20 on a day not known")
    expect(evidence).toContain("its delay rate and minimum fare were not read")
  })
})

describe("Phoenix Sky Harbor: before the first dated sighting", () => {
  it("2024-01-01 and 2026-10-02 are refused (no-rule-for-date): the fare then was not $20 or not known", () => {
    const trip = (at: string) => suppliedTrip(market, PHX, CITY_HALL, 8, 15)(at)
    for (const at of ["2024-01-01T11:00:00-07:00", "2024-01-10T11:00:00-07:00", "2026-10-02T23:30:00-07:00"]) {
      expect(market.offers(trip(at))).toEqual([])
      expect(market.unoffered?.(trip(at))?.reason).toBe("no-rule-for-date")
    }
    expect(market.unoffered?.(trip("2024-01-01T11:00:00-07:00"))?.message)
      .toBe("market phoenix knows no rule in force on 2024-01-01: its earliest known rule is in force from 2026-10-03")
    expect(market.offers(trip("2026-10-03T00:30:00-07:00")).map((o) => o.distribution.quantile(0.5))).toEqual([20])
  })
})
