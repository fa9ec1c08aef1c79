/**
 * Fitting a market model from observed trips (method in docs/calibration.md, "Calibrated markets").
 *
 * 1. Deterministic split: a row is held out when the hash of its raw line falls in the
 *    held-out fraction; the fit never sees those rows.
 * 2. Roads, learned by @ridequote/routes: the route profile (detour factor, speed by local
 *    hour), speed factors by area and the origin–destination cells of the empirical resolver.
 * 3. Tariff regimes (./Regimes.ts): the training trips are cut where a flat fee or the
 *    metered rates changed; each regime has its flat fees (the typical amount of each fee
 *    column) and, fitted on its own trips, the metered part below.
 * 4. Seasons (./Seasons.ts): a month-of-year index of the metered level, per route source,
 *    read off all training trips (a level per regime, so tariff changes are not taken for
 *    seasons) and shrunk toward no season by how noisy the monthly levels are. Each regime is
 *    fitted with its trips' season divided out; a quote multiplies it back in.
 * 5. For each regime and route source — supplied (the trip's own km and minutes) and resolved (the km
 *    and minutes the route profile infers from the coordinates alone) — on the regime's window
 *    (the regime in force: its last `recent.months`; a closed regime: all of its trips), a base fare intercept + a·km + b·min + Σ c_k·max(km, v_k·min/60) +
 *    shift[day part × day type] (v_k: the 20/40/60/80 % quantiles of the window's average
 *    speeds, so the price per km can bend with speed as a taximeter's "distance or time"
 *    tariff does; a, b, c_k ≥ 0, so the base never falls as km or minutes grow), fitted by
 *    Huber-weighted least squares on price − fees, and the quantiles
 *    of the ratio (price − fees) ÷ base in each bucket (distance band × day part × day type).
 *    Thin buckets are shrunk toward their distance band, bands toward the regime, a thin regime
 *    toward all regimes pooled, and each provider toward the market: w = n / (n + k) on the
 *    quantile functions, which keeps them non-decreasing.
 * 6. The ratio quantiles are re-read so that the published price (rounded to cents) covers
 *    its nominal share of the window's trips (`recalibrate`).
 *
 * Fitting the resolved residuals on the inferred route makes their quantiles calibrated for
 * inferred routes by construction: all the extra uncertainty of not knowing the real route
 * shows up as wider residual quantiles.
 */
import { Either, Schema } from "effect"
import type { Coordinates, Currency, MarketId, ServiceLevel } from "@ridequote/core"
import {
  baseFare,
  blendQuantiles,
  boundingBox,
  bucketCount,
  bucketOf,
  DEFAULT_BUCKETS,
  distanceBand,
  interpolateQuantile,
  medianInPlace,
  MODEL_FORMAT,
  MODEL_VERSION,
  monotone,
  QUANTILE_LEVELS,
  quantilesAt,
  quantilesInPlace,
  timeBucket,
  timeBucketCount,
  wallClock
} from "@ridequote/markets/model"
import type { BaseFare, Buckets, MarketModel, ProviderModel, ProviderResiduals, Regime } from "@ridequote/markets/model"
import { accumulateRows, normalEquations, solveNonNegative, sparseRows } from "./LinearModel.js"
import { inferRoute } from "./RouteInference.js"
import { firstCoveringPoint, RECALIBRATION_GRID, rereadLevels } from "./Recalibration.js"
import { addMonths } from "./Dates.js"
import { DEFAULT_REGIME_OPTIONS, detectRegimes, typicalFees } from "./Regimes.js"
import { monthLevel, regimeFactors, seasonalIndex } from "./Seasons.js"
import { fitSpecialFares } from "./SpecialFares.js"
import type { MonthLevel } from "./Seasons.js"
import type { RegimeOptions } from "./Regimes.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import { isHeldOut } from "./sources/TripRecords.js"
import type { TripTable } from "./sources/TripRecords.js"
import { greatCircleKm } from "@ridequote/core"
import { learnRouteKnowledge, learnRouteProfile, MIN_RESOLVABLE_KM } from "@ridequote/routes"

/**
 * What every fit (taxi trips or ride-hail records) needs to know of its market and records: the
 * market's identity, where the records came from, and the held-out share and its salt.
 */
export interface MarketFitBase {
  readonly id: string
  readonly name: string
  readonly timeZone: string
  readonly currency: string
  readonly source: string
  readonly inputs: ReadonlyArray<string>
  readonly holdoutFraction: number
  readonly salt: string
}

/** What `fitMarket` needs besides the trips: the market's identity, the split, and the fitting's knobs. */
export interface FitOptions extends MarketFitBase {
  /** Providers with fewer training rows (and blank names) are pooled as "other". */
  readonly minProviderRows: number
  readonly serviceLevel: ServiceLevel
  /**
   * One provider for every row, as riders choose it (`yellow-taxi`), with its product name:
   * for records whose provider column names a meter vendor or an affiliation whose prices do
   * not differ (docs/calibration.md, "Providers").
   */
  readonly pooled?: { readonly provider: string; readonly product: string }
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

/** The sum of a trip's fees, in their order (a loop: `Object.values(…).reduce` made an array per trip). */
const feeTotalOf = (fees: Readonly<Record<string, number>>): number => {
  let total = 0
  for (const name in fees) total += fees[name] ?? 0
  return total
}

export const DEFAULT_RECENT = { months: 6, minRows: 1500 } as const

/**
 * A fifth of the rows held out for `market evaluate`, chosen by hash with this salt: the same
 * records always split the same way, and a new salt gives a new split.
 */
export const DEFAULT_HOLDOUT = { fraction: 0.2, salt: "ridequote-holdout-v1" } as const

/** Shrinkage strengths (pseudo-rows) of each level toward its parent. */
const SHRINK = { regime: 300, band: 30, bucket: 60, provider: 150, speedHour: 50 } as const
/** Pickups and drop-offs farther than this from the market's median pickup are faults. */
export const MARKET_RADIUS_KM = 100
export { MIN_RESOLVABLE_KM }
const AREA_MARGIN_KM = 2

/**
 * The records cannot make a model: no usable trips, fewer than 50 training rows after the
 * filters, too few trips with distinct endpoints to learn routes, or a singular fare regression.
 */
export class FitFailed extends Schema.TaggedError<FitFailed>()("FitFailed", { message: Schema.String }) {}

/**
 * What every fitted model opens with, taxi or ride-hail: the file's format and version, the
 * market as the options name it, and its area, the box around the training records' pickups
 * and destinations.
 */
export const modelHeader = (
  options: Pick<FitOptions, "id" | "name" | "currency" | "timeZone">,
  training: ReadonlyArray<{ readonly pickup: Coordinates; readonly destination: Coordinates }>
): Pick<MarketModel, "format" | "version" | "id" | "name" | "currency" | "timeZone" | "area"> => ({
  format: MODEL_FORMAT,
  version: MODEL_VERSION,
  id: options.id as MarketId,
  name: options.name,
  currency: options.currency as Currency,
  timeZone: options.timeZone,
  area: boundingBox(endpointsOf(training), AREA_MARGIN_KM)
})

/** Every record's pickup and destination, in order (a loop: `flatMap` made an array per record). */
const endpointsOf = (
  records: ReadonlyArray<{ readonly pickup: Coordinates; readonly destination: Coordinates }>
): Array<Coordinates> => {
  const points: Array<Coordinates> = []
  for (const r of records) points.push(r.pickup, r.destination)
  return points
}

/** A provider id from a source's name: lower-case words joined by dashes. */
export const providerSlug = (name: string): string =>
  name.toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64)
    .replace(/-+$/g, "") || "other"

const median = (xs: ReadonlyArray<number>): number => medianInPlace(Float64Array.from(xs))

/**
 * Geographic sanity: a pickup or drop-off farther than MARKET_RADIUS_KM from the median pickup
 * is a coordinate fault, not a trip of this market. Fit and evaluation apply the same rule.
 */
export const marketRows = (trips: ReadonlyArray<ObservedTrip>): MarketRows => {
  // One evaluation asks this of the same table many times (every split, the route accuracy):
  // the answer is kept with the array, which no one changes once read.
  const known = marketRowsOf.get(trips)
  if (known !== undefined) return known
  const center: Coordinates = {
    latitude: median(trips.map((t) => t.pickup.latitude)),
    longitude: median(trips.map((t) => t.pickup.longitude))
  }
  const kept = trips.filter((t) =>
    greatCircleKm(center, t.pickup) <= MARKET_RADIUS_KM && greatCircleKm(center, t.destination) <= MARKET_RADIUS_KM
  )
  const rows: MarketRows = { kept, outside: trips.length - kept.length }
  marketRowsOf.set(trips, rows)
  return rows
}

/** The trips of a table inside the market's radius, and how many were not. */
export interface MarketRows {
  readonly kept: ReadonlyArray<ObservedTrip>
  readonly outside: number
}

const marketRowsOf = new WeakMap<ReadonlyArray<ObservedTrip>, MarketRows>()

/** One training row as the fit sees it for a route source. */
interface Row {
  readonly provider: number
  readonly price: number
  readonly km: number
  readonly minutes: number
  readonly time: { readonly hour: number; readonly dayType: "weekday" | "weekend" }
  /** Local `YYYY-MM` of the trip. */
  readonly month: string
  /** Its month of the year, 0–11 (what seasonal factors are indexed by). */
  readonly calendarMonth: number
}

/**
 * A row's time, shared by every row of the same hour and weekday (168 of them): a time object
 * per trip and fit was the largest share of the objects a fit keeps until it ends.
 */
const rowTime = (hour: number, dayOfWeek: number): Row["time"] => {
  const made = () => ({ hour, dayType: wallClock(hour, 0, dayOfWeek).dayType })
  const usual = Number.isInteger(hour) && Number.isInteger(dayOfWeek) && hour >= 0 && hour < 24 && dayOfWeek >= 0 && dayOfWeek < 7
  return usual ? (rowTimes[hour * 7 + dayOfWeek] ??= made()) : made()
}
const rowTimes: Array<Row["time"] | undefined> = []

/** Levels of the training trips' average speed where the base fare's price per km may bend. */
export const SPEED_KNOT_LEVELS: ReadonlyArray<number> = [0.2, 0.4, 0.6, 0.8]

/** Writes a row's features at `at` in `out` (zeros there already): no view per row of the flat array. */
const features = (buckets: Buckets, knots: ReadonlyArray<number>, r: Row, out: Float64Array, at: number): void => {
  out[at] = 1
  out[at + 1] = r.km
  out[at + 2] = r.minutes
  const t = timeBucket(buckets, r.time)
  if (t > 0) out[at + 2 + t] = 1
  const first = at + 2 + timeBucketCount(buckets)
  for (let k = 0; k < knots.length; k++) out[first + k] = Math.max(r.km, ((knots[k] ?? 0) * r.minutes) / 60)
}

/** The rows' average speeds, km/h, where they have one (a finite one above 0). */
const averageSpeeds = (rows: ReadonlyArray<Row>): Array<number> => {
  const speeds: Array<number> = []
  for (const r of rows) {
    const v = (60 * r.km) / r.minutes
    if (Number.isFinite(v) && v > 0) speeds.push(v)
  }
  return speeds
}

/** Huber-weighted least squares (IRLS): a few gross outliers (tolls, disputes) do not drag the base. */
const fitBaseFare = (buckets: Buckets, rows: ReadonlyArray<Row>): BaseFare | undefined => {
  const nt = timeBucketCount(buckets)
  const speeds = Float64Array.from(averageSpeeds(rows))
  // Selected, not sorted as `quantilesAt` does: the same values without ordering every speed.
  const knots = speeds.length === 0 ? [] : [...new Set(quantilesInPlace(speeds, SPEED_KNOT_LEVELS).map((v) => round(v, 1)))]
    .filter((v) => v > 0)
  const p = 2 + nt + knots.length
  // Each row's features, once: the six reweighting passes read them twice each (building them
  // per pass was a fifth of `market evaluate`'s CPU).
  const n = rows.length
  const x = new Float64Array(n * p)
  rows.forEach((r, i) => features(buckets, knots, r, x, i * p))
  const sparse = sparseRows(x, n, p)
  const prices = new Float64Array(n)
  rows.forEach((r, i) => (prices[i] = r.price))
  const weights = new Float64Array(n).fill(1)
  // Reused by every pass: the absolute residuals, and a copy the median reorders.
  const absResid = new Float64Array(n)
  const scratch = new Float64Array(n)
  let beta: Array<number> | undefined
  for (let iter = 0; iter < 6; iter++) {
    const eq = normalEquations(p)
    accumulateRows(eq, sparse, prices, weights)
    // The km, minute and knot rates are ≥ 0, so the base fare never falls as km or minutes grow.
    beta = solveNonNegative(eq, Array.from({ length: p }, (_, j) => j === 1 || j === 2 || j >= 2 + nt))
    if (beta === undefined) return undefined
    const b = Float64Array.from(beta)
    for (let i = 0; i < n; i++) {
      let fit = 0
      for (let j = 0; j < p; j++) fit += (b[j] ?? 0) * (x[i * p + j] ?? 0)
      absResid[i] = Math.abs((prices[i] ?? 0) - fit)
    }
    // Huber's k = 1.345 σ with σ from the median absolute deviation.
    scratch.set(absResid)
    const scale = 1.4826 * medianInPlace(scratch) || 1
    const k = 1.345 * scale
    for (let i = 0; i < n; i++) {
      const e = absResid[i] ?? 0
      weights[i] = e <= k ? 1 : k / e
    }
  }
  if (beta === undefined) return undefined
  scratch.set(prices)
  const floor = Math.max(0.01, quantilesInPlace(scratch, [0.005])[0] || 0.01)
  return {
    intercept: round(beta[0] ?? 0, 6),
    perKm: round(beta[1] ?? 0, 6),
    perMinute: round(beta[2] ?? 0, 6),
    speedKnotsKmh: knots,
    perKnotKm: knots.map((_, k) => round(beta?.[2 + nt + k] ?? 0, 6)),
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
  const model = { buckets }
  for (const r of rows) {
    const ratio = Math.max(0, r.price / baseFare(fare, model, r.km, r.minutes, r.time))
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

/** Pseudo-rows the published-price recalibration of a regime is shrunk toward no change with. */
const RECALIBRATION_SHRINK = 1000

/**
 * Quantile recalibration for the published price. A quote publishes each percentile rounded to
 * cents, and a fare on the meter's grid that equals the rounded percentile counts as at or
 * below it; with tight spreads (a supplied route in New York) those ties alone put ~0.7 % more
 * of the training trips under p25 and p50 than the residual quantiles say. So the in-sample
 * coverage c(q) of the published price is measured on the regime's own window rows at a fine
 * grid of q, and each stored level q_j is re-read at q*_j with c(q*_j) = q_j (linear between
 * grid points; Kuleshov et al. 2018, "Accurate uncertainties for deep learning using calibrated
 * regression"), shrunk toward q_j by n ÷ (n + RECALIBRATION_SHRINK). c is non-decreasing, so
 * the re-read rows stay non-decreasing.
 */
const recalibrate = (
  buckets: Buckets,
  levels: ReadonlyArray<number>,
  fare: BaseFare,
  /** The window rows with the season taken out (what the tables were fitted on). */
  rows: ReadonlyArray<Row>,
  tables: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>,
  feeSum: number,
  factors: ReadonlyArray<number>
): Array<Array<Array<number>>> => {
  const grid = RECALIBRATION_GRID
  const below = new Float64Array(grid.length)
  // Each table row read at every grid level once, not once per trip (it was 10 % of the CPU).
  const atGrid = tables.map((t) => t.map((row) => grid.map((q) => interpolateQuantile(levels, row, q))))
  const ascending = atGrid.map((t) => t.map(isFiniteAscending))
  const none = grid.map(() => Number.NaN)
  // Trips by the first grid point from which on every published price covers them (see below).
  const coveredFrom = new Float64Array(grid.length + 1)
  const model = { buckets }
  for (const r of rows) {
    const factor = factors[r.calendarMonth] ?? 1
    const base = baseFare(fare, model, r.km, r.minutes, r.time) * factor
    const b = bucketOf(buckets, r.km, r.time)
    const ratios = atGrid[r.provider]?.[b] ?? none
    const price = Math.round((r.price * factor + feeSum) * 100) / 100
    if (ascending[r.provider]?.[b] === true && Number.isFinite(base) && base >= 0) {
      // Finite non-decreasing ratios times a finite base ≥ 0, rounded: the published prices do
      // not decrease either, so the grid points that cover the trip are a tail of the grid,
      // found by bisection (199 roundings per trip were 6 % of NYC's `market evaluate`).
      const from = firstCoveringPoint(ratios.length, (g) => price <= publishedAt(feeSum, base, ratios[g]))
      coveredFrom[from] = (coveredFrom[from] ?? 0) + 1
      continue
    }
    for (let g = 0; g < grid.length; g++) if (price <= publishedAt(feeSum, base, ratios[g])) below[g] = (below[g] ?? 0) + 1
  }
  let covered = 0
  for (let g = 0; g < grid.length; g++) below[g] = (below[g] ?? 0) + (covered += coveredFrom[g] ?? 0)
  const n = rows.length
  if (n === 0) return tables.map((t) => t.map((row) => [...row]))
  const coverage = Array.from(below, (b) => b / n)
  const w = n / (n + RECALIBRATION_SHRINK)
  const reread = rereadLevels(levels, coverage, w)
  return tables.map((t) =>
    t.map((row) => monotone(reread.map((q) => interpolateQuantile(levels, row, q))).map((v) => round(v, 5)))
  )
}

/** Whether a row holds finite numbers only, none smaller than the one before. */
const isFiniteAscending = (values: ReadonlyArray<number>): boolean =>
  values.every((v, i) => Number.isFinite(v) && (i === 0 || (values[i - 1] ?? v) <= v))

/** The published price (cents) of a trip with flat fees `feeSum` and base `base` at a ratio quantile. */
const publishedAt = (feeSum: number, base: number, ratio: number | undefined): number =>
  Math.round((feeSum + Math.max(0, base * (ratio ?? Number.NaN))) * 100) / 100

/** One regime's trips as the fit sees them, per route source. */
interface RegimeRows {
  readonly supplied: Array<Row>
  readonly resolved: Array<Row>
}

const ratiosOf = (buckets: Buckets, fare: BaseFare, rows: ReadonlyArray<Row>): Array<number> => {
  const model = { buckets }
  return rows.map((r) => Math.max(0, r.price / baseFare(fare, model, r.km, r.minutes, r.time)))
}

const calendarMonthOf = (month: string): number => Number(month.slice(5, 7)) - 1

/**
 * Seasonal factors of each regime for one route source: the index is read off all training
 * rows against one reference base fare fitted on them all (./Seasons.ts); undefined when that
 * regression is singular.
 */
const seasonalFactors = (
  buckets: Buckets,
  all: ReadonlyArray<ReadonlyArray<Row>>,
  windows: ReadonlyArray<ReadonlyArray<Row>>
): Array<Array<number>> | undefined => {
  const reference = fitBaseFare(buckets, all.flat())
  if (reference === undefined) return undefined
  const levels: Array<MonthLevel> = []
  const model = { buckets }
  all.forEach((rows, regime) => {
    const byMonth = new Map<string, Array<number>>()
    for (const r of rows) {
      const base = baseFare(reference, model, r.km, r.minutes, r.time)
      const ratio = Math.log(Math.max(0.01, r.price) / base)
      const list = byMonth.get(r.month)
      if (list === undefined) byMonth.set(r.month, [ratio])
      else list.push(ratio)
    }
    for (const month of [...byMonth.keys()].sort()) {
      const level = monthLevel(month, regime, byMonth.get(month) ?? [])
      if (level !== undefined) levels.push(level)
    }
  })
  const index = seasonalIndex(levels, all.length)
  return windows.map((rows) => {
    const tripsByMonth = new Array<number>(12).fill(0)
    for (const r of rows) tripsByMonth[r.calendarMonth] = (tripsByMonth[r.calendarMonth] ?? 0) + 1
    return regimeFactors(index, tripsByMonth)
  })
}

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
  const pooledAs = options.pooled
  const named = [...rawCounts.entries()]
    .filter(([name, n]) => pooledAs === undefined && name !== "" && n >= options.minProviderRows && providerSlug(name) !== "other")
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const ids: Array<string> = []
  const indexOf = new Map<string, number>()
  for (const [name] of named) {
    const slug = providerSlug(name)
    if (!ids.includes(slug)) ids.push(slug)
    indexOf.set(name, ids.indexOf(slug))
  }
  const hasOther = [...rawCounts.keys()].some((name) => !indexOf.has(name))
  if (hasOther) ids.push(pooledAs?.provider ?? "other")
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
  // Regimes and windows hold their trips' indices in `training`, which index the trips' rows.
  const all: Array<Array<number>> = detected.map(() => [])
  training.forEach((t, i) => all[regimeIndex(t)]?.push(i))
  const dateOf = (i: number) => training[i]?.localDate ?? ""
  const recent = options.recent ?? DEFAULT_RECENT
  // Only the regime still in force looks at its recent months (a quote of today is closer to
  // last year's prices than to older ones). A closed regime prices dates of its own past, all
  // of them: its window is its whole span, so a quote for any date of that era (a backtest, a
  // past date) is priced on the whole era rather than on its last months (Chicago 2013–2015:
  // fare ÷ rule drifts 1.10 → 1.06, and its last 1,500 trips priced the era's p50 7.5 points low).
  const groups = all.map((trips, i) => {
    if (i < all.length - 1) return trips
    const last = trips.reduce((d, t) => (dateOf(t) > d ? dateOf(t) : d), "")
    const from = addMonths(last, -recent.months)
    const window = trips.filter((t) => dateOf(t) > from)
    if (window.length >= recent.minRows || window.length === trips.length) return window
    const keyOf = (i: number) => training[i]?.key ?? 0
    return [...trips].sort((a, b) => (dateOf(a) < dateOf(b) ? 1 : dateOf(a) > dateOf(b) ? -1 : keyOf(a) - keyOf(b)))
      .slice(0, recent.minRows)
  })
  const groupTrips = groups.map((g) => g.map((i) => training[i] as ObservedTrip))

  const fees = groupTrips.map(typicalFees)
  // Every training trip as the fit sees it, made once, by its index: the seasonal index reads
  // every trip of each regime, and the regime's rates and spread its recent window again (a
  // map from each trip to its rows cost 5 % of NYC's `market evaluate`).
  const supplied: Array<Row> = []
  const resolved: Array<Row | undefined> = []
  for (const t of training) {
    // The metered part: what the trip paid less its own flat fees (a trip outside the
    // congestion zone paid no congestion surcharge), so the fitted trip is the same whatever
    // fees a tariff charges it; a quote without a tariff adds the regime's typical fees.
    const price = t.price - feeTotalOf(t.fees)
    const time = rowTime(t.hour, t.dayOfWeek)
    const month = t.localDate.slice(0, 7)
    const calendarMonth = calendarMonthOf(month)
    const provider = providerOf(t.provider)
    const route = inferRoute(routeProfile, t.pickup, t.destination, t.hour, routing.areaSpeed)
    supplied.push({ provider, price, km: t.distanceKm, minutes: t.durationMinutes, time, month, calendarMonth })
    resolved.push(
      route.greatCircleKm < MIN_RESOLVABLE_KM
        ? undefined
        : { provider, price, km: route.distanceKm, minutes: route.durationMinutes, time, month, calendarMonth }
    )
  }
  const rowsOf = (trips: ReadonlyArray<number>): RegimeRows => {
    const rows: RegimeRows = { supplied: [], resolved: [] }
    for (const i of trips) {
      const s = supplied[i], r = resolved[i]
      if (s !== undefined) rows.supplied.push(s)
      if (r !== undefined) rows.resolved.push(r)
    }
    return rows
  }
  const allRows = all.map(rowsOf)
  // A closed regime's window is all of it (the same array): its rows as they are.
  const windowRows = groups.map((trips, i) => (trips === all[i] ? allRows[i] as RegimeRows : rowsOf(trips)))
  if (windowRows.reduce((n, r) => n + r.resolved.length, 0) < 50) {
    return Either.left(new FitFailed({ message: "too few trips with distinct pickup and drop-off points to learn routes" }))
  }
  // The month-of-year index (./Seasons.ts), per route source, and each regime's factors.
  const seasonal: Array<{ supplied: Array<number>; resolved: Array<number> }> = detected.map(() => ({ supplied: [], resolved: [] }))
  for (const route of ["supplied", "resolved"] as const) {
    const factors = seasonalFactors(buckets, allRows.map((r) => r[route]), windowRows.map((r) => r[route]))
    if (factors === undefined) {
      return Either.left(new FitFailed({ message: "the base fare regression is singular (too little variety in the trips)" }))
    }
    factors.forEach((f, i) => {
      const target = seasonal[i]
      if (target !== undefined) target[route] = f
    })
  }
  // A regime's rates and spread are fitted on its window with the season taken out.
  const deseasonalised = (rows: ReadonlyArray<Row>, factors: ReadonlyArray<number>): Array<Row> =>
    rows.map((r) => ({ ...r, price: r.price / (factors[r.calendarMonth] ?? 1) }))
  const regimeRows: Array<RegimeRows> = windowRows.map((rows, i) => ({
    supplied: deseasonalised(rows.supplied, seasonal[i]?.supplied ?? []),
    resolved: deseasonalised(rows.resolved, seasonal[i]?.resolved ?? [])
  }))
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
    const feeSum = feeTotalOf(fees[i] ?? {})
    const window = windowSpan(groupTrips[i] ?? [])
    const published = {
      supplied: recalibrate(buckets, levels, fare.supplied, rows.supplied, s.tables, feeSum, seasonal[i]?.supplied ?? []),
      resolved: recalibrate(buckets, levels, fare.resolved, rows.resolved, r.tables, feeSum, seasonal[i]?.resolved ?? [])
    }
    const providers: Array<ProviderResiduals> = ids.map((provider, p) => ({
      provider,
      trainingRows: { supplied: s.counts[p] ?? 0, resolved: r.counts[p] ?? 0 },
      residuals: { supplied: published.supplied[p] ?? [], resolved: published.resolved[p] ?? [] }
    }))
    return {
      effectiveFrom: d.effectiveFrom,
      detectedBy: d.detectedBy,
      fees: fees[i] ?? {},
      seasonal: {
        supplied: (seasonal[i]?.supplied ?? []).map((f) => round(f, 6)),
        resolved: (seasonal[i]?.resolved ?? []).map((f) => round(f, 6))
      },
      trainingRows: rows.supplied.length,
      ...(window === undefined ? {} : { window }),
      routes: fare,
      providers
    }
  })
  const providers: Array<ProviderModel> = ids.map((provider) => ({
    provider,
    serviceLevel: options.serviceLevel,
    ...(pooledAs === undefined ? {} : { product: pooledAs.product })
  }))
  const dates = training.map((t) => t.localDate)

  const model: MarketModel = {
    ...modelHeader(options, training),
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
  // Flat fares and surcharged meters, where the records carry their rate codes (NYC zone files).
  const special = table.specialFares !== undefined && table.zones !== undefined && table.boroughs !== undefined
    ? fitSpecialFares(model, table.specialFares, table.zones, table.boroughs, {
      holdoutFraction: options.holdoutFraction,
      before: options.before
    })
    : undefined
  return Either.right(special === undefined ? model : { ...model, specialFares: special })
}

/** First and last local date of a regime's window. */
const windowSpan = (trips: ReadonlyArray<ObservedTrip>): { from: string; to: string } | undefined => {
  if (trips.length === 0) return undefined
  let from = trips[0]?.localDate ?? "", to = from
  for (const t of trips) {
    if (t.localDate < from) from = t.localDate
    if (t.localDate > to) to = t.localDate
  }
  return { from, to }
}

function round(x: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}
