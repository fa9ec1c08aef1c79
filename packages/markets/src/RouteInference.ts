/**
 * The route core's offline resolver infers from a market's route profile (core's
 * `estimateRoute`: great-circle × detour factor; 1 min pickup/drop-off overhead + distance at
 * the local hour's speed; rounded to 10 m and 0.1 min). Fitting and evaluation need it for
 * ~10⁵ rows without running an Effect per row, so it is restated here as a plain function; a
 * test pins it to `estimateRoute` so the two cannot drift apart. The "resolved" residuals are
 * then calibrated against exactly what the service infers.
 */
import { greatCircleKm, PICKUP_DROPOFF_MINUTES } from "@ridequote/core"
import type { Coordinates, RouteProfile } from "@ridequote/core"

export interface InferredRoute {
  readonly greatCircleKm: number
  readonly distanceKm: number
  readonly durationMinutes: number
}

const round = (x: number, step: number, digits: number): number => Number((Math.round(x / step) * step).toFixed(digits))

export const inferRoute = (
  profile: RouteProfile,
  pickup: Coordinates,
  destination: Coordinates,
  hour: number
): InferredRoute => {
  const gc = greatCircleKm(pickup, destination)
  const distanceKm = gc * profile.detourFactor
  const speed = profile.speedKmhByHour[hour] ?? profile.speedKmhByHour[0] ?? 20
  return {
    greatCircleKm: gc,
    distanceKm: round(distanceKm, 0.01, 2),
    durationMinutes: round(PICKUP_DROPOFF_MINUTES + (distanceKm / speed) * 60, 0.1, 1)
  }
}
