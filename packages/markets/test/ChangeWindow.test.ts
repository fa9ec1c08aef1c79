/**
 * A change whose day is not known (`changedAfter`): the earlier rule was last seen in force on
 * one date, the later first seen in force on another, and the day between on which it changed
 * is not known. A trip dated in that window is priced on both versions (its distribution
 * spans the two) and its evidence says so; outside the window nothing changes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { definedMarket, parseTariff } from "@ridequote/markets"
import type { TariffDocument } from "@ridequote/markets"
import { suppliedTrip } from "./trips.js"

const AIRPORT = { latitude: 41.7999, longitude: 12.2462 }
const CENTRE = { latitude: 41.8986, longitude: 12.4769 }
const SUBURB = { latitude: 41.93, longitude: 12.55 }

const file = (versions: ReadonlyArray<unknown>, define = true): Either.Either<TariffDocument, { message: string }> =>
  parseTariff("window.json", JSON.stringify({
    format: "ridequote-tariff",
    version: 1,
    market: define ? "window" : "nyc",
    currency: "EUR",
    ...(define
      ? {
        define: {
          name: "Window (fixed fares only)",
          timeZone: "Europe/Rome",
          area: { kind: "bbox", south: 41.75, west: 12.2, north: 42.0, east: 12.6 }
        }
      }
      : {}),
    zones: {
      airport: { kind: "circle", latitude: AIRPORT.latitude, longitude: AIRPORT.longitude, radiusKm: 2 },
      centre: { kind: "circle", latitude: CENTRE.latitude, longitude: CENTRE.longitude, radiusKm: 2 },
      suburb: { kind: "circle", latitude: SUBURB.latitude, longitude: SUBURB.longitude, radiusKm: 1 }
    },
    tariffs: [{ provider: "cab", serviceLevel: "Standard", versions }]
  }))

const source = { authority: "test", rule: "test", url: "https://example.org" }
const EARLIER = {
  name: "fares of 2020",
  effectiveFrom: "2020-01-01",
  source,
  flatFares: [{ name: "airport – centre", between: [["airport"], ["centre"]], amount: 50 }],
  tolls: "included"
}
const LATER = {
  name: "fares of 2024",
  effectiveFrom: "2025-07-31",
  changedAfter: "2024-07-16",
  source,
  flatFares: [
    { name: "airport – centre", between: [["airport"], ["centre"]], amount: 55 },
    { name: "airport – suburb", between: [["airport"], ["suburb"]], amount: 40 }
  ],
  tolls: "included"
}

const market = (versions: ReadonlyArray<unknown>) => {
  const m = definedMarket(Either.getOrThrow(file(versions)))
  if (m === undefined) throw new Error("no market")
  return m
}

describe("a change whose day is not known (changedAfter)", () => {
  const m = market([EARLIER, LATER])
  const offers = (from: typeof AIRPORT, to: typeof AIRPORT, date: string) =>
    m.offers(suppliedTrip(m, from, to, 30, 45)(`${date}T11:00:00+02:00`))
  const range = (from: typeof AIRPORT, to: typeof AIRPORT, date: string) =>
    offers(from, to, date).map((o) => [o.distribution.quantile(0.05), o.distribution.quantile(0.5), o.distribution.quantile(0.95)])

  it("outside the window each version prices alone, exactly, and says nothing of the window", () => {
    expect(range(AIRPORT, CENTRE, "2024-07-15")).toEqual([[50, 50, 50]])
    expect(range(CENTRE, AIRPORT, "2025-07-31")).toEqual([[55, 55, 55]])
    for (const date of ["2024-07-15", "2025-07-31"]) {
      expect(offers(AIRPORT, CENTRE, date)[0]?.source?.level?.evidence).toBeUndefined()
    }
  })

  it("inside [changedAfter, effectiveFrom) the price spans both fixed fares, both ways: p5 50, p95 55", () => {
    for (const date of ["2024-07-16", "2025-01-10", "2025-07-30"]) {
      expect(range(AIRPORT, CENTRE, date)).toEqual([[50, 52.5, 55]])
      expect(range(CENTRE, AIRPORT, date)).toEqual([[50, 52.5, 55]])
    }
  })

  it("the evidence names the two versions, their amounts and the window", () => {
    const [offer] = offers(AIRPORT, CENTRE, "2025-01-10")
    expect(offer?.source?.tariff?.name).toBe("fares of 2020")
    expect(offer?.source?.fare).toBe("airport – centre")
    expect(offer?.source?.level?.evidence).toBe(
      "the rule changed on a day not known between 2024-07-16 and 2025-07-31: fares of 2020 (50 EUR) was last seen in force on 2024-07-16, " +
        "fares of 2024 (55 EUR) first seen in force on 2025-07-31; the trip's date 2025-01-10 falls between, so its price spans both versions"
    )
  })

  it("a fare only the later version has is refused inside the window (either rule may have been in force), offered after it", () => {
    expect(offers(AIRPORT, SUBURB, "2024-07-15")).toEqual([])
    // Inside the window the 2024 fare would be a guess for the days before the change: refused,
    // naming the window (no-rule-for-date), not priced on the later version alone.
    expect(offers(AIRPORT, SUBURB, "2025-01-10")).toEqual([])
    expect(offers(SUBURB, AIRPORT, "2025-01-10")).toEqual([])
    const refusal = m.unoffered?.(suppliedTrip(m, AIRPORT, SUBURB, 30, 45)("2025-01-10T11:00:00+02:00"))
    expect(refusal?.reason).toBe("no-rule-for-date")
    expect(refusal?.message).toBe(
      "market window knows no rule for this trip on 2025-01-10: its rule changed between 2024-07-16 and 2025-07-31 on a day not known, and only the rule of after prices the trip"
    )
    // Before the window the trip has no rule at all: the default refusal (no-rule-for-trip), not this one.
    expect(m.unoffered?.(suppliedTrip(m, AIRPORT, SUBURB, 30, 45)("2024-07-15T11:00:00+02:00"))).toBeUndefined()
    expect(range(AIRPORT, SUBURB, "2025-07-31")).toEqual([[40, 40, 40]])
  })

  it("a rule between two known ones that was not read (between: unread-version) prices the same span and says why", () => {
    const unread = market([EARLIER, { ...LATER, between: "unread-version" }])
    const [offer] = unread.offers(suppliedTrip(unread, AIRPORT, CENTRE, 30, 45)("2025-01-10T11:00:00+02:00"))
    expect([offer?.distribution.quantile(0.05), offer?.distribution.quantile(0.95)]).toEqual([50, 55])
    expect(offer?.source?.level?.evidence).toBe(
      "a rule in force between 2024-07-16 and 2025-07-31 was not read (its amounts are not known): fares of 2020 (50 EUR) was last seen in force on 2024-07-16, " +
        "fares of 2024 (55 EUR) in force from 2025-07-31; the trip's date 2025-01-10 falls between, so its price spans both versions"
    )
  })

  it("a trip neither version covers is refused in the window too", () => {
    expect(offers(CENTRE, SUBURB, "2025-01-10")).toEqual([])
  })

  it("two meters: the spanning distribution's p5 is the lower p5 and its p95 the higher p95", () => {
    const meter = (initial: number, perKm: number) => ({
      initial, initialKm: 0, distance: [{ fromKm: 0, unitKm: 1, price: perKm }], time: { runs: "never", unitSeconds: 60, price: 0 }, units: "completed"
    })
    const metered = market([
      { name: "meter of 2020", effectiveFrom: "2020-01-01", source, meter: meter(3, 2), tolls: "included" },
      { name: "meter of 2024", effectiveFrom: "2025-07-31", changedAfter: "2024-07-16", source, meter: meter(4, 2.5), tolls: "included" }
    ])
    const q = (date: string) => metered.offers(suppliedTrip(metered, CENTRE, SUBURB, 10, 20)(`${date}T11:00:00+02:00`))
      .map((o) => [o.distribution.quantile(0.05), o.distribution.quantile(0.95)])
    expect(q("2024-07-15")).toEqual([[23, 23]])
    expect(q("2025-07-31")).toEqual([[29, 29]])
    expect(q("2025-01-10")).toEqual([[23, 29]])
    // The evidence of a metered window names the versions without amounts.
    expect(metered.offers(suppliedTrip(metered, CENTRE, SUBURB, 10, 20)("2025-01-10T11:00:00+02:00"))[0]?.source?.level?.evidence)
      .toContain("meter of 2020 was last seen in force on 2024-07-16, meter of 2024 first seen in force on 2025-07-31")
  })
})

describe("changedAfter: decode checks", () => {
  const problem = (versions: ReadonlyArray<unknown>, define = true): string =>
    Either.match(file(versions, define), { onLeft: (e) => e.message, onRight: () => "valid" })

  it("a window between the previous version's date and this one's is valid", () => {
    expect(problem([EARLIER, LATER])).toBe("valid")
    // The previous version's own date is allowed: last seen in force on the day it took effect.
    expect(problem([EARLIER, { ...LATER, changedAfter: "2020-01-01" }])).toBe("valid")
  })

  it("refuses between without changedAfter", () => {
    expect(problem([EARLIER, { ...LATER, changedAfter: undefined, between: "unread-version" }])).toContain("between is read only with changedAfter")
    expect(problem([EARLIER, { ...LATER, between: "unknown-day" }])).toBe("valid")
  })

  it("refuses it on the first version, on or after effectiveFrom, before the previous version, or in a fitted market's file", () => {
    expect(problem([{ ...EARLIER, changedAfter: "2019-06-01" }])).toContain("the first version has no earlier one to change from")
    expect(problem([EARLIER, { ...LATER, changedAfter: "2025-07-31" }])).toContain("changedAfter 2025-07-31 must be before effectiveFrom 2025-07-31")
    expect(problem([EARLIER, { ...LATER, changedAfter: "2026-01-01" }])).toContain("must be before effectiveFrom")
    expect(problem([EARLIER, { ...LATER, changedAfter: "2019-12-31" }])).toContain("changedAfter 2019-12-31 is before the previous version's effectiveFrom 2020-01-01")
    expect(problem([EARLIER, { ...LATER, changedAfter: "2024-7-16" }])).not.toBe("valid")
    expect(problem([EARLIER, LATER], false)).toContain("changedAfter is read for markets defined by their tariff only")
  })
})
