/**
 * Dallas / DFW: the City of Dallas taxi rates as an operator's table gives them (FairFare
 * Transportation, seen in commits of 2026-01-25 and 2026-06-16; reading secondary): $3.00 drop,
 * $0.70 per 1/4 mile, $0.40 a minute of traffic delay or waiting; DFW ↔ Dallas CBD $55 and Love
 * Field ↔ CBD $26 flat; Love Field $10 minimum and $2 trip fee; DFW $27 minimum to off-airport,
 * $5 exit fee, $4 drop-off fee. Worked by hand (sources: models/sources/dallas.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, versionAt } from "@ridequote/markets"
import { meterOn, MILE, priceSupplied, shippedMarket, tripsOf, view } from "./support.js"
import { suppliedTrip } from "../trips.js"

const { market, tariff } = shippedMarket("dallas")
const v = versionAt(tariff, "2026-12-08")

const DFW = { latitude: 32.8968, longitude: -97.038 }
/** DFW Terminal A (north end of the terminal loop) and Terminal E (south end). */
const DFW_A = { latitude: 32.9048, longitude: -97.0365 }
const DFW_E = { latitude: 32.8917, longitude: -97.0379 }
const DAL = { latitude: 32.8471, longitude: -96.8518 }
/** Dallas City Hall, 1500 Marilla St, inside the freeway loop (south side, north of I-30). */
const CITY_HALL = { latitude: 32.7763, longitude: -96.797 }
/** Main St at Akard St, the middle of downtown. */
const MAIN_AKARD = { latitude: 32.7808, longitude: -96.7985 }
/** Dallas Market Center (2200 N Stemmons Fwy): outside the CBD; its own flat fares are not shipped. */
const MARKET_CENTER = { latitude: 32.8008, longitude: -96.8217 }
/** Bishop Arts District, Oak Cliff: south-west of the loop, outside the CBD. */
const BISHOP_ARTS = { latitude: 32.7487, longitude: -96.8285 }

const places = (from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }) =>
  ({ pickup: market.tariffs.locate(from), dropoff: market.tariffs.locate(to) })
const priceAt = (from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }, km: number, minutes: number, date = "2026-12-08") => {
  const p = places(from, to)
  return priceSupplied(market, tariff, km, minutes, view(date, 660, p.pickup, p.dropoff))
}

describe("Dallas / DFW: City of Dallas taxi rates as an operator posts them (secondary, from 2026-01-25)", () => {
  it("one version, from the first dated sighting 2026-01-25, secondary; DFW and DAL are served", () => {
    expect(tariff.versions).toHaveLength(1)
    expect(v.effectiveFrom).toBe("2026-01-25")
    expect(v.source.reading).toBe("secondary")
    expect(v.source.published).toBe("2026-01-25")
    expect(versionAt(tariff, "2026-06-16").effectiveFrom).toBe("2026-01-25")
    for (const p of [DFW, DFW_A, DFW_E, DAL, CITY_HALL, MARKET_CENTER, BISHOP_ARTS]) expect(market.serves(p)).toBe(true)
    for (const p of [DFW_A, DFW_E]) expect(market.tariffs.locate(p).has("dfw")).toBe(true)
    for (const p of [CITY_HALL, MAIN_AKARD]) expect(market.tariffs.locate(p).has("dallas-cbd")).toBe(true)
    for (const p of [MARKET_CENTER, BISHOP_ARTS, DAL]) expect(market.tariffs.locate(p).has("dallas-cbd")).toBe(false)
    // Fort Worth's downtown is not served (no market; the Dallas box stops at -97.00).
    expect(market.serves({ latitude: 32.7555, longitude: -97.3308 })).toBe(false)
  })

  it("the meter by hand: $3.00 drop, $0.70 per completed 1/4 mile, $0.40 per completed minute below 8.57 mph", () => {
    const meter = meterOn(tariff, "2026-12-08")
    // 10 miles, no slow time: 40 quarter miles × $0.70 = $28.00 + $3.00 = $31.00.
    expect(meterAmount(meter, { meterKm: 10 * MILE, meterSeconds: 0 })).toBeCloseTo(31, 9)
    // 10.2 miles: still 40 completed quarters = $31.00; 10.25 miles: 41 = $31.70.
    expect(meterAmount(meter, { meterKm: 10.2 * MILE, meterSeconds: 0 })).toBeCloseTo(31, 9)
    expect(meterAmount(meter, { meterKm: 10.25 * MILE + 1e-6, meterSeconds: 0 })).toBeCloseTo(31.7, 9)
    // … plus 10 minutes 30 s of traffic delay: 10 completed minutes × $0.40 = $4.00 → $35.00.
    expect(meterAmount(meter, { meterKm: 10 * MILE, meterSeconds: 630 })).toBeCloseTo(35, 9)
    // The crossover (derived, not stated): 1/4 mile per 1.75 min, where $0.70 a quarter equals $0.40 a minute.
    expect(meter.time.crossoverKmh).toBeCloseTo((MILE / 4) / (1.75 / 60), 4)
  })

  it("fees and minimums by hand: DFW → Market Center metered 17 miles + $5 exit fee; back + $4 drop-off fee; short trips at the minimums", () => {
    const moment = view("2026-12-08").moment
    const meter = meterOn(tariff, "2026-12-08")
    // 17 miles, 5 slow minutes: 3.00 + 68 × 0.70 + 5 × 0.40 = 3.00 + 47.60 + 2.00 = $52.60.
    const fare = meterAmount(meter, { meterKm: 17 * MILE, meterSeconds: 300 })
    expect(fare).toBeCloseTo(52.6, 9)
    // From DFW: + $5.00 exit fee = $57.60.
    expect(chargesFor(v, "meter", moment, places(DFW, MARKET_CENTER), new Set(), 2).itemize(fare, 0).total).toBeCloseTo(57.6, 9)
    // To DFW: + $4.00 drop-off fee = $56.60.
    expect(chargesFor(v, "meter", moment, places(MARKET_CENTER, DFW), new Set(), 2).itemize(fare, 0).total).toBeCloseTo(56.6, 9)
    // DFW → a hotel 3 miles off: 3.00 + 12 × 0.70 = $11.40, raised to the $27.00 minimum, + $5 exit fee = $32.00.
    const short = meterAmount(meter, { meterKm: 3 * MILE, meterSeconds: 0 })
    expect(short).toBeCloseTo(11.4, 9)
    const fromDfw = chargesFor(v, "meter", moment, places(DFW, { latitude: 32.87, longitude: -96.99 }), new Set(), 2).itemize(short, 0)
    expect(fromDfw.minimumApplied).toBe(true)
    expect(fromDfw.total).toBeCloseTo(32, 9)
    // The same 3 miles to DFW: no minimum ($11.40) + $4 drop-off fee = $15.40.
    expect(chargesFor(v, "meter", moment, places({ latitude: 32.87, longitude: -96.99 }, DFW), new Set(), 2).itemize(short, 0).total).toBeCloseTo(15.4, 9)
    // Love Field → Market Center, 1.5 miles: 3.00 + 6 × 0.70 = $7.20 → $10.00 minimum + $2.00 trip fee = $12.00.
    const dalShort = meterAmount(meter, { meterKm: 1.5 * MILE, meterSeconds: 0 })
    expect(dalShort).toBeCloseTo(7.2, 9)
    expect(chargesFor(v, "meter", moment, places(DAL, MARKET_CENTER), new Set(), 2).itemize(dalShort, 0).total).toBeCloseTo(12, 9)
    // Market Center → Love Field: no minimum, no fee: $7.20.
    expect(chargesFor(v, "meter", moment, places(MARKET_CENTER, DAL), new Set(), 2).itemize(dalShort, 0).total).toBeCloseTo(7.2, 9)
  })

  const DFW_CBD = "DFW Airport ↔ Dallas Central Business District flat rate"
  const DAL_CBD = "Love Field ↔ Dallas Central Business District flat rate"
  it("the flat rates as the table gives them: $55 DFW ↔ CBD, $26 Love Field ↔ CBD, fixed, both ways", () => {
    expect(v.flatFares?.map((f) => [f.name, f.amount, f.kind ?? "fixed", f.direction ?? "both-ways"])).toEqual([
      [DFW_CBD, 55, "fixed", "both-ways"],
      [DAL_CBD, 26, "fixed", "both-ways"]
    ])
  })

  it("DFW ↔ Dallas CBD: the $55 flat rate both ways; the $5 exit fee from DFW and the $4 drop-off fee to it, not confirmed on a flat rate, span the quote ($55–$60, $55–$59)", () => {
    for (const date of ["2026-01-25", "2026-06-16", "2026-12-08"]) {
      for (const terminal of [DFW, DFW_A, DFW_E]) {
        for (const downtown of [CITY_HALL, MAIN_AKARD]) {
          const out = priceAt(terminal, downtown, 30, 35, date)
          const back = priceAt(downtown, terminal, 30, 35, date)
          expect(out.fare).toBe(DFW_CBD)
          expect(back.fare).toBe(DFW_CBD)
          expect(out.charges.itemize(55, 0).fees).toEqual([{ name: "DFW Airport exit fee", amount: 5 }])
          expect(back.charges.itemize(55, 0).fees).toEqual([{ name: "DFW Airport drop-off fee", amount: 4 }])
          expect([0.05, 0.5, 0.95].map((q) => out.distribution.quantile(q))).toEqual([55, 57.5, 60])
          expect([0.05, 0.5, 0.95].map((q) => back.distribution.quantile(q))).toEqual([55, 57, 59])
        }
      }
    }
  })

  it("Love Field ↔ Dallas CBD: the $26 flat rate both ways (the $2 trip fee from Love Field, not confirmed on a flat rate: $26–$28)", () => {
    for (const date of ["2026-01-25", "2026-12-08"]) {
      const out = priceAt(DAL, CITY_HALL, 10, 18, date)
      const back = priceAt(CITY_HALL, DAL, 10, 18, date)
      expect(out.fare).toBe(DAL_CBD)
      expect(back.fare).toBe(DAL_CBD)
      expect(out.charges.itemize(26, 0).fees).toEqual([{ name: "Love Field trip fee", amount: 2 }])
      expect(out.distribution.quantile(0.05)).toBeCloseTo(26, 9)
      expect(out.distribution.quantile(0.95)).toBeCloseTo(28, 9)
      expect([0.05, 0.5, 0.95].map((q) => back.distribution.quantile(q))).toEqual([26, 26, 26])
    }
  })

  it("no flat fare outside the CBD: DFW → Market Center and Love Field → Bishop Arts are metered", () => {
    const mc = priceAt(DFW, MARKET_CENTER, 27, 25)
    expect(mc.fare).toBeUndefined()
    // 27 km at 64.8 km/h: 67 completed quarters = 3.00 + 46.90 = $49.90 with no slow time, + $5 exit
    // fee, which a metered trip pays for certain (the table's open question is the flat rates only).
    expect(mc.distribution.quantile(0.05)).toBeGreaterThanOrEqual(49.9 + 5 - 1e-9)
    expect(mc.charges.unconfirmed).toBe(false)
    const ba = priceAt(DAL, BISHOP_ARTS, 13, 22)
    expect(ba.fare).toBeUndefined()
  })

  it("every offer carries the caveat: an operator's copy dated by its commits, the ordinances not read", () => {
    const { offers } = tripsOf(market, 30, 35)
    for (const at of ["2026-02-10T11:00:00-06:00", "2026-12-08T11:00:00-06:00"]) {
      const evidence = offers(DFW, CITY_HALL, at)[0]?.source?.level?.evidence ?? ""
      expect(evidence).toContain("2583975")
      expect(evidence).toContain("2026-01-25")
      expect(evidence).toContain("a203429")
      expect(evidence).toContain("2026-06-16")
      expect(evidence).toContain("not an independent confirmation")
      expect(evidence).toContain("§ 47A-2.4.8")
      expect(evidence).toContain("23-579")
      expect(evidence).toContain("Market Center fares")
    }
    expect(v.caveat?.checked).toBe("2026-12-06")
  })

  it("a trip before 2026-01-25 is refused (no-rule-for-date): the rule then is not known, and DFW's fares were raised in 2024", () => {
    const trip = (at: string) => suppliedTrip(market, DFW, CITY_HALL, 35.4, 50)(at)
    for (const at of ["2024-01-01T11:00:00-06:00", "2026-01-24T23:30:00-06:00"]) {
      expect(market.offers(trip(at))).toEqual([])
      expect(market.unoffered?.(trip(at))?.reason).toBe("no-rule-for-date")
    }
    expect(market.unoffered?.(trip("2024-01-01T11:00:00-06:00"))?.message)
      .toBe("market dallas knows no rule in force on 2024-01-01: its earliest known rule is in force from 2026-01-25")
    expect(market.offers(trip("2026-01-25T00:30:00-06:00")).map((o) => o.distribution.quantile(0.95))).toEqual([60])
  })
})
