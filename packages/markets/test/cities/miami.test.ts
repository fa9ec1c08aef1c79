/**
 * Miami / MIA: Miami-Dade County's maximum taxi rates of Resolution R-700-22 (adopted 2022-07-19;
 * not read) as copied (reading secondary), from 2023-04-28, the first date a dated text (City of
 * Miami Beach Res. 2023-32561) shows them charged: $2.95 first 1/6 mile, $0.85 per 1/6 mile to
 * 1 mile, then $0.55 per 1/6 mile (a code comment naming R-700-22, in a file version written
 * 2026-09-23 or later); $0.40 a minute waiting, $15 minimum and $2 surcharge from MIA and PortMiami
 * (undated unofficial copies agreeing on every distance figure). No flat rates. Trips before
 * 2023-04-28 are refused. Worked by hand (sources: models/sources/miami.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, versionAt } from "@ridequote/markets"
import { expectRefusedBefore, meterOn, MILE, priceSupplied, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("miami")
const v = versionAt(tariff, "2026-12-08")

/** MIA: the reference point among the terminals, and ACI's listed point for the airport. */
const MIA = { latitude: 25.7959, longitude: -80.287 }
const MIA_ACI = { latitude: 25.7932, longitude: -80.2906 }
/** Downtown Miami: Flagler St at Miami Ave (Government Center). */
const DOWNTOWN = { latitude: 25.7743, longitude: -80.1937 }
/** Brickell City Centre. */
const BRICKELL = { latitude: 25.767, longitude: -80.1934 }
/** South Beach: Lincoln Road at Collins Ave. */
const SOUTH_BEACH = { latitude: 25.7906, longitude: -80.13 }
/** PortMiami cruise terminals, Dodge Island. */
const PORT = { latitude: 25.7765, longitude: -80.17 }
/** Brickell Key (across the water from Dodge Island: not the port). */
const BRICKELL_KEY = { latitude: 25.768, longitude: -80.186 }
/** A hotel on NW 36th St, north-east of the airport, outside its terminal zone. */
const NW36_HOTEL = { latitude: 25.8105, longitude: -80.27 }
const CORAL_GABLES = { latitude: 25.7494, longitude: -80.263 }
const HIALEAH = { latitude: 25.8576, longitude: -80.2781 }

type P = { latitude: number; longitude: number }
const places = (from: P, to: P) => ({ pickup: market.tariffs.locate(from), dropoff: market.tariffs.locate(to) })
const priceAt = (from: P, to: P, km: number, minutes: number, date = "2026-12-08") => {
  const p = places(from, to)
  return priceSupplied(market, tariff, km, minutes, view(date, 660, p.pickup, p.dropoff))
}
const itemized = (from: P, to: P, fare: number, date = "2026-12-08") =>
  chargesFor(versionAt(tariff, date), "meter", view(date).moment, places(from, to), new Set(), 2).itemize(fare, 0)

describe("Miami / MIA: Miami-Dade R-700-22 as copied (secondary, from 2023-04-28)", () => {
  it("one version, from 2023-04-28, secondary, no flat fares; the core and MIA are served, PortMiami is a zone", () => {
    expect(tariff.versions).toHaveLength(1)
    expect(v.effectiveFrom).toBe("2023-04-28")
    expect(v.source.reading).toBe("secondary")
    expect(v.flatFares ?? []).toEqual([])
    // The version in force on 2024-01-01 is this one.
    expect(versionAt(tariff, "2024-01-01").effectiveFrom).toBe("2023-04-28")
    for (const p of [MIA, MIA_ACI, DOWNTOWN, BRICKELL, SOUTH_BEACH, PORT, CORAL_GABLES, HIALEAH]) expect(market.serves(p)).toBe(true)
    for (const p of [MIA, MIA_ACI]) expect(market.tariffs.locate(p).has("mia")).toBe(true)
    for (const p of [NW36_HOTEL, DOWNTOWN, BRICKELL, SOUTH_BEACH, PORT]) expect(market.tariffs.locate(p).has("mia")).toBe(false)
    expect(market.tariffs.locate(PORT).has("portmiami")).toBe(true)
    for (const p of [BRICKELL_KEY, DOWNTOWN, SOUTH_BEACH]) expect(market.tariffs.locate(p).has("portmiami")).toBe(false)
    // Fort Lauderdale is not served (Broward County; the box stops at 25.97 N).
    expect(market.serves({ latitude: 26.1224, longitude: -80.1373 })).toBe(false)
  })

  it("the meter by hand: $2.95 first 1/6 mile, $0.85 per completed 1/6 mile to 1 mile, $0.55 after, $0.40 a minute", () => {
    const meter = meterOn(tariff, "2026-12-08")
    // 1 mile: 2.95 + 5 × 0.85 = 2.95 + 4.25 = $7.20.
    expect(meterAmount(meter, { meterKm: MILE, meterSeconds: 0 })).toBeCloseTo(7.2, 9)
    // 0.99 mile = 5.94 sixths: the drop's first sixth + 4 completed sixths = 2.95 + 3.40 = $6.35.
    expect(meterAmount(meter, { meterKm: 0.99 * MILE, meterSeconds: 0 })).toBeCloseTo(6.35, 9)
    // 5 miles: $7.20 for the first mile + 24 sixths × 0.55 = 13.20 → $20.40.
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 0 })).toBeCloseTo(20.4, 9)
    // 5 miles and 10 min 30 s of waiting: + 10 completed minutes × $0.40 = $4.00 → $24.40.
    expect(meterAmount(meter, { meterKm: 5 * MILE, meterSeconds: 630 })).toBeCloseTo(24.4, 9)
    // One hour of waiting alone is $24.00 (the copies' "each hour of waiting: USD24.00").
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 3600 }) - meter.initial).toBeCloseTo(24, 9)
    // The crossover (derived, not stated): 1/6 mile per 1.375 min, where $0.55 a sixth equals $0.40 a minute.
    expect(meter.time.crossoverKmh).toBeCloseTo((MILE / 6) / (1.375 / 60), 6)
  })

  it("from MIA or PortMiami: the $15 minimum, then the $2 surcharge; none on trips to them", () => {
    const meter = meterOn(tariff, "2026-12-08")
    const oneMile = meterAmount(meter, { meterKm: MILE, meterSeconds: 0 })
    expect(oneMile).toBeCloseTo(7.2, 9)
    // MIA → a hotel on NW 36th St, 1 mile: $7.20 raised to $15.00, + $2.00 surcharge = $17.00.
    const out = itemized(MIA, NW36_HOTEL, oneMile)
    expect(out.minimumApplied).toBe(true)
    expect(out.fees).toEqual([{ name: "MIA / PortMiami surcharge", amount: 2 }])
    expect(out.total).toBeCloseTo(17, 9)
    // The same mile to MIA: the meter alone, $7.20.
    expect(itemized(NW36_HOTEL, MIA, oneMile).total).toBeCloseTo(7.2, 9)
    // PortMiami → Brickell, 2 miles: 7.20 + 6 × 0.55 = $10.50 → $15.00 + $2.00 = $17.00; back: $10.50.
    const twoMiles = meterAmount(meter, { meterKm: 2 * MILE, meterSeconds: 0 })
    expect(twoMiles).toBeCloseTo(10.5, 9)
    expect(itemized(PORT, BRICKELL, twoMiles).total).toBeCloseTo(17, 9)
    expect(itemized(BRICKELL, PORT, twoMiles).total).toBeCloseTo(10.5, 9)
    // Above the minimum the surcharge is still added: MIA → Coral Gables, 4 miles: 7.20 + 18 × 0.55 = $17.10 + $2 = $19.10.
    const fourMiles = meterAmount(meter, { meterKm: 4 * MILE, meterSeconds: 0 })
    expect(fourMiles).toBeCloseTo(17.1, 9)
    const gables = itemized(MIA, CORAL_GABLES, fourMiles)
    expect(gables.minimumApplied).toBe(false)
    expect(gables.total).toBeCloseTo(19.1, 9)
  })

  it("MIA ↔ Brickell and MIA ↔ South Beach are metered both ways (no flat rate since R-700-22)", () => {
    const meter = meterOn(tariff, "2026-12-08")
    // MIA → Brickell, 8 miles with 5 min 10 s waiting: 7.20 + 42 × 0.55 = 30.30, + 5 × 0.40 = $32.30; + $2 from MIA = $34.30; back $32.30.
    const brickell = meterAmount(meter, { meterKm: 8 * MILE, meterSeconds: 310 })
    expect(brickell).toBeCloseTo(32.3, 9)
    expect(itemized(MIA, BRICKELL, brickell).total).toBeCloseTo(34.3, 9)
    expect(itemized(BRICKELL, MIA, brickell).total).toBeCloseTo(32.3, 9)
    // MIA → South Beach, 14 miles, no waiting: 7.20 + 78 × 0.55 = 7.20 + 42.90 = $50.10; + $2 = $52.10; back $50.10.
    const beach = meterAmount(meter, { meterKm: 14 * MILE, meterSeconds: 0 })
    expect(beach).toBeCloseTo(50.1, 9)
    expect(itemized(MIA, SOUTH_BEACH, beach).total).toBeCloseTo(52.1, 9)
    expect(itemized(SOUTH_BEACH, MIA, beach).total).toBeCloseTo(50.1, 9)
    // Priced on a supplied route: no fixed fare either way; the spread is at least the distance-only meter.
    for (const [to, km, minutes] of [[BRICKELL, 14, 22], [SOUTH_BEACH, 22.5, 30]] as const) {
      const distanceOnly = meterAmount(meter, { meterKm: km, meterSeconds: 0 })
      const out = priceAt(MIA, to, km, minutes)
      const back = priceAt(to, MIA, km, minutes)
      expect(out.fare).toBeUndefined()
      expect(back.fare).toBeUndefined()
      expect(out.distribution.quantile(0.05)).toBeGreaterThanOrEqual(distanceOnly + 2 - 0.01)
      expect(back.distribution.quantile(0.05)).toBeGreaterThanOrEqual(distanceOnly - 0.01)
      // The surcharge is the only difference between the two directions.
      for (const q of [0.05, 0.5, 0.95]) expect(out.distribution.quantile(q) - back.distribution.quantile(q)).toBeCloseTo(2, 9)
    }
  })

  it("every offer carries the caveat: R-700-22 not read, the comment's commit, the undated copies, Miami Beach's request", () => {
    const { offers } = tripsOf(market, 22.5, 30)
    for (const at of ["2024-01-10T11:00:00-05:00", "2026-12-08T11:00:00-05:00"]) {
      const evidence = offers(MIA, SOUTH_BEACH, at)[0]?.source?.level?.evidence ?? ""
      expect(evidence).toContain("R-700-22")
      expect(evidence).toContain("was not read")
      expect(evidence).toContain("2023-32561")
      expect(evidence).toContain("35d86f9")
      expect(evidence).toContain("2026-09-23")
      expect(evidence).toContain("undated, unofficial copies")
      expect(evidence).toContain("fly-mia.com")
      expect(evidence).toContain("reinstate an MIA–Miami Beach flat rate")
      expect(evidence).toContain("11.70 km/h")
    }
    expect(v.caveat?.checked).toBe("2026-12-06")
  })

  it("the caveat names Ordinance 08-71's $1.00 fuel surcharge ($3.50 a gallon for three weeks; releases of 2013-11-25 and 2014-10-21), not modelled, its survival under R-700-22 not found", () => {
    const { offers } = tripsOf(market, 22.5, 30)
    const evidence = offers(MIA, SOUTH_BEACH, "2026-12-08T11:00:00-05:00")[0]?.source?.level?.evidence ?? ""
    expect(evidence).toContain("Ordinance 08-71")
    expect(evidence).toContain("$3.50 for three consecutive weeks")
    expect(evidence).toContain("2013-11-25")
    expect(evidence).toContain("whether it survives R-700-22 was not found")
  })

  it("a trip before 2023-04-28 is refused (no-rule-for-date): before R-700-22 the flat rates applied, not all known", () => {
    const trip = (at: string) => suppliedTrip(market, MIA, SOUTH_BEACH, 22.5, 30)(at)
    expectRefusedBefore(market, trip, ["2022-07-18T11:00:00-04:00", "2022-12-01T11:00:00-05:00", "2023-04-27T23:30:00-04:00"], "2023-04-28T00:30:00-04:00")
    expect(market.offers(trip("2023-04-28T00:30:00-04:00"))).toHaveLength(1)
    expect(market.offers(trip("2024-01-10T11:00:00-05:00"))).toHaveLength(1)
  })
})
