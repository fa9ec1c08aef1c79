/**
 * Fitting a market model from observed trips (method in docs/pricing.md, "Calibrated markets").
 *
 * 1. Deterministic split: a row is held out when the hash of its raw line falls in the
 *    held-out fraction; the fit never sees those rows.
 * 2. Roads, learned by @ridequote/routes: the route profile (detour factor, speed by local
 *    hour), speed factors by area and the origin–destination cells of the empirical resolver.
 * 3. Tariff regimes (./Regimes.ts): the training trips are cut where a flat fee or the
 *    metered rates changed; each regime has its flat fees (the typical amount of each fee
 *    column) and, fitted on its own trips, the metered part below.
 * 4. For each regime and route source — supplied (the trip's own km and minutes) and resolved (the km
 *    and minutes the route profile infers from the coordinates alone) — a base fare
 *    intercept + a·km + b·min + shift[day part × day type], fitted by Huber-weighted least
 *    squares on price − fees, and the quantiles of the ratio (price − fees) ÷ base in each
 *    bucket (distance band × day part × day type). Thin buckets are shrunk toward their
 *    distance band, bands toward the regime, a thin regime toward all regimes pooled, and each
 *    provider toward the market: w = n / (n + k) on the quantile functions, which keeps them
 *    non-decreasing.
 *
 * Fitting the resolved residuals on the inferred route makes their quantiles calibrated for
 * inferred routes by construction: all the extra uncertainty of not knowing the real route
 * shows up as wider residual quantiles.
 */
import { Either, Schema } from "effect"
import type { Coordinates, Currency, MarketId, ServiceLevel } from "@ridequote/core"
import { boundingBox } from "../Area.js"
import { DEFAULT_BUCKETS, bucketOf, distanceBand, timeBucket } from "../Bucketing.js"
import { baseFare } from "../CalibratedMarket.js"
import { accumulate, normalEquations, solve } from "./LinearModel.js"
import { bucketCount, MODEL_FORMAT, MODEL_VERSION, timeBucketCount } from "../ModelFile.js"
import type { BaseFare, Buckets, MarketModel, ProviderModel, ProviderResiduals, Regime } from "../ModelFile.js"
import { blendQuantiles, monotone, QUANTILE_LEVELS, quantilesAt, sampleQuantile } from "../Quantiles.js"
import { inferRoute } from "./RouteInference.js"
import { wallClock } from "../LocalClock.js"
import { addMonths } from "./Dates.js"
import { DEFAULT_REGIME_OPTIONS, detectRegimes, typicalFees } from "./Regimes.js"
import type { RegimeOptions } from "./Regimes.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import { isHeldOut } from "./sources/TripRecords.js"
import type { TripTable } from "./sources/TripRecords.js"
import { greatCircleKm } from "@ridequote/core"
import { learnRouteKnowledge, learnRouteProfile, MIN_RESOLVABLE_KM } from "@ridequote/routes"

export interface FitOptions {
  readonly id: string
  readonly name: string
  readonly timeZone: string
  readonly currency: string
  readonly source: string
  readonly inputs: ReadonlyArray<string>
  readonly holdoutFraction: number
  readonly salt: string
  /** Providers with fewer training rows (and blank names) are pooled as "other". */
  readonly minProviderRows: number
  readonly serviceLevel: ServiceLevel
  readonly buckets?: Buckets
  readonly levels?: ReadonlyArray<number>
  readonly notes?: ReadonlyArray<string>
  readonly regimes?: RegimeOptions
  /** Fit only trips before this local date (forward validation). */
  readonly before?: string
  /**
   * Each regime's rates and spread come from its last `recentMonths` months (at least
   * `minRecentRows` trips): fares drift within a tariff (traffic, trip mix), and the price of
   * a trip today is closer to last year's than to that of five years ago.
   */
  readonly recent?: { readonly months: number; readonly minRows: number }
}

export const DEFAULT_RECENT = { months: 6, minRows: 1500 } as const

export const DEFAULT_HOLDOUT = { fraction: 0.2, salt: "ridequote-holdout-v1" } as const

/** Shrinkage strengths (pseudo-rows) of each level toward its parent. */
const SHRINK = { regime: 300, band: 30, bucket: 60, provider: 150, speedHour: 50 } as const
/** Pickups and drop-offs farther than this from the market's median pickup are faults. */
export const MARKET_RADIUS_KM = 100
export { MIN_RESOLVABLE_KM }
const AREA_MARGIN_KM = 2

export class FitFailed extends Schema.TaggedError<FitFailed>()("FitFailed", { message: Schema.String }) {}

/** A provider id from a source's name: lower-case words joined by dashes. */
export const providerSlug = (name: string): string =>
  name.toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64)
    .replace(/-+$/g, "") || "other"

const median = (xs: ReadonlyArray<number>): number => sampleQuantile(xs, 0.5)

/**
 * Geographic sanity: a pickup or drop-off farther than MARKET_RADIUS_KM from the median pickup
 * is a coordinate fault, not a trip of this market. Fit and evaluation apply the same rule.
 */
export const marketRows = (trips: ReadonlyArray<ObservedTrip>): { kept: Array<ObservedTrip>; outside: number } => {
  const center: Coordinates = {
    latitude: median(trips.map((t) => t.pickup.latitude)),
    longitude: median(trips.map((t) => t.pickup.longitude))
  }
  const kept = trips.filter((t) =>
    greatCircleKm(center, t.pickup) <= MARKET_RADIUS_KM && greatCircleKm(center, t.destination) <= MARKET_RADIUS_KM
  )
  return { kept, outside: trips.length - kept.length }
}

/** One training row as the fit sees it for a route source. */
interface Row {
  readonly provider: number
  readonly price: number
  readonly km: number
  readonly minutes: number
  readonly time: { readonly hour: number; readonly dayType: "weekday" | "weekend" }
}

const features = (buckets: Buckets, r: Row, out: Float64Array): void => {
  out.fill(0)
  out[0] = 1
  out[1] = r.km
  out[2] = r.minutes
  const t = timeBucket(buckets, r.time)
  if (t > 0) out[2 + t] = 1
}

/** Huber-weighted least squares (IRLS): a few gross outliers (tolls, disputes) do not drag the base. */
const fitBaseFare = (buckets: Buckets, rows: ReadonlyArray<Row>): BaseFare | undefined => {
  const nt = timeBucketCount(buckets)
  const p = 2 + nt
  const x = new Float64Array(p)
  const weights = new Float64Array(rows.length).fill(1)
  let beta: Array<number> | undefined
  for (let iter = 0; iter < 6; iter++) {
    const eq = normalEquations(p)
    rows.forEach((r, i) => {
      features(buckets, r, x)
      accumulate(eq, x, r.price, weights[i] ?? 1)
    })
    beta = solve(eq)
    if (beta === undefined) return undefined
    const b = beta
    const resid = rows.map((r) => {
      features(buckets, r, x)
      let fit = 0
      for (let j = 0; j < p; j++) fit += (b[j] ?? 0) * (x[j] ?? 0)
      return r.price - fit
    })
    // Huber's k = 1.345 σ with σ from the median absolute deviation.
    const scale = 1.4826 * median(resid.map(Math.abs)) || 1
    const k = 1.345 * scale
    resid.forEach((e, i) => {
      weights[i] = Math.abs(e) <= k ? 1 : k / Math.abs(e)
    })
  }
  if (beta === undefined) return undefined
  const floor = Math.max(0.01, sampleQuantile(rows.map((r) => r.price), 0.005) || 0.01)
  return {
    intercept: round(beta[0] ?? 0, 6),
    perKm: round(beta[1] ?? 0, 6),
    perMinute: round(beta[2] ?? 0, 6),
    timeShift: Array.from({ length: nt }, (_, t) => (t === 0 ? 0 : round(beta?.[2 + t] ?? 0, 6))),
    floor: round(floor, 4)
  }
}

/**
 * Residual-ratio quantiles per provider and bucket, shrunk level by level
 * (market → distance band → bucket, market bucket → provider bucket).
 */
const residualTables = (
  buckets: Buckets,
  levels: ReadonlyArray<number>,
  fare: BaseFare,
  rows: ReadonlyArray<Row>,
  providerCount: number,
  /** All regimes pooled: where a thin regime's overall spread is shrunk to. */
  prior: ReadonlyArray<number> | undefined
): { tables: Array<Array<Array<number>>>; counts: Array<number>; ratios: Array<number> } => {
  const nb = bucketCount(buckets)
  const nt = timeBucketCount(buckets)
  const nBands = buckets.distanceBandsKm.length + 1
  const all: Array<number> = []
  const byBand: Array<Array<number>> = Array.from({ length: nBands }, () => [])
  const byBucket: Array<Array<number>> = Array.from({ length: nb }, () => [])
  const byProvider: Array<Array<Array<number>>> = Array.from({ length: providerCount }, () =>
    Array.from({ length: nb }, () => []))
  const counts = new Array<number>(providerCount).fill(0)
  for (const r of rows) {
    const ratio = Math.max(0, r.price / baseFare(fare, { buckets }, r.km, r.minutes, r.time))
    const b = bucketOf(buckets, r.km, r.time)
    all.push(ratio)
    byBand[distanceBand(buckets, r.km)]?.push(ratio)
    byBucket[b]?.push(ratio)
    byProvider[r.provider]?.[b]?.push(ratio)
    counts[r.provider] = (counts[r.provider] ?? 0) + 1
  }
  const shrunk = (sample: ReadonlyArray<number>, parent: ReadonlyArray<number>, k: number): Array<number> =>
    sample.length === 0 ? [...parent] : blendQuantiles(quantilesAt(sample, levels), parent, sample.length / (sample.length + k))
  const market = prior === undefined ? quantilesAt(all, levels) : shrunk(all, prior, SHRINK.regime)
  const bands = byBand.map((s) => shrunk(s, market, SHRINK.band))
  const marketBuckets = byBucket.map((s, b) => shrunk(s, bands[Math.floor(b / nt)] ?? market, SHRINK.bucket))
  const tables = byProvider.map((provider) =>
    provider.map((s, b) => monotone(shrunk(s, marketBuckets[b] ?? market, SHRINK.provider)).map((v) => round(v, 5))))
  return { tables, counts, ratios: all }
}

/** One regime's trips as the fit sees them, per route source. */
interface RegimeRows {
  readonly supplied: Array<Row>
  readonly resolved: Array<Row>
}

const ratiosOf = (buckets: Buckets, fare: BaseFare, rows: ReadonlyArray<Row>): Array<number> =>
  rows.map((r) => Math.max(0, r.price / baseFare(fare, { buckets }, r.km, r.minutes, r.time)))

/** Fits a market model from the training part of a trip table. */
export const fitMarket = (table: TripTable, options: FitOptions): Either.Either<MarketModel, FitFailed> => {
  const buckets = options.buckets ?? DEFAULT_BUCKETS
  const levels = options.levels ?? QUANTILE_LEVELS
  if (table.trips.length === 0) return Either.left(new FitFailed({ message: "no usable trips in the input" }))
  const rejected: Record<string, number> = { ...table.rejected }

  const inWindow = options.before === undefined ? table.trips : table.trips.filter((t) => t.localDate < (options.before ?? ""))
  const { kept: local, outside } = marketRows(inWindow)
  if (outside > 0) rejected["outside-market-radius"] = outside
  const training = local.filter((t) => !isHeldOut(t.key, options.holdoutFraction))
  if (training.length < 50) {
    return Either.left(new FitFailed({ message: `only ${training.length} training rows after filters; need at least 50` }))
  }

  // Providers: big enough ones keep their name, the rest (and blanks) are pooled as "other".
  const rawCounts = new Map<string, number>()
  for (const t of training) rawCounts.set(t.provider, (rawCounts.get(t.provider) ?? 0) + 1)
  const named = [...rawCounts.entries()]
    .filter(([name, n]) => name !== "" && n >= options.minProviderRows && providerSlug(name) !== "other")
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const ids: Array<string> = []
  const indexOf = new Map<string, number>()
  for (const [name] of named) {
    const slug = providerSlug(name)
    if (!ids.includes(slug)) ids.push(slug)
    indexOf.set(name, ids.indexOf(slug))
  }
  const hasOther = [...rawCounts.keys()].some((name) => !indexOf.has(name))
  if (hasOther) ids.push("other")
  const providerOf = (name: string): number => indexOf.get(name) ?? ids.length - 1

  // Roads: learned on all training trips (routes do not change with the tariff).
  const routeProfile = learnRouteProfile(training)
  const routing = learnRouteKnowledge(training, routeProfile)
  const detected = detectRegimes(training, options.regimes ?? DEFAULT_REGIME_OPTIONS)
  const regimeIndex = (t: ObservedTrip): number => {
    let i = detected.length - 1
    while (i > 0 && (detected[i]?.effectiveFrom ?? "") > t.localDate) i--
    return i
  }
  const all: Array<Array<ObservedTrip>> = detected.map(() => [])
  for (const t of training) all[regimeIndex(t)]?.push(t)
  const recent = options.recent ?? DEFAULT_RECENT
  const groups = all.map((trips) => {
    const last = trips.reduce((d, t) => (t.localDate > d ? t.localDate : d), "")
    const from = addMonths(last, -recent.months)
    const window = trips.filter((t) => t.localDate > from)
    if (window.length >= recent.minRows || window.length === trips.length) return window
    return [...trips].sort((a, b) => (a.localDate < b.localDate ? 1 : a.localDate > b.localDate ? -1 : a.key - b.key))
      .slice(0, recent.minRows)
  })

  const clockOf = (t: ObservedTrip) => wallClock(t.hour, t.minute, t.dayOfWeek)
  const fees = groups.map(typicalFees)
  const rowsOf = (trips: ReadonlyArray<ObservedTrip>, regimeFees: Record<string, number>): RegimeRows => {
    const feeSum = Object.values(regimeFees).reduce((a, b) => a + b, 0)
    const supplied: Array<Row> = []
    const resolved: Array<Row> = []
    for (const t of trips) {
      // The metered part as a quote would see it: the regime's flat fees, not this trip's own.
      const price = t.price - feeSum
      const time = clockOf(t)
      supplied.push({ provider: providerOf(t.provider), price, km: t.distanceKm, minutes: t.durationMinutes, time })
      const route = inferRoute(routeProfile, t.pickup, t.destination, t.hour, routing.areaSpeed)
      if (route.greatCircleKm < MIN_RESOLVABLE_KM) continue
      resolved.push({ provider: providerOf(t.provider), price, km: route.distanceKm, minutes: route.durationMinutes, time })
    }
    return { supplied, resolved }
  }
  const regimeRows = groups.map((g, i) => rowsOf(g, fees[i] ?? {}))
  if (regimeRows.reduce((n, r) => n + r.resolved.length, 0) < 50) {
    return Either.left(new FitFailed({ message: "too few trips with distinct pickup and drop-off points to learn routes" }))
  }
  const fares: Array<{ supplied: BaseFare; resolved: BaseFare }> = []
  for (const rows of regimeRows) {
    const supplied = fitBaseFare(buckets, rows.supplied)
    const resolved = fitBaseFare(buckets, rows.resolved)
    if (supplied === undefined || resolved === undefined) {
      return Either.left(new FitFailed({ message: "the base fare regression is singular (too little variety in the trips)" }))
    }
    fares.push({ supplied, resolved })
  }
  // All regimes pooled, each trip against its own regime's base: the prior of a thin regime.
  const pooled = (route: "supplied" | "resolved") =>
    detected.length === 1
      ? undefined
      : quantilesAt(regimeRows.flatMap((rows, i) => ratiosOf(buckets, fares[i]?.[route] as BaseFare, rows[route])), levels)
  const prior = { supplied: pooled("supplied"), resolved: pooled("resolved") }

  const regimes: Array<Regime> = detected.map((d, i) => {
    const rows = regimeRows[i] as RegimeRows
    const fare = fares[i] as { supplied: BaseFare; resolved: BaseFare }
    const s = residualTables(buckets, levels, fare.supplied, rows.supplied, ids.length, prior.supplied)
    const r = residualTables(buckets, levels, fare.resolved, rows.resolved, ids.length, prior.resolved)
    const providers: Array<ProviderResiduals> = ids.map((provider, p) => ({
      provider,
      trainingRows: { supplied: s.counts[p] ?? 0, resolved: r.counts[p] ?? 0 },
      residuals: { supplied: s.tables[p] ?? [], resolved: r.tables[p] ?? [] }
    }))
    return {
      effectiveFrom: d.effectiveFrom,
      detectedBy: d.detectedBy,
      fees: fees[i] ?? {},
      trainingRows: rows.supplied.length,
      routes: fare,
      providers
    }
  })
  const providers: Array<ProviderModel> = ids.map((provider) => ({ provider, serviceLevel: options.serviceLevel }))
  const dates = training.map((t) => t.localDate)

  const model: MarketModel = {
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
    id: options.id as MarketId,
    name: options.name,
    currency: options.currency as Currency,
    timeZone: options.timeZone,
    area: boundingBox(training.flatMap((t) => [t.pickup, t.destination]), AREA_MARGIN_KM),
    routeProfile,
    routing,
    buckets,
    quantileLevels: levels,
    providers,
    regimes,
    provenance: {
      source: options.source,
      inputs: options.inputs,
      rowsRead: table.rowsRead,
      rowsKept: local.length,
      trainingRows: training.length,
      heldOutRows: local.length - training.length,
      trainingSpan: {
        from: dates.reduce((a, b) => (b < a ? b : a), dates[0] ?? ""),
        to: dates.reduce((a, b) => (b > a ? b : a), dates[0] ?? "")
      },
      holdout: { fraction: options.holdoutFraction, salt: options.salt },
      rejected: Object.fromEntries(Object.entries(rejected).sort(([a], [b]) => (a < b ? -1 : 1))),
      notes: options.notes ?? []
    }
  }
  return Either.right(model)
}

function round(x: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}
