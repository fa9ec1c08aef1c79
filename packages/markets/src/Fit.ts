/**
 * Fitting a market model from observed trips (method in docs/pricing.md, "Calibrated markets").
 *
 * 1. Deterministic split: a row is held out when the hash of its raw line falls in the
 *    held-out fraction; the fit never sees those rows.
 * 2. Route profile: detour factor = Σ trip km ÷ Σ great-circle km, speed by local hour =
 *    Σ km ÷ Σ hours (ratio-of-sums estimators, so inferred totals match observed totals).
 * 3. For each route source — supplied (the trip's own km and minutes) and resolved (the km
 *    and minutes the route profile infers from the coordinates alone) — a base fare
 *    intercept + a·km + b·min + shift[day part × day type], fitted by Huber-weighted least
 *    squares, and the quantiles of the ratio price ÷ base in each bucket (distance band × day
 *    part × day type). Thin buckets are shrunk toward their distance band, bands toward the
 *    whole market, and each provider toward the market: w = n / (n + k) on the quantile
 *    functions, which keeps them non-decreasing.
 *
 * Fitting the resolved residuals on the inferred route makes their quantiles calibrated for
 * inferred routes by construction: all the extra uncertainty of not knowing the real route
 * shows up as wider residual quantiles.
 */
import { Either, Schema } from "effect"
import type { Coordinates, Currency, MarketId, RouteProfile, ServiceLevel } from "@ridequote/core"
import { boundingBox } from "./Area.js"
import { DEFAULT_BUCKETS, bucketOf, distanceBand, timeBucket } from "./Bucketing.js"
import { baseFare } from "./CalibratedMarket.js"
import { accumulate, normalEquations, solve } from "./LinearModel.js"
import { bucketCount, MODEL_FORMAT, MODEL_VERSION, timeBucketCount } from "./ModelFile.js"
import type { BaseFare, Buckets, MarketModel, ProviderModel } from "./ModelFile.js"
import { blendQuantiles, monotone, QUANTILE_LEVELS, quantilesAt, sampleQuantile } from "./Quantiles.js"
import { inferRoute } from "./RouteInference.js"
import { wallClock } from "./LocalClock.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import { isHeldOut } from "./sources/TripRecords.js"
import type { TripTable } from "./sources/TripRecords.js"
import { DEFAULT_DETOUR_FACTOR, greatCircleKm, PICKUP_DROPOFF_MINUTES } from "@ridequote/core"

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
}

export const DEFAULT_HOLDOUT = { fraction: 0.2, salt: "ridequote-holdout-v1" } as const

/** Shrinkage strengths (pseudo-rows) of each level toward its parent. */
const SHRINK = { band: 30, bucket: 60, provider: 150, speedHour: 50 } as const
/** Pickups and drop-offs farther than this from the market's median pickup are faults. */
export const MARKET_RADIUS_KM = 100
/** Below this great-circle distance a coordinate pair says nothing about the route (same zone). */
export const MIN_RESOLVABLE_KM = 0.2
const AREA_MARGIN_KM = 2

export class FitFailed extends Schema.TaggedError<FitFailed>()("FitFailed", { message: Schema.String }) {}

/** A provider id from a source's name: lower-case words joined by dashes. */
export const providerSlug = (name: string): string =>
  name.toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64)
    .replace(/-+$/g, "") || "other"

const median = (xs: ReadonlyArray<number>): number => sampleQuantile(xs, 0.5)

export const fitRouteProfile = (trips: ReadonlyArray<ObservedTrip>): RouteProfile => {
  let km = 0, gc = 0
  const hourKm = new Array<number>(24).fill(0)
  const hourH = new Array<number>(24).fill(0)
  const hourN = new Array<number>(24).fill(0)
  for (const t of trips) {
    const g = greatCircleKm(t.pickup, t.destination)
    if (g < MIN_RESOLVABLE_KM) continue
    km += t.distanceKm
    gc += g
    hourKm[t.hour] = (hourKm[t.hour] ?? 0) + t.distanceKm
    hourH[t.hour] = (hourH[t.hour] ?? 0) + Math.max(0.1, t.durationMinutes - PICKUP_DROPOFF_MINUTES) / 60
    hourN[t.hour] = (hourN[t.hour] ?? 0) + 1
  }
  const totalH = hourH.reduce((a, b) => a + b, 0)
  // The resolver adds a fixed pickup/drop-off overhead; the speed covers the rest of the time.
  const overall = totalH > 0 ? km / totalH : 20
  const speedKmhByHour = hourKm.map((k, h) => {
    const n = hourN[h] ?? 0
    const own = (hourH[h] ?? 0) > 0 ? k / (hourH[h] ?? 1) : overall
    const w = n / (n + SHRINK.speedHour)
    return round(w * own + (1 - w) * overall, 3)
  })
  // Core's resolver refuses a detour factor below 1 (a road is never shorter than the great circle).
  return { detourFactor: round(Math.max(1, gc > 0 ? km / gc : DEFAULT_DETOUR_FACTOR), 4), speedKmhByHour }
}

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
  providerCount: number
): { tables: Array<Array<Array<number>>>; counts: Array<number> } => {
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
    const ratio = r.price / baseFare(fare, { buckets }, r.km, r.minutes, r.time)
    const b = bucketOf(buckets, r.km, r.time)
    all.push(ratio)
    byBand[distanceBand(buckets, r.km)]?.push(ratio)
    byBucket[b]?.push(ratio)
    byProvider[r.provider]?.[b]?.push(ratio)
    counts[r.provider] = (counts[r.provider] ?? 0) + 1
  }
  const shrunk = (sample: ReadonlyArray<number>, parent: ReadonlyArray<number>, k: number): Array<number> =>
    sample.length === 0 ? [...parent] : blendQuantiles(quantilesAt(sample, levels), parent, sample.length / (sample.length + k))
  const market = quantilesAt(all, levels)
  const bands = byBand.map((s) => shrunk(s, market, SHRINK.band))
  const marketBuckets = byBucket.map((s, b) => shrunk(s, bands[Math.floor(b / nt)] ?? market, SHRINK.bucket))
  const tables = byProvider.map((provider) =>
    provider.map((s, b) => monotone(shrunk(s, marketBuckets[b] ?? market, SHRINK.provider)).map((v) => round(v, 5))))
  return { tables, counts }
}

/** Fits a market model from the training part of a trip table. */
export const fitMarket = (table: TripTable, options: FitOptions): Either.Either<MarketModel, FitFailed> => {
  const buckets = options.buckets ?? DEFAULT_BUCKETS
  const levels = options.levels ?? QUANTILE_LEVELS
  if (table.trips.length === 0) return Either.left(new FitFailed({ message: "no usable trips in the input" }))
  const rejected: Record<string, number> = { ...table.rejected }

  const { kept: local, outside } = marketRows(table.trips)
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

  const routeProfile = fitRouteProfile(training)
  const clockOf = (t: ObservedTrip) => wallClock(t.hour, t.minute, t.dayOfWeek)
  const supplied: Array<Row> = training.map((t) => ({
    provider: providerOf(t.provider),
    price: t.price,
    km: t.distanceKm,
    minutes: t.durationMinutes,
    time: clockOf(t)
  }))
  const resolved: Array<Row> = []
  for (const t of training) {
    const route = inferRoute(routeProfile, t.pickup, t.destination, t.hour)
    if (route.greatCircleKm < MIN_RESOLVABLE_KM) continue
    resolved.push({
      provider: providerOf(t.provider),
      price: t.price,
      km: route.distanceKm,
      minutes: route.durationMinutes,
      time: clockOf(t)
    })
  }
  if (resolved.length < 50) {
    return Either.left(new FitFailed({ message: "too few trips with distinct pickup and drop-off points to learn routes" }))
  }
  const suppliedFare = fitBaseFare(buckets, supplied)
  const resolvedFare = fitBaseFare(buckets, resolved)
  if (suppliedFare === undefined || resolvedFare === undefined) {
    return Either.left(new FitFailed({ message: "the base fare regression is singular (too little variety in the trips)" }))
  }
  const s = residualTables(buckets, levels, suppliedFare, supplied, ids.length)
  const r = residualTables(buckets, levels, resolvedFare, resolved, ids.length)
  const providers: Array<ProviderModel> = ids.map((provider, i) => ({
    provider,
    serviceLevel: options.serviceLevel,
    trainingRows: { supplied: s.counts[i] ?? 0, resolved: r.counts[i] ?? 0 },
    residuals: { supplied: s.tables[i] ?? [], resolved: r.tables[i] ?? [] }
  }))

  const model: MarketModel = {
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
    id: options.id as MarketId,
    name: options.name,
    currency: options.currency as Currency,
    timeZone: options.timeZone,
    area: boundingBox(training.flatMap((t) => [t.pickup, t.destination]), AREA_MARGIN_KM),
    routeProfile,
    buckets,
    quantileLevels: levels,
    routes: { supplied: suppliedFare, resolved: resolvedFare },
    providers,
    provenance: {
      source: options.source,
      inputs: options.inputs,
      rowsRead: table.rowsRead,
      rowsKept: local.length,
      trainingRows: training.length,
      heldOutRows: local.length - training.length,
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
