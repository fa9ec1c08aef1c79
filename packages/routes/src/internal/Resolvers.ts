/**
 * The RouteResolver adapters: offline (the estimator with the market's learned profile and
 * area speeds), empirical (observed routes between origin–destination cells, the estimator
 * where a pair is thin) and a client of an OSRM-compatible server (./Osrm.ts).
 */
import { Either, Layer } from "effect"
import { greatCircleKm, RouteResolver } from "@ridequote/core"
import type { Coordinates, ResolvedRoute, RouteProfile, RouteQuery, RouteUnavailable } from "@ridequote/core"
import { estimateRoute, PICKUP_DROPOFF_MINUTES, profileSpeedKmh } from "./Estimator.js"
import type { OdCells, RouteKnowledge } from "./Knowledge.js"
import { cellKey, knowledgeOf } from "./Knowledge.js"
import { MIN_RESOLVABLE_KM } from "./Learn.js"

const localHour = (query: RouteQuery): number => query.market.localTime(query.departAt, query.pickup).hour

/** The offline estimate for a query, with whatever the market learned of its areas. */
export const offlineRoute = (query: RouteQuery): Either.Either<ResolvedRoute, RouteUnavailable> =>
  estimateRoute(query.pickup, query.destination, localHour(query), query.market.routeProfile, knowledgeOf(query.market)?.areaSpeed)

/** Pair lookup tables, built once per table. */
const pairIndex = new WeakMap<OdCells, ReadonlyMap<string, readonly [number, number]>>()
const indexOf = (cells: OdCells): ReadonlyMap<string, readonly [number, number]> => {
  let index = pairIndex.get(cells)
  if (index === undefined) {
    index = new Map(cells.pairs.map(([from, to, , km, factor]) => [`${from}>${to}`, [km, factor] as const]))
    pairIndex.set(cells, index)
  }
  return index
}

/**
 * The empirical route: the pair's observed median road distance, and the estimator's minutes
 * for that distance at the hour scaled by the pair's observed duration factor. Undefined for a
 * pair with too few trips, and for points closer than MIN_RESOLVABLE_KM: a cell pair's
 * statistics describe trips between its zones, not a trip that goes nowhere (the estimator's
 * 0 km route for identical points is refused by the quote rules with a 400, as it should be).
 */
export const empiricalRoute = (
  knowledge: RouteKnowledge,
  profile: RouteProfile,
  pickup: Coordinates,
  destination: Coordinates,
  hour: number
): ResolvedRoute | undefined => {
  if (greatCircleKm(pickup, destination) < MIN_RESOLVABLE_KM) return undefined
  const cells = knowledge.odCells
  const found = indexOf(cells).get(`${cellKey(cells, pickup)}>${cellKey(cells, destination)}`)
  if (found === undefined) return undefined
  const [km, factor] = found
  const speed = profileSpeedKmh(profile, hour, km)
  if (!(speed > 0)) return undefined
  return {
    distanceKm: Number(km.toFixed(2)),
    durationMinutes: Number((PICKUP_DROPOFF_MINUTES + factor * (km / speed) * 60).toFixed(1))
  }
}

const empiricalOrOffline = (query: RouteQuery): Either.Either<ResolvedRoute, RouteUnavailable> => {
  const knowledge = knowledgeOf(query.market)
  const found = knowledge === undefined
    ? undefined
    : empiricalRoute(knowledge, query.market.routeProfile, query.pickup, query.destination, localHour(query))
  return found !== undefined ? Either.right(found) : offlineRoute(query)
}

/** The offline estimator: no network, the market's learned detour factor and speeds. */
export const OfflineRouteResolverLive: Layer.Layer<RouteResolver> = Layer.succeed(RouteResolver, {
  resolve: (query) => offlineRoute(query)
})

/** Observed routes between cells where the market's records have enough of them, else offline. */
export const EmpiricalRouteResolverLive: Layer.Layer<RouteResolver> = Layer.succeed(RouteResolver, {
  resolve: (query) => empiricalOrOffline(query)
})

/** The offline resolver as a plain value (the OSRM client's fallback). */
export const offlineResolver: RouteResolver = { resolve: (query) => offlineRoute(query) }

