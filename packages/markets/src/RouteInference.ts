/**
 * The route the service would infer for a trip record: core's offline estimator with the
 * market's fitted profile, plus the great-circle distance (the "too short to resolve" cut).
 * Fitting and evaluation calibrate the "resolved" residuals against exactly this.
 */
import { estimateRoute, greatCircleKm } from "@ridequote/core"
import type { Coordinates, RouteProfile } from "@ridequote/core"
import { Either } from "effect"

export interface InferredRoute {
  readonly greatCircleKm: number
  readonly distanceKm: number
  readonly durationMinutes: number
}

/**
 * Profiles reaching here are valid (fitted with a detour factor ≥ 1 and positive speeds, or
 * decoded by the model schema, which requires the same), so a refusal is a bug, not data.
 */
export const inferRoute = (
  profile: RouteProfile,
  pickup: Coordinates,
  destination: Coordinates,
  hour: number
): InferredRoute => {
  const route = Either.getOrThrowWith(estimateRoute(pickup, destination, hour, profile), (e) => e)
  return { greatCircleKm: greatCircleKm(pickup, destination), ...route }
}
