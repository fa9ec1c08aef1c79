/**
 * Seasons (docs/pricing.md, "Seasons"): the month-of-year index is learned from the training
 * trips only, shrunk to nothing where monthly levels are noise, and a fit that knows it prices
 * the next season as the last year's same months said.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { DateTime } from "effect"
import { baseFare, calibratedMarket } from "@ridequote/markets"
import type { MarketModel } from "@ridequote/markets"
import { fitMarket, forwardSplit, monthLevel, regimeFactors, seasonalIndex } from "@ridequote/calibration"
import type { MonthLevel, ObservedTrip } from "@ridequote/calibration"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseModel, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { fitOptions, syntheticTable } from "./synthetic.js"

const truth = (m: number) => 0.03 * Math.cos((2 * Math.PI * m) / 12) // m = 0 (January) … 11
const months = (years: ReadonlyArray<number>) =>
  years.flatMap((y) => Array.from({ length: 12 }, (_, m) => `${y}-${String(m + 1).padStart(2, "0")}`))

describe("seasonal index", () => {
  it("recovers month effects that stand well above the noise of the monthly levels", () => {
    const levels: Array<MonthLevel> = months([2018, 2019]).map((month) => {
      const m = Number(month.slice(5, 7)) - 1
      return { month, regime: 0, level: 0.1 + truth(m), se: 0.001, trips: 10_000 }
    })
    const index = seasonalIndex(levels, 1)
    index.effects.forEach((s, m) => expect(Math.abs((s ?? Number.NaN) - truth(m))).toBeLessThan(0.001))
  })

  it("is flat where the monthly levels are noise: no season is invented", () => {
    // Wiggles of ±0.4 % under a sampling error of 2 %: indistinguishable from noise.
    const levels: Array<MonthLevel> = months([2018]).map((month, i) =>
      ({ month, regime: 0, level: 0.1 + (i % 2 === 0 ? 0.004 : -0.004), se: 0.02, trips: 200 }))
    const index = seasonalIndex(levels, 1)
    expect(index.tau2).toBe(0)
    index.effects.forEach((s) => expect(s).toBe(0))
  })

  it("does not take a tariff change for a season: each regime has its own level", () => {
    // A 10 % rate rise in the middle of the second year, no season at all.
    const levels: Array<MonthLevel> = months([2018, 2019]).map((month, i) =>
      ({ month, regime: i < 18 ? 0 : 1, level: i < 18 ? 0 : 0.1, se: 0.001, trips: 10_000 }))
    seasonalIndex(levels, 2).effects.forEach((s) => expect(Math.abs(s ?? Number.NaN)).toBeLessThan(1e-6))
  })

  it("prices a month the records never show like the months the regime was fitted on", () => {
    const levels: Array<MonthLevel> = months([2018]).slice(0, 9).map((month) => {
      const m = Number(month.slice(5, 7)) - 1
      return { month, regime: 0, level: truth(m), se: 0.001, trips: 10_000 }
    })
    const index = seasonalIndex(levels, 1)
    expect(index.effects.slice(9)).toEqual([undefined, undefined, undefined])
    // Fitted on April–September: October to December get their trip-weighted mean.
    const window = [0, 0, 0, 100, 100, 100, 100, 100, 100, 0, 0, 0]
    const factors = regimeFactors(index, window)
    const fill = Math.log(factors[9] ?? Number.NaN)
    const mean = [3, 4, 5, 6, 7, 8].reduce((s, m) => s + (index.effects[m] ?? 0), 0) / 6
    expect(fill).toBeCloseTo(mean, 9)
    expect(factors[10]).toBe(factors[9])
    expect(factors[0]).toBeCloseTo(Math.exp(index.effects[0] ?? Number.NaN), 12)
  })

  it("a month level is the trimmed mean of its log ratios, with a standard error that shrinks with √n", () => {
    const ratios = Array.from({ length: 400 }, (_, i) => Math.log(1 + ((i % 20) - 9.5) / 100))
    const level = monthLevel("2019-01", 0, ratios)
    expect(level?.level ?? Number.NaN).toBeCloseTo(0, 2)
    const more = monthLevel("2019-01", 0, [...ratios, ...ratios, ...ratios, ...ratios])
    expect((more?.se ?? Number.NaN) / (level?.se ?? Number.NaN)).toBeCloseTo(0.5, 1)
    expect(monthLevel("2019-01", 0, ratios.slice(0, 50))).toBeUndefined()
  })
})

describe("a fit with seasons", () => {
  // Two years of generated trips whose metered price follows the season above; fitted on the
  // first 18 months and scored on the 6 after (a model without seasons would price the winter
  // months after the cut at the summer level of its window).
  const base = syntheticTable(36_000, 7).trips
  const trips: Array<ObservedTrip> = base.map((t, i) => {
    const month = i % 24
    const m = month % 12
    const date = `${2018 + Math.floor(month / 12)}-${String(m + 1).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`
    return { ...t, localDate: date, price: Math.round(t.price * Math.exp(truth(m)) * 100) / 100 }
  })
  const table = { trips, rowsRead: trips.length, rejected: {} }
  const model: MarketModel = Either.getOrThrow(fitMarket(table, { ...fitOptions, holdoutFraction: 0, before: "2019-07-01" }))

  it("learns the season from the training window and scores the months after the cut within the targets", () => {
    const learned = (model.regimes[0]?.seasonal.supplied ?? []).map(Math.log)
    // Each month's level carries ~0.5 % of sampling noise (1,500 trips a month): the learned
    // season follows the generated one (±3 %) to within a point.
    learned.forEach((s, m) => expect(Math.abs(s - truth(m) - ((learned[3] ?? 0) - truth(3))), `month ${m + 1}`).toBeLessThan(0.012))
    const split = forwardSplit(model, table, "2019-07-01", "2020-01-01")
    for (const route of split.routes) {
      const tolerance = route.route === "supplied" ? 0.03 : 0.05
      for (const [name, q] of Object.entries({ p5: 0.05, p25: 0.25, p50: 0.5, p75: 0.75, p95: 0.95 })) {
        expect(Math.abs((route.coverage[name] ?? Number.NaN) - q), `${route.route} ${name}`).toBeLessThanOrEqual(tolerance)
      }
    }
  })
})

describe("a quote's season", () => {
  it("is the factor of the trip's local month, read in the market's time zone", () => {
    const file = "nyc.json"
    const model = Either.getOrThrow(parseModel(file, readFileSync(join(SHIPPED_MARKETS_DIR, file), "utf8")))
    const market = calibratedMarket(model)
    const p50 = (at: string) => market.offers({
      pickup: { latitude: 40.75, longitude: -73.99 },
      destination: { latitude: 40.76, longitude: -73.97 },
      distanceKm: 3,
      durationMinutes: 14,
      mode: "Realtime",
      routeSource: "resolved",
      localTime: { hour: 13, minuteOfDay: 780, dayOfWeek: 3, dayType: "weekday" },
      departAt: DateTime.unsafeMake(at)
    })[0]?.distribution.quantile(0.5) ?? Number.NaN
    const regime = model.regimes[model.regimes.length - 1]
    const [jan, feb] = [regime?.seasonal.resolved[0] ?? Number.NaN, regime?.seasonal.resolved[1] ?? Number.NaN]
    const fees = Object.values(regime?.fees ?? {}).reduce((a, b) => a + b, 0)
    // 2020-02-01 04:59Z is 23:59 on 31 January in New York, 05:00Z midnight of 1 February.
    const lastOfJanuary = p50("2020-02-01T04:59:00Z"), firstOfFebruary = p50("2020-02-01T05:00:00Z")
    expect((firstOfFebruary - fees) / (lastOfJanuary - fees)).toBeCloseTo(feb / jan, 6)
    expect(lastOfJanuary).toBe(p50("2020-01-15T17:00:00Z"))
  })
})

describe("base fares", () => {
  it("never fall as km or minutes grow: the shipped models' rates are all ≥ 0", () => {
    for (const file of ["nyc.json", "chicago.json"]) {
      const model = Either.getOrThrow(parseModel(file, readFileSync(join(SHIPPED_MARKETS_DIR, file), "utf8")))
      for (const regime of model.regimes) {
        for (const fare of [regime.routes.supplied, regime.routes.resolved]) {
          expect(fare.perKm).toBeGreaterThanOrEqual(0)
          expect(fare.perMinute).toBeGreaterThanOrEqual(0)
          for (const c of fare.perKnotKm) expect(c).toBeGreaterThanOrEqual(0)
          const time = { hour: 13, dayType: "weekday" as const }
          for (const [km, minutes] of [[1, 3], [2, 20], [5, 10], [12, 60], [30, 35]] as const) {
            const at = baseFare(fare, model, km, minutes, time)
            expect(baseFare(fare, model, km + 0.5, minutes, time)).toBeGreaterThanOrEqual(at)
            expect(baseFare(fare, model, km, minutes + 2, time)).toBeGreaterThanOrEqual(at)
          }
        }
      }
    }
  })
})
