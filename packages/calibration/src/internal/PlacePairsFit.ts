/**
 * Fitting a ride-hail market's place-pair table (`placePairs`; docs/calibration.md, "Ride-hail
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
 *
 * Per provider × pair × route (the route distance the provider reported, to the metre): the
 * route's deviation from the pair's level, D =
 * median log(price ÷ (m × level)) over its rows × r/(r + `ROUTE_SHRINK_REQUESTS`) with r its
 * requests, and per product the route level = level × exp(β · D). β is the product's
 * elasticity to its provider's routes: the least-squares slope, over every route, of the
 * product's own median deviation on the route against the route's (all products, unshrunk),
 * never below 0. A budget product follows a slow route's time in full (UberX β ≈ 1.1); a Black
 * SUV, whose price is mostly its base, half as much.
 *
 * The spread of trips between places is then measured on price ÷ (base × level), each row's
 * levels computed without the rows of its own request (leave one request out: one call's
 * products share its moment), so the spread carries the error of levels estimated from a few
 * dozen other quotes, as a new quote meets them.
 */
import type { Coordinates } from "@ridequote/core"
import { baseFare, bucketOf, interpolateQuantile, placeFinder } from "@ridequote/markets/model"
import type { BaseFare, Buckets, PlacePairs } from "@ridequote/markets/model"
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
export const PAIR_SHRINK_ROWS = 30
/**
 * A provider's route between two places is listed once this many requests (price-estimate
 * calls, told apart by their split key) reported its distance; a route seen in few is shrunk
 * toward its pair (`ROUTE_SHRINK_REQUESTS`): one call is one moment of the route.
 */
export const MIN_ROUTE_REQUESTS = 1
/** Shrinkage of a route's deviation from its pair's level toward 0: w = r/(r + this), r its requests. */
export const ROUTE_SHRINK_REQUESTS = 10

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
  /** Each product's elasticity to its provider's routes (β), in the market's order. */
  readonly routeElasticity: ReadonlyArray<number>
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

/** Median of an unsorted sample (NaN when empty). */
const median = (xs: ReadonlyArray<number>): number => medianOf(Array.from(Float64Array.from(xs).sort()))

/** Level from the median log ratio of n rows, shrunk toward 1. */
const shrunkLevel = (medianLog: number, n: number): number => Math.exp((medianLog * n) / (n + PAIR_SHRINK_ROWS))

/** One row between two places: its product, its request (split key) and its log ratio to the distance model. */
export interface PairRow {
  readonly product: number
  readonly request: number
  readonly log: number
}

/** A provider's route between two places: the distance it reported (to the metre), the indices of its rows and their supplied sample. */
interface Route {
  readonly km: number
  readonly rows: ReadonlyArray<number>
  readonly sample: CallOut
}

/**
 * What is left of a sample of rows when one call's rows are taken out: their count, the
 * calls', and the median of the rest's logs less `shift` (NaN when none is left).
 */
interface Rest {
  readonly rows: number
  readonly calls: number
  readonly median: number
}

/**
 * A sample of rows kept sorted once, to read its median with any one call's rows left out in
 * O(m) (m that call's rows; `without(undefined, …)` leaves none out). Sorting the rest again
 * for every row made the leave-one-call-out spread quadratic in a pair's rows: 1.2 s for
 * Boston's 6,911 quotes, 94 s for ten times as many. The medians are the same numbers as
 * sorting the rest would give: the same order statistics, shifted and averaged alike.
 */
export const callOut = (rows: ReadonlyArray<PairRow>) => {
  const order = rows.map((_, i) => i).sort((a, b) => (rows[a]?.log ?? 0) - (rows[b]?.log ?? 0))
  const sorted = Float64Array.from(order, (i) => rows[i]?.log ?? Number.NaN)
  // Each call's ranks in `sorted`, ascending.
  const ranks = new Map<number, Array<number>>()
  order.forEach((i, rank) => {
    const request = rows[i]?.request ?? 0
    const list = ranks.get(request)
    if (list === undefined) ranks.set(request, [rank])
    else list.push(rank)
  })
  for (const list of ranks.values()) list.sort((a, b) => a - b)
  return (without: number | undefined, shift: number): Rest => {
    const out = without === undefined ? [] : (ranks.get(without) ?? [])
    const n = sorted.length - out.length
    // The t-th smallest of the rest: t plus each left-out rank at or before it.
    const nth = (t: number): number => {
      let p = t
      for (const r of out) if (r <= p) p++
      return (sorted[p] ?? Number.NaN) - shift
    }
    const mid = n >> 1
    const median = n === 0 ? Number.NaN : n % 2 === 1 ? nth(mid) : (nth(mid - 1) + nth(mid)) / 2
    return { rows: n, calls: ranks.size - (out.length > 0 ? 1 : 0), median }
  }
}

/** A sample's `callOut`. */
type CallOut = ReturnType<typeof callOut>

/**
 * A route's log deviation from its pair's level (`pairLog`), from its rows (those of call
 * `without` left out), shrunk by its calls (`shrink` pseudo-calls); undefined when the route
 * was seen in fewer than `MIN_ROUTE_REQUESTS` calls.
 */
const routeDeviation = (route: CallOut, pairLog: number, shrink: number, without?: number): number | undefined => {
  const kept = route(without, pairLog)
  if (kept.calls < MIN_ROUTE_REQUESTS) return undefined
  return (kept.median * kept.calls) / (kept.calls + shrink)
}

/** A provider × pair with enough rows: its key, rows, median route km, levels and routes. */
interface PairGroup {
  readonly provider: string
  readonly key: number
  readonly km: number
  readonly quotes: ReadonlyArray<{ readonly product: number; readonly quote: ObservedQuote }>
  readonly rows: { readonly supplied: ReadonlyArray<PairRow>; readonly resolved: ReadonlyArray<PairRow> }
  readonly level: { readonly supplied: number; readonly resolved: number }
  readonly routes: ReadonlyArray<Route>
}

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
  const byPair = new Map<string, Array<{ readonly product: number; readonly quote: ObservedQuote }>>()
  products.forEach((p, product) => {
    for (const quote of p.rows) {
      const key = pairKey(quote.pickup, quote.destination)
      if (key === undefined) continue
      const id = `${quote.provider}\u0000${key}`
      const list = byPair.get(id)
      if (list === undefined) byPair.set(id, [{ product, quote }])
      else list.push({ product, quote })
    }
  })

  // Pass 1: each provider × pair's median route km, levels and routes.
  const groups: Array<PairGroup> = []
  for (const [id, quotes] of byPair) {
    if (quotes.length < MIN_PAIR_ROWS) continue
    const [provider = "", keyText = ""] = id.split("\u0000")
    const km = round(median(quotes.map((r) => r.quote.distanceKm)), 3)
    const rowsAt = (kmOf: (q: ObservedQuote) => number): Array<PairRow> =>
      quotes.map(({ product, quote }) => ({
        product,
        request: quote.key,
        log: Math.log(quote.price / medianAt(products[product] as PairProduct, kmOf(quote)))
      }))
    const rows = { supplied: rowsAt((q) => q.distanceKm), resolved: rowsAt(() => km) }
    const levelOf = (r: ReadonlyArray<PairRow>) => round(shrunkLevel(median(r.map((x) => x.log)), r.length), 4)
    const byKm = new Map<number, Array<number>>()
    quotes.forEach(({ quote }, j) => {
      const routeKm = round(quote.distanceKm, 3)
      const list = byKm.get(routeKm)
      if (list === undefined) byKm.set(routeKm, [j])
      else list.push(j)
    })
    groups.push({
      provider,
      key: Number(keyText),
      km,
      quotes,
      rows,
      level: { supplied: levelOf(rows.supplied), resolved: levelOf(rows.resolved) },
      routes: [...byKm]
        .map(([km, rowsOf]): Route => ({ km, rows: rowsOf, sample: callOut(rowsOf.map((j) => rows.supplied[j] as PairRow)) }))
        .sort((a, b) => a.km - b.km)
    })
  }
  if (groups.length === 0) return undefined

  // Each product's elasticity to its provider's routes: its own median deviation on a route
  // against the route's (all products), weighted by its rows there.
  const moments = products.map(() => ({ xy: 0, xx: 0 }))
  for (const g of groups) {
    const pairLog = Math.log(g.level.supplied)
    for (const route of g.routes) {
      const rows = route.rows.map((j) => g.rows.supplied[j] as PairRow)
      const d = routeDeviation(route.sample, pairLog, 0)
      if (d === undefined) continue
      const byProduct = new Map<number, Array<number>>()
      for (const r of rows) {
        const logs = byProduct.get(r.product)
        if (logs === undefined) byProduct.set(r.product, [r.log - pairLog])
        else logs.push(r.log - pairLog)
      }
      for (const [product, logs] of byProduct) {
        const m = moments[product]
        if (m !== undefined) (m.xy += logs.length * median(logs) * d, m.xx += logs.length * d * d)
      }
    }
  }
  const elasticity = moments.map((m) => (m.xx > 0 ? Math.max(0, m.xy / m.xx) : 1))

  // Pass 2: the table (each product's route levels) and the rows to measure the spreads on.
  const pairs: Record<string, Array<readonly [number, number, number, number, number, number]>> = {}
  const routes: Array<Array<readonly [number, number, number, number, number]>> = products.map(() => [])
  const spreadRows = products.map(() => ({
    supplied: [] as Array<{ km: number; price: number; scale: number }>,
    resolved: [] as Array<{ km: number; price: number; scale: number }>
  }))
  for (const g of groups) {
    const [from, to] = [Math.floor(g.key / n), g.key % n]
    ;(pairs[g.provider] ??= []).push([from, to, g.quotes.length, g.km, g.level.supplied, g.level.resolved])
    const pairLog = Math.log(g.level.supplied)
    const mine = products.flatMap((p, i) => (p.rows[0]?.provider === g.provider ? [i] : []))
    const routeOf = new Map<number, CallOut>()
    for (const route of g.routes) {
      for (const j of route.rows) routeOf.set(j, route.sample)
      const d = routeDeviation(route.sample, pairLog, ROUTE_SHRINK_REQUESTS)
      if (d === undefined) continue
      for (const product of mine) {
        routes[product]?.push([from, to, route.km, route.sample(undefined, 0).calls, round(Math.exp(pairLog + (elasticity[product] ?? 1) * d), 4)])
      }
    }
    for (const source of ["supplied", "resolved"] as const) {
      const rows = g.rows[source]
      const pair = callOut(rows)
      rows.forEach((r, j) => {
        // The row's level as a new request meets it: without its own request's rows.
        const others = pair(r.request, 0)
        const looLog = others.rows === 0 ? 0 : Math.log(shrunkLevel(others.median, others.rows))
        const route = routeOf.get(j)
        const onRoute = source === "supplied" && route !== undefined ? routeDeviation(route, looLog, ROUTE_SHRINK_REQUESTS, r.request) : undefined
        const quote = g.quotes[j]?.quote
        if (quote === undefined) return
        spreadRows[r.product]?.[source].push({
          km: source === "supplied" ? quote.distanceKm : g.km,
          price: quote.price,
          scale: Math.exp(looLog + (onRoute === undefined ? 0 : (elasticity[r.product] ?? 1) * onRoute))
        })
      })
    }
  }
  const providers = Object.keys(pairs).sort()
  return {
    table: {
      radiusKm,
      places: places.map(([name, lat, lon]) => [name, lat, lon] as const),
      pairs: Object.fromEntries(providers.map((p) => [p, (pairs[p] ?? []).sort((a, b) => a[0] - b[0] || a[1] - b[1])])),
      ...(routes.every((r) => r.length === 0) ? {} : { routes: routes.map((r) => r.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])) })
    },
    spreadRows,
    routeElasticity: elasticity.map((b) => round(b, 3))
  }
}
