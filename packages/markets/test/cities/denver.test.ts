/**
 * Denver (Colorado PUC maximum flat rates between Denver International Airport and four zones, for
 * large-market taxis, effective 2023-05-30): a market of fixed fares alone. Each zone rate exact,
 * both ways; the flat rate within Zone A; nothing offered for trips outside the zones (metered
 * by each carrier's filed rates, not in the file). Sources: packages/markets/models/sources/denver.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { type Point, shippedMarket, tripsOf } from "./support.js"

const { market, tariff } = shippedMarket("denver")

const DEN: Point = { latitude: 39.8493, longitude: -104.6738 } // Jeppesen Terminal
const UNION_STATION: Point = { latitude: 39.7527, longitude: -105.0002 } // Zone A
const CIVIC_CENTER: Point = { latitude: 39.7392, longitude: -104.9873 } // Zone A
const DTC: Point = { latitude: 39.6105, longitude: -104.8905 } // Zone B (Belleview & I-25 area)
const PEARL_STREET: Point = { latitude: 40.0176, longitude: -105.2797 } // Zone C (Boulder)
const TOWER_ROAD: Point = { latitude: 39.7775, longitude: -104.7735 } // Zone D (hotels at Tower Rd & 40th Ave)
const CHERRY_CREEK: Point = { latitude: 39.7170, longitude: -104.9530 } // in no zone

const { offers, price } = tripsOf(market, 40, 40)
const AT = "2026-12-08T11:00:00-07:00"

describe("Denver: PUC DIA flat-rate zones (effective 2023-05-30)", () => {
  it("DIA – Zone A $66, Zone B $74, Zone C $109, Zone D $31, both ways", () => {
    expect(price(DEN, UNION_STATION, AT)).toEqual([[66, 66]])
    expect(price(CIVIC_CENTER, DEN, AT)).toEqual([[66, 66]])
    expect(price(DEN, DTC, AT)).toEqual([[74, 74]])
    expect(price(DTC, DEN, AT)).toEqual([[74, 74]])
    expect(price(DEN, PEARL_STREET, AT)).toEqual([[109, 109]])
    expect(price(PEARL_STREET, DEN, AT)).toEqual([[109, 109]])
    expect(price(DEN, TOWER_ROAD, AT)).toEqual([[31, 31]])
    expect(price(TOWER_ROAD, DEN, "2026-12-06T02:00:00-07:00")).toEqual([[31, 31]])
  })
  it("between two points in Zone A: $11", () => {
    expect(price(UNION_STATION, CIVIC_CENTER, AT)).toEqual([[11, 11]])
  })
  it("offers nothing outside the zones: DIA – Cherry Creek, Zone A – Zone B (metered by the carriers' own filed rates)", () => {
    expect(offers(DEN, CHERRY_CREEK, AT)).toEqual([])
    expect(offers(UNION_STATION, DTC, AT)).toEqual([])
  })
  it("2024-01-01 is priced on the same rule", () => {
    expect(price(DEN, UNION_STATION, "2024-01-01T10:00:00-07:00")).toEqual([[66, 66]])
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2023-05-30")
  })
  it("a trip before 2023-05-30 is refused (no-rule-for-date, audit F-DEN-1): the earlier maxima differed (DIA – Zone A $51, North Forty News c. 2019), their start not known", () => {
    const trip = suppliedTrip(market, DEN, UNION_STATION, 40, 40)
    for (const at of ["2022-06-10T10:00:00-06:00", "2023-05-29T23:30:00-06:00"]) {
      expect(offers(DEN, UNION_STATION, at)).toEqual([])
      expect(market.unoffered?.(trip(at))?.reason).toBe("no-rule-for-date")
    }
    expect(market.unoffered?.(trip("2022-06-10T10:00:00-06:00"))?.message)
      .toBe("market denver knows no rule in force on 2022-06-10: its earliest known rule is in force from 2023-05-30")
    expect(price(DEN, UNION_STATION, "2023-05-30T00:30:00-06:00")).toEqual([[66, 66]])
  })
})

describe("Denver: the DIA access fee in the caveat (audit F-DEN-2)", () => {
  it("every offer says the DIA access fee may be added (Rule 6255(c)(V)), today's amount not found, $4.57 about 2019", () => {
    const v = versionAt(tariff, "2026-12-08")
    expect(v.caveat?.checked).toBe("2026-12-06")
    for (const part of ["Rule 6255(c)(V)", "Today's fee was not found", "$4.57"]) expect(v.caveat?.note).toContain(part)
    expect(offers(DEN, UNION_STATION, AT)[0]?.source?.level?.evidence ?? "").toContain("Rule 6255(c)(V)")
  })
})
