/**
 * Trips between known places, priced on what the providers' own route distances and prices
 * between those places say (a model's optional `placePairs`; docs/pricing.md, "Ride-hail
 * markets"). A trip is between two places when each end is within the table's radius of a
 * place (the nearest one) and the two places differ. For a provider with a row for that pair,
 * its price is the distance model's supplied base fare at the trip's km (the caller's, else the
 * pair's median route km), times a level, times the product's spread for trips between places.
 * The level is the product's on the provider's own route when the caller's distance is one of
 * them (`routes`), else the pair's; anything else is priced by the distance model alone.
 */
import type { Coordinates } from "@ridequote/core"
import { distanceBand } from "./Bucketing.js"
import type { MarketModel } from "./ModelFile.js"

/** Route sources, as `CalibratedMarket.RouteKind` (not imported: that module imports this one). */
type Route = "supplied" | "resolved"

/** How one provider prices one trip between two known places (the distance model's supplied fare). */
export interface PairPrice {
  /** The km the base fare is read at: the caller's (supplied), else the pair's median route km. */
  readonly km: number
  /** The pair's price over the distance model's median (shrunk toward 1 by its rows). */
  readonly level: number
  /** Ratio quantiles at the model's levels: price ÷ (base × level) for trips between places. */
  readonly spread: ReadonlyArray<number>
}

/** How near a supplied distance must be to a provider's route between two places to be on it (km). */
export const ROUTE_MATCH_KM = 0.008

/** Kilometres per degree of latitude on the mean Earth radius (6371.0088 km). */
const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180

/**
 * The place a point is at: the nearest of `places` (`[name, latitude, longitude]`) within
 * `radiusKm`, else undefined. Within a few hundred metres the plane is the sphere to
 * centimetres: no trigonometry per place.
 */
export const placeFinder = (
  places: ReadonlyArray<readonly [string, number, number]>,
  radiusKm: number
): ((p: Coordinates) => number | undefined) =>
(p) => {
  const cos = Math.cos((p.latitude * Math.PI) / 180)
  let best: number | undefined, bestKm = radiusKm
  places.forEach(([, lat, lon], i) => {
    const dy = (lat - p.latitude) * KM_PER_DEGREE, dx = (lon - p.longitude) * KM_PER_DEGREE * cos
    const km = Math.sqrt(dx * dx + dy * dy)
    if (km <= bestKm) (bestKm = km, best = i)
  })
  return best
}

/**
 * The place-pair pricing of a model, once per model: for a trip (its ends, route source and
 * distance), each provider's `PairPrice` by index, or undefined where the distance model
 * prices it. Undefined for a model without a place-pair table.
 */
export const placePairPricing = (
  model: Pick<MarketModel, "placePairs" | "providers" | "buckets">
):
  | ((pickup: Coordinates, destination: Coordinates, route: Route, distanceKm: number) => ((providerIndex: number) => PairPrice | undefined) | undefined)
  | undefined =>
{
  const table = model.placePairs
  if (table === undefined) return undefined
  const placeOf = placeFinder(table.places, table.radiusKm)
  const n = table.places.length
  // Per ordered pair of places, each provider's row by the market's provider index.
  interface PairRow {
    readonly km: number
    readonly supplied: number
    readonly resolved: number
    /** The provider's own routes between the two places: `[km, level supplied]` (this product's). */
    readonly routes: Array<readonly [number, number]>
  }
  const byPair = new Map<number, Array<PairRow | undefined>>()
  for (const [provider, rows] of Object.entries(table.pairs)) {
    for (const [from, to, , km, supplied, resolved] of rows) {
      const key = from * n + to
      const row = byPair.get(key) ?? model.providers.map(() => undefined)
      model.providers.forEach((p, i) => {
        if (p.provider === provider) row[i] = { km, supplied, resolved, routes: [] }
      })
      byPair.set(key, row)
    }
  }
  table.routes?.forEach((rows, i) => {
    for (const [from, to, km, , level] of rows) byPair.get(from * n + to)?.[i]?.routes.push([km, level])
  })
  // A supplied distance is on a known route when it is that route's to within half the
  // records' resolution (miles to two decimals: 16 m).
  const onRoute = (row: PairRow, km: number): number | undefined => {
    for (const [routeKm, level] of row.routes) if (Math.abs(routeKm - km) <= ROUTE_MATCH_KM) return level
    return undefined
  }
  return (pickup, destination, route, distanceKm) => {
    const from = placeOf(pickup)
    if (from === undefined) return undefined
    const to = placeOf(destination)
    if (to === undefined || to === from) return undefined
    const rows = byPair.get(from * n + to)
    if (rows === undefined) return undefined
    return (i) => {
      const row = rows[i]
      const spreads = table.spreads[i]
      if (row === undefined || spreads === undefined) return undefined
      const km = route === "supplied" ? distanceKm : row.km
      const spread = spreads[route][distanceBand(model.buckets, km)]
      const level = route === "supplied" ? (onRoute(row, km) ?? row.supplied) : row.resolved
      return spread === undefined ? undefined : { km, level, spread }
    }
  }
}
