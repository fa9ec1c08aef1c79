/**
 * The offline estimator: distance and duration from two points with no road network, from
 * what a market learned of its roads (its route knowledge). Sources of the default constants:
 * docs/pricing.md, "Route resolution".
 *
 *   distance = great-circle × detour factor
 *   duration = overhead + distance ÷ (speed of the local hour × speed factor of the area
 *                                     × the profile's speed factor at that distance)
 */
import { Either } from "effect"
import { greatCircleKm, RouteUnavailable } from "@ridequote/core"
import type { Coordinates, ResolvedRoute, RouteProfile } from "@ridequote/core"
import type { AreaSpeed } from "./Knowledge.js"
import { areaKey } from "./Knowledge.js"

/**
 * Minutes a trip spends not moving at cruising speed: pulling in, boarding, finding the
 * drop-off. In the bundled NYC and Chicago records, median duration against distance has an
 * intercept of about 0.5–2 minutes; 1 minute is the middle of it.
 */
export const PICKUP_DROPOFF_MINUTES = 1

/** Resolved figures are rounded to 10 m and 0.1 min: the estimate is not finer than that. */
const round = (x: number, step: number): number => Number((Math.round(x / step) * step).toFixed(step < 0.1 ? 2 : 1))

/** The speed factor of the area a trip crosses (keyed by its midpoint); 1 where nothing was learned. */
export const areaFactor = (areaSpeed: AreaSpeed | undefined, pickup: Coordinates, destination: Coordinates): number => {
  if (areaSpeed === undefined) return 1
  const mid = { latitude: (pickup.latitude + destination.latitude) / 2, longitude: (pickup.longitude + destination.longitude) / 2 }
  return areaSpeed.factors[areaKey(areaSpeed, mid)] ?? 1
}

/**
 * The profile's speed factor at a route's length: linear between its knots, flat beyond the
 * ends, 1 without knots. The shipped knots keep distance ÷ factor rising with distance (tested),
 * so a longer route never resolves to a shorter duration.
 */
export const speedFactorAt = (knots: RouteProfile["speedFactorByKm"], distanceKm: number): number => {
  if (knots === undefined || knots.length === 0) return 1
  let [x0, y0] = knots[0] ?? [0, 1]
  if (distanceKm <= x0) return y0
  for (const [x1, y1] of knots) {
    if (distanceKm <= x1) return y0 + ((distanceKm - x0) / (x1 - x0)) * (y1 - y0)
    x0 = x1
    y0 = y1
  }
  return y0
}

/**
 * The profile's speed, km/h, for a route of `distanceKm` at `hour`: the hour's speed × the
 * factor at that length (NaN for an hour the profile lacks). Every estimate the routes make of
 * a profile reads its speed here, so the estimator, the empirical table and what is learned
 * from records agree on it.
 */
export const profileSpeedKmh = (profile: RouteProfile, hour: number, distanceKm: number): number =>
  (profile.speedKmhByHour[hour] ?? Number.NaN) * speedFactorAt(profile.speedFactorByKm, distanceKm)

/**
 * Pure; fails only for a profile that cannot give an estimate (bad detour factor or speed).
 * Out-of-bounds results are returned as they are: the quote rules answer them with a 400.
 * An Either, not an Effect: fitting calls this for every trip record, and an Either is still
 * an Effect wherever one is expected.
 */
export const estimateRoute = (
  pickup: Coordinates,
  destination: Coordinates,
  localHour: number,
  profile: RouteProfile,
  areaSpeed?: AreaSpeed
): Either.Either<ResolvedRoute, RouteUnavailable> => {
  if (!(Number.isFinite(profile.detourFactor) && profile.detourFactor >= 1)) {
    return Either.left(new RouteUnavailable({ message: `market route profile has an unusable detour factor` }))
  }
  const distanceKm = greatCircleKm(pickup, destination) * profile.detourFactor
  const speed = profileSpeedKmh(profile, localHour, distanceKm) * areaFactor(areaSpeed, pickup, destination)
  if (!(Number.isFinite(speed) && speed > 0)) {
    return Either.left(new RouteUnavailable({ message: `market route profile has no usable speed for hour ${localHour}` }))
  }
  const durationMinutes = PICKUP_DROPOFF_MINUTES + (distanceKm / speed) * 60
  return Either.right({ distanceKm: round(distanceKm, 0.01), durationMinutes: round(durationMinutes, 0.1) })
}
