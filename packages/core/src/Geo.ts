/** Points on Earth, with the contract's bounds, and great-circle distance. */
import { Schema } from "effect"

/** Latitude ∈ [-90, 90], longitude ∈ [-180, 180]: the whole Earth, nothing else. */
export const MAX_ABS_LATITUDE = 90
/** See MAX_ABS_LATITUDE. */
export const MAX_ABS_LONGITUDE = 180

/** Degrees north, finite, in [-90, 90]. */
export const Latitude = Schema.Number.pipe(Schema.finite(), Schema.between(-MAX_ABS_LATITUDE, MAX_ABS_LATITUDE))
  .annotations({ identifier: "Latitude" })
/** Degrees east, finite, in [-180, 180]. */
export const Longitude = Schema.Number.pipe(Schema.finite(), Schema.between(-MAX_ABS_LONGITUDE, MAX_ABS_LONGITUDE))
  .annotations({ identifier: "Longitude" })

/** A point on Earth (pickup or destination). */
export const Coordinates = Schema.Struct({ latitude: Latitude, longitude: Longitude }).annotations({
  identifier: "Coordinates"
})
export type Coordinates = typeof Coordinates.Type

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088

/** Haversine great-circle distance in km. */
export const greatCircleKm = (a: Coordinates, b: Coordinates): number => {
  const rad = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * rad
  const dLon = (b.longitude - a.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}
