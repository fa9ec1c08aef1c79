/**
 * Fitting a ride-hail market from price records (quotes or trips) of its providers' products
 * (method in docs/calibration.md, "Ride-hail markets").
 *
 * Ride-hail records such as the Boston Uber/Lyft quotes carry a price, the provider's route
 * distance and where the ride goes, but no usable time (a spreadsheet rounded it away) and no
 * duration. So each product (provider × service level) is priced as a function of the route
 * distance alone:
 *
 *   price(q) = base(km) × R_band(q),   base(km) = max(floor, intercept + perKm·km)
 *
 * 1. base: Huber-weighted least squares of price on km (perKm ≥ 0), per product and route
 *    source (supplied: the provider's own route distance; resolved: the distance the offline
 *    resolver infers from the coordinates, with the detour factor learned from these records).
 * 2. R: the quantiles of price ÷ base in distance bands, each band shrunk toward the product's
 *    all-band quantiles (w = n/(n+30)). Surge (Lyft's multiplier, Uber's inside its price) is
 *    not divided out: it is part of the spread a rider meets.
 * 3. Recalibration for the published price (cents; prices on a $0.50 grid tie with it), as
 *    for the taxi markets, shrunk by n/(n+200).
 *
 * The result is an ordinary version-3 market model (one regime, no fees, no season), each
 * provider with its own base fare (`routes`), its product name and the period of its records.
 */
import { Either } from "effect"
import { greatCircleKm, SAMPLE_ROUTE_PROFILE, SERVICE_LEVELS } from "@ridequote/core"
import type { MarketId } from "@ridequote/core"
import { MIN_RESOLVABLE_KM } from "@ridequote/routes"
import {
  baseFare,
  blendQuantiles,
  distanceBand,
  interpolateQuantile,
  monotone,
  QUANTILE_LEVELS,
  quantilesAt,
  sampleQuantile
} from "@ridequote/markets/model"
import type {
  BaseFare,
  Buckets,
  MarketModel,
  PlacePairs,
  ProviderModel,
  ProviderResiduals,
  Regime
} from "@ridequote/markets/model"
import { FitFailed, modelHeader } from "./Fit.js"
import type { MarketFitBase } from "./Fit.js"
import { accumulate, normalEquations, solveNonNegative } from "./LinearModel.js"
import { fitPlacePairs, PLACE_RADIUS_KM } from "./PlacePairsFit.js"
import type { Place } from "./PlacePairsFit.js"
import { inferRoute } from "./RouteInference.js"
import { firstCoveringPoint, RECALIBRATION_GRID, rereadLevels } from "./Recalibration.js"
import type { ObservedQuote, QuoteTable } from "./sources/RideHailQuotes.js"
import { isHeldOut } from "./sources/TripRecords.js"

/**
 * What `fitRideHail` needs besides the records: the market's id, name, time zone and currency,
 * where the records came from, the held-out share and its salt, and what the records are.
 */
export interface RideHailFitOptions extends MarketFitBase {
  /** What the records are: price quotes shown before a ride, or completed trips. */
  readonly recordKind: "quotes" | "trips"
  /**
   * The period the records' source documents (local dates), for records whose timestamps are
   * rounded or absent: each provider's period is what its timestamps allow, within this one.
   */
  readonly period?: { readonly from: string; readonly to: string }
  readonly notes?: ReadonlyArray<string>
  /** The market whose quotes these providers join (its id): one market, that market's area and routes. */
  readonly joins?: string
  readonly buckets?: Buckets
  readonly levels?: ReadonlyArray<number>
  /** Train on these rows instead of the ones the hash split keeps (cross-validation). */
  readonly train?: (q: ObservedQuote) => boolean
  /**
   * The named places the records run between (`--places`): with them, the fit adds a
   * place-pair table (`placePairs`) for trips between two of them.
   */
  readonly places?: ReadonlyArray<Place>
  /** How near a place a trip's end must be to count as there (km); default `PLACE_RADIUS_KM`. */
  readonly placeRadiusKm?: number
}

/** Distance bands of the spread (km); no day parts: the records have no usable time. */
export const RIDE_HAIL_BUCKETS: Buckets = { distanceBandsKm: [2, 4, 7], dayPartStartHours: [0] }
/** A product needs this many training rows to be priced. */
export const MIN_PRODUCT_ROWS = 30
const SHRINK_BAND = 30
const RECALIBRATION_SHRINK = 200
/** Quotes carry no time: the hour the resolver is asked for (distance does not depend on it). */
const NOON = { hour: 12, dayType: "weekday" } as const

interface Row {
  readonly km: number
  readonly price: number
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/** Huber-weighted least squares of price on km, perKm ≥ 0; undefined when singular. */
const fitLine = (rows: ReadonlyArray<Row>, nt: number): BaseFare | undefined => {
  const weights = new Float64Array(rows.length).fill(1)
  let beta: Array<number> | undefined
  for (let iter = 0; iter < 6; iter++) {
    const eq = normalEquations(2)
    rows.forEach((r, i) => accumulate(eq, [1, r.km], r.price, weights[i] ?? 1))
    beta = solveNonNegative(eq, [false, true])
    if (beta === undefined) return undefined
    const [a, b] = [beta[0] ?? 0, beta[1] ?? 0]
    const resid = rows.map((r) => r.price - a - b * r.km)
    const scale = 1.4826 * sampleQuantile(resid.map(Math.abs), 0.5) || 1
    const k = 1.345 * scale
    resid.forEach((e, i) => (weights[i] = Math.abs(e) <= k ? 1 : k / Math.abs(e)))
  }
  if (beta === undefined) return undefined
  const floor = Math.max(0.01, sampleQuantile(rows.map((r) => r.price), 0.01) || 0.01)
  return {
    intercept: round(beta[0] ?? 0, 6),
    perKm: round(beta[1] ?? 0, 6),
    perMinute: 0,
    speedKnotsKmh: [],
    perKnotKm: [],
    timeShift: new Array<number>(nt).fill(0),
    floor: round(floor, 4)
  }
}

const TIME = NOON

/** A training row of a spread: the price, the km its base fare is read at and a factor on that base (1: none). */
export interface SpreadRow {
  readonly km: number
  readonly price: number
  readonly scale?: number
}

/**
 * One product's spread, one row per distance band: the quantiles of price ÷ (base(km) × scale)
 * in each band, shrunk toward the all-band quantiles, recalibrated for the published price.
 */
export const bandSpread = (
  buckets: Buckets,
  levels: ReadonlyArray<number>,
  fare: BaseFare,
  rows: ReadonlyArray<SpreadRow>
): Array<Array<number>> => {
  const nBands = buckets.distanceBandsKm.length + 1
  const baseOf = (r: SpreadRow) => baseFare(fare, { buckets }, r.km, 0, TIME) * (r.scale ?? 1)
  const ratio = (r: SpreadRow) => Math.max(0, r.price / baseOf(r))
  const byBand: Array<Array<number>> = Array.from({ length: nBands }, () => [])
  for (const r of rows) byBand[distanceBand(buckets, r.km)]?.push(ratio(r))
  const all = quantilesAt(rows.map(ratio), levels)
  const bands = byBand.map((s) =>
    s.length === 0 ? [...all] : monotone(blendQuantiles(quantilesAt(s, levels), all, s.length / (s.length + SHRINK_BAND)))
  )
  // Published-price recalibration (see Fit.ts, `recalibrate`): re-read each level where the
  // in-sample share of prices at or below the cent-rounded percentile reaches it.
  const published = (r: SpreadRow, q: number) => {
    const row = bands[distanceBand(buckets, r.km)] ?? all
    return Math.round(Math.max(0, baseOf(r) * interpolateQuantile(levels, row, q)) * 100) / 100
  }
  // published(r, q) is non-decreasing in q: each row's first grid point at or above its price,
  // then a running sum (a market of hundreds of thousands of quotes fits in seconds).
  const firstAbove = new Array<number>(RECALIBRATION_GRID.length + 1).fill(0)
  for (const r of rows) {
    const lo = firstCoveringPoint(RECALIBRATION_GRID.length, (g) => r.price <= published(r, RECALIBRATION_GRID[g] ?? 1))
    firstAbove[lo] = (firstAbove[lo] ?? 0) + 1
  }
  let below = 0
  const coverage = RECALIBRATION_GRID.map((_, g) => (below += firstAbove[g] ?? 0) / Math.max(1, rows.length))
  const w = rows.length / (rows.length + RECALIBRATION_SHRINK)
  const reread = rereadLevels(levels, coverage, w)
  return bands.map((row) => monotone(reread.map((q) => interpolateQuantile(levels, row, q))).map((v) => round(v, 5)))
}

/** One product's spread table: the band rows, each repeated for every time bucket. */
const spreadTable = (
  buckets: Buckets,
  levels: ReadonlyArray<number>,
  fare: BaseFare,
  rows: ReadonlyArray<SpreadRow>
): Array<Array<number>> => {
  const nt = buckets.dayPartStartHours.length * 2
  return bandSpread(buckets, levels, fare, rows).flatMap((row) => Array.from({ length: nt }, () => [...row]))
}

/** Local date `YYYY-MM-DD` of an instant in a time zone. */
const localDate = (timeZone: string) => {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
  return (epochMillis: number): string => format.format(new Date(epochMillis))
}

/** Timestamps known to within a day date the records; coarser ones only when there are no others. */
const DAY_MS = 86_400_000

/**
 * The period a provider's records cover: what their timestamps allow (the ones known to within
 * a day when there are any: a spreadsheet rounded some to three digits, ± 58 days), within
 * the documented period.
 */
const recordsPeriod = (
  quotes: ReadonlyArray<ObservedQuote>,
  timeZone: string,
  period: RideHailFitOptions["period"]
): { from: string; to: string } | undefined => {
  const toDate = localDate(timeZone)
  const timed = quotes.flatMap((q) => (q.time === undefined ? [] : [q.time]))
  const precise = timed.filter((t) => t.to - t.from <= DAY_MS)
  let from: string | undefined, to: string | undefined
  for (const t of precise.length > 0 ? precise : timed) {
    const a = toDate(t.from), b = toDate(t.to)
    if (from === undefined || a < from) from = a
    if (to === undefined || b > to) to = b
  }
  if (period === undefined) return from === undefined || to === undefined ? undefined : { from, to }
  const clippedFrom = from === undefined || from < period.from || from > period.to ? period.from : from
  const clippedTo = to === undefined || to > period.to || to < clippedFrom ? period.to : to
  return { from: clippedFrom, to: clippedTo }
}

/** Fits a ride-hail market model from the training rows of a quote table. */
export const fitRideHailMarket = (table: QuoteTable, options: RideHailFitOptions): Either.Either<MarketModel, FitFailed> => {
  const buckets = options.buckets ?? RIDE_HAIL_BUCKETS
  const levels = options.levels ?? QUANTILE_LEVELS
  const nt = buckets.dayPartStartHours.length * 2
  const train = options.train ?? ((q: ObservedQuote) => !isHeldOut(q.key, options.holdoutFraction))
  const training = table.quotes.filter(train)
  if (training.length < MIN_PRODUCT_ROWS) {
    return Either.left(new FitFailed({ message: `only ${training.length} training rows after filters; need at least ${MIN_PRODUCT_ROWS}` }))
  }
  // Roads: the detour factor of the providers' route distances over the great circle.
  let km = 0, gc = 0
  for (const q of training) {
    const g = greatCircleKm(q.pickup, q.destination)
    if (g < MIN_RESOLVABLE_KM) continue
    km += q.distanceKm
    gc += g
  }
  if (!(gc > 0)) return Either.left(new FitFailed({ message: "no record has distinct pickup and drop-off points" }))
  // Durations are not in the records: the route's minutes come from the sample profile's speeds.
  const routeProfile = { detourFactor: round(Math.max(1, km / gc), 4), speedKmhByHour: [...SAMPLE_ROUTE_PROFILE.speedKmhByHour] }

  // Products: provider × service level, providers in name order, levels in vocabulary order.
  const groups = new Map<string, Array<ObservedQuote>>()
  for (const q of training) {
    const key = `${q.provider}/${q.serviceLevel}`
    const list = groups.get(key)
    if (list === undefined) groups.set(key, [q])
    else list.push(q)
  }
  const notes = [...(options.notes ?? [])]
  const products = [...groups.entries()]
    .filter(([key, rows]) => {
      if (rows.length >= MIN_PRODUCT_ROWS) return true
      notes.push(`${key}: ${rows.length} training rows, fewer than ${MIN_PRODUCT_ROWS}; not priced`)
      return false
    })
    .map(([, rows]) => rows)
    .sort((a, b) => {
      const [x, y] = [a[0] as ObservedQuote, b[0] as ObservedQuote]
      return x.provider < y.provider ? -1 : x.provider > y.provider ? 1 :
        SERVICE_LEVELS.indexOf(x.serviceLevel) - SERVICE_LEVELS.indexOf(y.serviceLevel)
    })
  if (products.length === 0) return Either.left(new FitFailed({ message: "no product has enough training rows" }))

  const resolvedKm = (q: ObservedQuote): number | undefined => {
    const r = inferRoute(routeProfile, q.pickup, q.destination, NOON.hour)
    return r.greatCircleKm < MIN_RESOLVABLE_KM ? undefined : r.distanceKm
  }
  const rowsOf = (rows: ReadonlyArray<ObservedQuote>) => ({
    supplied: rows.map((q) => ({ km: q.distanceKm, price: q.price })),
    resolved: rows.flatMap((q) => {
      const k = resolvedKm(q)
      return k === undefined ? [] : [{ km: k, price: q.price }]
    })
  })
  const reference = rowsOf(training)
  const referenceFare = { supplied: fitLine(reference.supplied, nt), resolved: fitLine(reference.resolved, nt) }
  if (referenceFare.supplied === undefined || referenceFare.resolved === undefined) {
    return Either.left(new FitFailed({ message: "the base fare regression is singular (too little variety in the distances)" }))
  }
  const providerModels: Array<ProviderModel> = []
  const residuals: Array<ProviderResiduals> = []
  for (const rows of products) {
    const first = rows[0] as ObservedQuote
    const r = rowsOf(rows)
    const supplied = fitLine(r.supplied, nt), resolved = fitLine(r.resolved, nt)
    if (supplied === undefined || resolved === undefined || r.resolved.length < MIN_PRODUCT_ROWS) {
      return Either.left(new FitFailed({ message: `${first.provider}/${first.serviceLevel}: too little variety in the distances` }))
    }
    // The name riders see: the product's most frequent spelling in the records.
    const names = new Map<string, number>()
    for (const q of rows) names.set(q.product, (names.get(q.product) ?? 0) + 1)
    const product = [...names.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? first.product
    const period = recordsPeriod(rows, options.timeZone, options.period)
    providerModels.push({
      provider: first.provider,
      serviceLevel: first.serviceLevel,
      product,
      ...(period === undefined ? {} : { records: { kind: options.recordKind, ...period } })
    })
    residuals.push({
      provider: first.provider,
      trainingRows: { supplied: r.supplied.length, resolved: r.resolved.length },
      residuals: {
        supplied: spreadTable(buckets, levels, supplied, r.supplied),
        resolved: spreadTable(buckets, levels, resolved, r.resolved)
      },
      routes: { supplied, resolved }
    })
  }
  const marketFare: BaseFare = referenceFare.supplied
  const pairFit = options.places === undefined ? undefined : fitPlacePairs(
    options.places,
    options.placeRadiusKm ?? PLACE_RADIUS_KM,
    buckets,
    levels,
    products.map((rows, i) => {
      const own = residuals[i]
      return { rows, fare: own?.routes?.supplied ?? marketFare, residuals: own?.residuals.supplied ?? [] }
    })
  )
  const placePairs: PlacePairs | undefined = pairFit === undefined ? undefined : {
    ...pairFit.table,
    // A product with too few rows between places keeps its distance spread there.
    spreads: residuals.map((own, i) => {
      const rows = pairFit.spreadRows[i]
      const fare = own.routes?.supplied ?? marketFare
      const distanceSpread = () => own.residuals.supplied.filter((_, b) => b % nt === 0)
      return {
        supplied: rows !== undefined && rows.supplied.length >= MIN_PRODUCT_ROWS ? bandSpread(buckets, levels, fare, rows.supplied) : distanceSpread(),
        resolved: rows !== undefined && rows.resolved.length >= MIN_PRODUCT_ROWS ? bandSpread(buckets, levels, fare, rows.resolved) : distanceSpread()
      }
    })
  }
  if (pairFit !== undefined && pairFit.table.routes !== undefined) {
    notes.push(`place pairs: each product's elasticity to its provider's routes (β): ${
      providerModels.map((p, i) => `${p.provider}/${p.serviceLevel} ${pairFit.routeElasticity[i] ?? 1}`).join(", ")
    }`)
  }
  const span = recordsPeriod(training, options.timeZone, options.period)
  if (span === undefined) {
    return Either.left(new FitFailed({
      message: "the records have no usable timestamps: pass --period FROM..TO (the local dates their source documents)"
    }))
  }
  const regime: Regime = {
    effectiveFrom: span.from,
    detectedBy: [`${options.recordKind} ${span.from} – ${span.to}`],
    fees: {},
    seasonal: { supplied: new Array<number>(12).fill(1), resolved: new Array<number>(12).fill(1) },
    trainingRows: training.length,
    routes: { supplied: referenceFare.supplied, resolved: referenceFare.resolved },
    providers: residuals
  }
  const grid = { cellLatitude: 0.01797, cellLongitude: 0.02425 }
  const model: MarketModel = {
    ...modelHeader(options, training),
    routeProfile,
    routing: { areaSpeed: { ...grid, factors: {} }, odCells: { ...grid, minTrips: 8, pairs: [] } },
    buckets,
    quantileLevels: levels,
    providers: providerModels,
    regimes: [regime],
    ...(options.joins === undefined ? {} : { joins: options.joins as MarketId }),
    ...(placePairs === undefined ? {} : { placePairs }),
    provenance: {
      source: options.source,
      inputs: options.inputs,
      rowsRead: table.rowsRead,
      rowsKept: table.quotes.length,
      trainingRows: training.length,
      heldOutRows: table.quotes.length - training.length,
      trainingSpan: span,
      holdout: { fraction: options.holdoutFraction, salt: options.salt },
      rejected: Object.fromEntries(Object.entries(table.rejected).sort(([a], [b]) => (a < b ? -1 : 1))),
      notes
    }
  }
  return Either.right(model)
}
