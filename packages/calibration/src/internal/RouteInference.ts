/**
 * The route the service would infer for a trip record: the offline resolver of
 * @ridequote/routes with the market's learned profile and area speeds, plus the great-circle
 * distance (the "too short to resolve" cut). Fitting and evaluation calibrate the "resolved"
 * residuals against exactly this, so they are calibrated for the default `--routes offline`.
 */
import { Either } from "effect"
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates, RouteProfile } from "@ridequote/core"
import { estimateRoute } from "@ridequote/routes"
import type { AreaSpeed } from "@ridequote/routes"

export interface InferredRoute {
  readonly greatCircleKm: number
  readonly distanceKm: number
  readonly durationMinutes: number
}

/**
 * Profiles reaching here are valid (learned with a detour factor ≥ 1 and positive speeds, or
 * decoded by the model schema, which requires the same), so a refusal is a bug, not data.
 */
export const inferRoute = (
  profile: RouteProfile,
  pickup: Coordinates,
  destination: Coordinates,
  hour: number,
  areaSpeed?: AreaSpeed
): InferredRoute => {
  const route = Either.getOrThrowWith(estimateRoute(pickup, destination, hour, profile, areaSpeed), (e) => e)
  // Named, not spread: the fit and the evaluation infer a route for every trip, several times.
  return { greatCircleKm: greatCircleKm(pickup, destination), distanceKm: route.distanceKm, durationMinutes: route.durationMinutes }
}
