/**
 * Tariff regimes learned from the records: a synthetic market whose flat fee appears on a
 * given day and whose metered rates rise later, both unknown to the fit.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { calibratedMarket } from "@ridequote/markets"
import { detectRegimes, fitMarket, forwardEvaluation, targetMisses } from "@ridequote/calibration"
import type { ObservedTrip, TripTable } from "@ridequote/calibration"
import { fitOptions, syntheticTable } from "./synthetic.js"

const FEE_FROM = "2021-03-15"
const RATE_FROM = "2022-01-01"
const SURCHARGE = 2.5
const RATE_RISE = 1.12

/** 24 months from 2020-07, trips spread evenly over the days; the tariff changes twice. */
const dated = (base: TripTable): TripTable => {
  const start = Date.UTC(2020, 6, 1)
  const days = 730
  const trips = base.trips.map((t, i): ObservedTrip => {
    const d = new Date(start + Math.floor((i * days) / base.trips.length) * 86_400_000)
    const localDate = d.toISOString().slice(0, 10)
    const fee = localDate >= FEE_FROM ? SURCHARGE : 0
    const rate = localDate >= RATE_FROM ? RATE_RISE : 1
    return {
      ...t,
      localDate,
      dayOfWeek: d.getUTCDay(),
      price: Math.round((t.price * rate + fee) * 100) / 100,
      fees: { surcharge: fee, tax: 0.5 }
    }
  })
  return { ...base, trips }
}

const table = dated(syntheticTable(24_000, 11))

describe("tariff regimes", () => {
  it("finds the day a flat fee appeared and the month the metered rates rose, and nothing else", () => {
    const regimes = detectRegimes(table.trips)
    expect(regimes.map((r) => r.effectiveFrom)).toEqual(["2020-07-01", FEE_FROM, RATE_FROM])
    expect(regimes[1]?.detectedBy.join(" ")).toContain("fee surcharge 0.00 → 2.50")
    expect(regimes[2]?.detectedBy.join(" ")).toMatch(/metered rates \+1[0-4]\.\d %/)
  })

  it("finds no regime change in records of one steady tariff", () => {
    expect(detectRegimes(syntheticTable(10_000, 3).trips)).toHaveLength(1)
  })

  const model = Either.getOrThrow(fitMarket(table, { ...fitOptions, holdoutFraction: 0 }))
  const market = calibratedMarket(model)
  const trip = (departAt: string | undefined) => ({
    pickup: { latitude: 45, longitude: 10 },
    destination: { latitude: 45.03, longitude: 10.05 },
    distanceKm: 8,
    durationMinutes: 24,
    mode: "Realtime" as const,
    routeSource: "supplied" as const,
    localTime: { hour: 13, minuteOfDay: 780, dayOfWeek: 3, dayType: "weekday" as const },
    ...(departAt !== undefined ? { departAt: DateTime.unsafeMake(departAt) } : {})
  })
  const p50 = (departAt: string | undefined) => market.offers(trip(departAt))[0]?.distribution.quantile(0.5) ?? Number.NaN

  it("keeps each regime's flat fees as the records show them", () => {
    expect(model.regimes.map((r) => r.fees)).toEqual([
      { surcharge: 0, tax: 0.5 },
      { surcharge: 2.5, tax: 0.5 },
      { surcharge: 2.5, tax: 0.5 }
    ])
  })

  it("prices a trip on the regime in force at its moment; without one, on the newest", () => {
    const before = p50("2020-10-05T12:00:00Z")
    const withFee = p50("2021-06-01T12:00:00Z")
    const newest = p50("2022-06-01T12:00:00Z")
    // True median of the synthetic meter for 8 km / 24 min: 3 + 1.2·8 + 0.3·24 = 19.8.
    expect(withFee - before).toBeCloseTo(SURCHARGE, 0)
    expect(newest / (withFee - SURCHARGE) - 1).toBeGreaterThan(0.08)
    // Without a moment: the newest regime, at no month's season (factor 1; the generated
    // records have no season, so the learned one is within noise of 1).
    expect(market.regimeAt(undefined)).toBe(model.regimes[model.regimes.length - 1])
    expect(p50(undefined)).toBeCloseTo(newest, 1)
    // Before the first record: the oldest tariff (the same calendar month, so the same season).
    expect(p50("2001-10-05T12:00:00Z")).toBe(before)
  })

  it("a closed regime is fitted on all of its trips, the regime in force on its recent months", () => {
    // The two closed regimes price dates of their own past: their windows are their whole
    // spans. Only the newest one looks at its last months (here all six it has).
    expect(model.regimes.map((r) => r.window?.from)).toEqual(["2020-07-01", FEE_FROM, RATE_FROM])
    const spans = [["2020-07-01", FEE_FROM], [FEE_FROM, RATE_FROM], [RATE_FROM, "9999"]] as const
    model.regimes.forEach((r, i) => {
      const [from, until] = spans[i]!
      expect(r.trainingRows).toBe(table.trips.filter((t) => t.localDate >= from && t.localDate < until).length)
    })
  })

  it("a regime begins at local midnight of its first day in the market's time zone", () => {
    // Europe/Rome is UTC+1 in March: 2021-03-15 00:00 local is 2021-03-14T23:00Z.
    expect(p50("2021-03-14T22:59:00Z")).toBe(p50("2021-03-01T12:00:00Z"))
    expect(p50("2021-03-14T23:00:00Z")).toBe(p50("2021-03-20T12:00:00Z"))
    expect(p50("2021-03-14T23:00:00Z") - p50("2021-03-14T22:59:00Z")).toBeCloseTo(SURCHARGE, 0)
  })

  it("forward splits after each change meet the coverage and pinball targets", () => {
    const splits = Either.getOrThrow(forwardEvaluation(table, { ...fitOptions, holdoutFraction: 0 }, ["2021-08-01", "2022-04-01"], 3))
    expect(splits.map((s) => s.model.regimes.length)).toEqual([2, 3])
    for (const s of splits) {
      expect(s.evaluation.scoredRows).toBeGreaterThan(2000)
      expect(targetMisses(s.evaluation)).toEqual([])
    }
  })

  it("ends a forward split's scored window where the records show a new regime beginning", () => {
    const [split] = Either.getOrThrow(forwardEvaluation(table, { ...fitOptions, holdoutFraction: 0 }, ["2021-11-01"], 3))
    expect(split?.end).toBe(RATE_FROM)
    expect(split?.endsAtRegime).toBe(RATE_FROM)
  })
})
