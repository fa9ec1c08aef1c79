/**
 * Fitting a ride-hail market's place-pair table (`placePairs`; docs/pricing.md, "Ride-hail
 * markets"): for records between named places (Boston's twelve), what each provider's own
 * route distances and prices between two places say beyond the distance model.
 *
 * Per provider × ordered pair of places (all the provider's products together: a pair's
 * traffic and route are the same for an UberX and a Black):
 * - rows: the training records between the two places (a pair needs `MIN_PAIR_ROWS`);
 * - median route km: the providers' own route distance between them (the route of a trip whose
 *   caller sends no distance);
 * - level, per route source: exp(median log(price ÷ m) × n/(n + `PAIR_SHRINK_ROWS`)), m the
 *   product's distance-model median at the row's km (supplied) or at the pair's median km
 *   (resolved). The median resists Lyft's surges; the shrinkage pulls a thin pair back toward
 *   the distance model (level 1).
 * The spread of trips between places is then measured on price ÷ (base × level), each row's
 * level computed without that row (leave-one-out), so the spread carries the error of a
 * level estimated from a few dozen rows, as a new quote meets it.
 */
import type { Coordinates } from "@ridequote/core"
import { baseFare } from "../CalibratedMarket.js"
import { bucketOf } from "../Bucketing.js"
import type { BaseFare, Buckets, PlacePairs } from "../ModelFile.js"
import { placeFinder } from "../PlacePairs.js"
import { interpolateQuantile } from "../Quantiles.js"
import type { ObservedQuote } from "./sources/RideHailQuotes.js"

/**
 * How near a known place a pickup or drop-off must be to count as there (km): Boston's places
 * are named neighbourhoods whose nearest two centres (North End, Haymarket Square) are 0.38 km
 * apart; 300 m keeps a point to one place's doorstep and leaves the rest of the city to the
 * distance model.
 */
export const PLACE_RADIUS_KM = 0.3
/** A provider × pair needs this many training rows to be listed (else the distance model prices it). */
export const MIN_PAIR_ROWS = 10
/** Shrinkage of a pair's level toward 1: w = n/(n + this). */
export const PAIR_SHRINK_ROWS = 10

/** A named place: `[name, latitude, longitude]`. */
export type Place = readonly [name: string, latitude: number, longitude: number]

/** One priced product of the fit: its training rows, its supplied base fare and residual table (per bucket). */
export interface PairProduct {
  readonly rows: ReadonlyArray<ObservedQuote>
  readonly fare: BaseFare
  readonly residuals: ReadonlyArray<ReadonlyArray<number>>
}

/** The pair table without its spreads, and each product's rows to measure them on (`bandSpread`). */
export interface PairFit {
  readonly table: Omit<PlacePairs, "spreads">
  readonly spreadRows: ReadonlyArray<{
    readonly supplied: ReadonlyArray<{ km: number; price: number; scale: number }>
    readonly resolved: ReadonlyArray<{ km: number; price: number; scale: number }>
  }>
}

const NOON = { hour: 12, dayType: "weekday" } as const

const round = (x: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/** Median of an ascending array (NaN when empty). */
const medianOf = (sorted: ReadonlyArray<number>): number => {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const mid = n >> 1
  return n % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/** Median of an ascending array without one occurrence of `value` (which it holds). */
const medianWithout = (sorted: ReadonlyArray<number>, value: number): number => {
  const skip = sorted.indexOf(value)
  const at = (j: number) => sorted[j < skip ? j : j + 1] ?? Number.NaN
  const m = sorted.length - 1
  if (m <= 0) return 0
  const mid = m >> 1
  return m % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2
}

/** Level from the median log ratio of n rows, shrunk toward 1. */
const shrunkLevel = (medianLog: number, n: number): number => Math.exp((medianLog * n) / (n + PAIR_SHRINK_ROWS))

/**
 * The place-pair table of a ride-hail fit; undefined when no provider has `MIN_PAIR_ROWS`
 * training rows between two places.
 */
export const fitPlacePairs = (
  places: ReadonlyArray<Place>,
  radiusKm: number,
  buckets: Buckets,
  levels: ReadonlyArray<number>,
  products: ReadonlyArray<PairProduct>
): PairFit | undefined => {
  const placeOf = placeFinder(places, radiusKm)
  const n = places.length
  // The distance model's median for a product at a km (supplied fare and spread).
  const medianAt = (p: PairProduct, km: number): number =>
    baseFare(p.fare, { buckets }, km, 0, NOON) * interpolateQuantile(levels, p.residuals[bucketOf(buckets, km, NOON)] ?? [], 0.5)
  const pairKey = (pickup: Coordinates, destination: Coordinates): number | undefined => {
    const from = placeOf(pickup), to = placeOf(destination)
    // Both ends at one place (or too close to tell apart) are not a pair.
    return from === undefined || to === undefined || from === to ? undefined : from * n + to
  }
  interface Row { readonly product: number; readonly quote: ObservedQuote }
  const groups = new Map<string, Array<Row>>()
  products.forEach((p, product) => {
    for (const quote of p.rows) {
      const key = pairKey(quote.pickup, quote.destination)
      if (key === undefined) continue
      const id = `${quote.provider}\u0000${key}`
      const list = groups.get(id)
      if (list === undefined) groups.set(id, [{ product, quote }])
      else list.push({ product, quote })
    }
  })
  const pairs: Record<string, Array<readonly [number, number, number, number, number, number]>> = {}
  const spreadRows = products.map(() => ({
    supplied: [] as Array<{ km: number; price: number; scale: number }>,
    resolved: [] as Array<{ km: number; price: number; scale: number }>
  }))
  for (const [id, rows] of groups) {
    if (rows.length < MIN_PAIR_ROWS) continue
    const [provider = "", keyText = ""] = id.split("\u0000")
    const key = Number(keyText)
    const km = round(medianOf(Array.from(Float64Array.from(rows.map((r) => r.quote.distanceKm)).sort())), 3)
    const centre = {
      supplied: (r: Row) => medianAt(products[r.product] as PairProduct, r.quote.distanceKm),
      resolved: (r: Row) => medianAt(products[r.product] as PairProduct, km)
    }
    const level = { supplied: 1, resolved: 1 }
    for (const route of ["supplied", "resolved"] as const) {
      const logs = rows.map((r) => Math.log(r.quote.price / centre[route](r)))
      const sorted = Array.from(Float64Array.from(logs).sort())
      level[route] = round(shrunkLevel(medianOf(sorted), rows.length), 4)
      rows.forEach((r, j) => {
        const loo = shrunkLevel(medianWithout(sorted, logs[j] ?? 0), rows.length - 1)
        spreadRows[r.product]?.[route].push({ km: route === "supplied" ? r.quote.distanceKm : km, price: r.quote.price, scale: loo })
      })
    }
    ;(pairs[provider] ??= []).push([Math.floor(key / n), key % n, rows.length, km, level.supplied, level.resolved])
  }
  const providers = Object.keys(pairs).sort()
  if (providers.length === 0) return undefined
  return {
    table: {
      radiusKm,
      places: places.map(([name, lat, lon]) => [name, lat, lon] as const),
      pairs: Object.fromEntries(providers.map((p) => [p, (pairs[p] ?? []).sort((a, b) => a[0] - b[0] || a[1] - b[1])]))
    },
    spreadRows
  }
}
