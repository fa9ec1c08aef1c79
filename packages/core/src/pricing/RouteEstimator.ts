/**
 * The offline route resolver: infers distance and duration from two points with no road
 * network, from the market's route profile. Sources of the default constants: docs/pricing.md.
 */
import { Either, Layer } from "effect"
import { RouteUnavailable } from "../Errors.js"
import type { Coordinates } from "../Geo.js"
import { greatCircleKm } from "../Geo.js"
import type { RouteProfile } from "../ports/MarketData.js"
import type { ResolvedRoute } from "../ports/RouteResolver.js"
import { RouteResolver } from "../ports/RouteResolver.js"

/**
 * Road distance ÷ great-circle distance. Circuity studies put it around 1.2–1.4 (Ballou et al.
 * 2002: ~1.2 for the US, higher elsewhere; Boscoe et al. 2012: ~1.4 for US trips to hospitals;
 * short urban trips sit at the high end), so 1.35.
 */
export const DEFAULT_DETOUR_FACTOR = 1.35

/**
 * Average door-to-door speed in km/h by local hour 0..23 for a generic city: ~33 km/h at night,
 * ~18–19 km/h in the peaks, ~21 km/h through the day. Slightly faster than the dense taxi cores in
 * the bundled NYC and Chicago trip records (median 14–28 and 15–34 km/h by hour), since the
 * sample market serves every place, suburbs included.
 */
export const DEFAULT_SPEED_KMH_BY_HOUR: ReadonlyArray<number> = [
  30, 32, 33, 34, 34, 32, 26, 21, 19, 20, 21, 21, 21, 21, 21, 20, 19, 18, 19, 21, 24, 26, 27, 29
]

export const DEFAULT_ROUTE_PROFILE: RouteProfile = {
  detourFactor: DEFAULT_DETOUR_FACTOR,
  speedKmhByHour: DEFAULT_SPEED_KMH_BY_HOUR
}

/**
 * Minutes a trip spends not moving at cruising speed: pulling in, boarding, finding the
 * drop-off. In the bundled NYC and Chicago records, median duration against distance has an
 * intercept of about 0.5–2 minutes; 1 minute is the middle of it.
 */
export const PICKUP_DROPOFF_MINUTES = 1

/** Resolved figures are rounded to 10 m and 0.1 min: the estimate is not finer than that. */
const round = (x: number, step: number): number => Math.round(x / step) * step

/**
 * distance = great-circle × detour factor; duration = overhead + distance ÷ speed of the hour.
 * Pure; fails only for a profile that cannot give an estimate (bad detour factor or speed).
 * Out-of-bounds results are returned as they are: `Quotes` answers them with a 400 (contract §4).
 */
export const estimateRoute = (
  pickup: Coordinates,
  destination: Coordinates,
  localHour: number,
  profile: RouteProfile
): Either.Either<ResolvedRoute, RouteUnavailable> => {
  // An Either, not an Effect: fitting code calls this for every trip record, and an Either is
  // still an Effect wherever one is expected (the resolver below).
  const speed = profile.speedKmhByHour[localHour]
  if (!(Number.isFinite(profile.detourFactor) && profile.detourFactor >= 1)) {
    return Either.left(new RouteUnavailable({ message: `market route profile has an unusable detour factor` }))
  }
  if (speed === undefined || !(Number.isFinite(speed) && speed > 0)) {
    return Either.left(new RouteUnavailable({ message: `market route profile has no usable speed for hour ${localHour}` }))
  }
  const distanceKm = greatCircleKm(pickup, destination) * profile.detourFactor
  const durationMinutes = PICKUP_DROPOFF_MINUTES + (distanceKm / speed) * 60
  return Either.right({
    distanceKm: Number(round(distanceKm, 0.01).toFixed(2)),
    durationMinutes: Number(round(durationMinutes, 0.1).toFixed(1))
  })
}

/** RouteResolver over `estimateRoute`, using the pickup market's profile and local clock. */
export const OfflineRouteResolverLive: Layer.Layer<RouteResolver> = Layer.succeed(RouteResolver, {
  resolve: ({ departAt, destination, market, pickup }) =>
    estimateRoute(pickup, destination, market.localTime(departAt, pickup).hour, market.routeProfile)
})
