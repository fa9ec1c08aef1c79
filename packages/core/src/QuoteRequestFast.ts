/**
 * A fast path for decoding quote requests, next to the schema it must agree with.
 *
 * `Schema.decodeUnknown(QuoteRequest)` costs ~60–90 µs per request under load (one parser step
 * per field and refinement), the largest single item of a quote's CPU over HTTP after the
 * response encoding (docs/performance.md). Most requests have the plain shape: two
 * coordinates and perhaps a distance and duration. Those are accepted here by plain checks over
 * the same bounds (`MAX_ABS_LATITUDE`, `MAX_DISTANCE_KM`, …), and a `scheduledAt` by the very
 * parser the `Timestamp` schema uses (`parseIsoTimestamp`). Anything else — a missing, extra or
 * mistyped field, a value out of bounds, a timestamp the parser refuses — is not decided here:
 * the caller decodes it with the schema, which accepts it or explains why not.
 *
 * So this never refuses; it only accepts, and the property tests check that whatever it
 * accepts the schema accepts too, with the same value.
 */
import { MAX_ABS_LATITUDE, MAX_ABS_LONGITUDE } from "./Geo.js"
import type { Coordinates } from "./Geo.js"
import { MAX_DISTANCE_KM, MAX_DURATION_MINUTES } from "./Quote.js"
import type { QuoteRequest } from "./Quote.js"
import { parseIsoTimestamp } from "./Timestamp.js"

type Json = Record<string, unknown>

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const finiteWithin = (u: unknown, maxAbs: number): u is number =>
  typeof u === "number" && Number.isFinite(u) && u >= -maxAbs && u <= maxAbs

/** A positive finite number ≤ max, as DistanceKm and DurationMinutes require. */
const positiveUpTo = (u: unknown, max: number): u is number =>
  typeof u === "number" && Number.isFinite(u) && u > 0 && u <= max

/** Own keys of `u`, all of them among `allowed`, with every one of `required` present. */
const keysAre = (u: Json, allowed: ReadonlySet<string>, required: number): boolean => {
  let count = 0
  let present = 0
  for (const key of Object.keys(u)) {
    if (!allowed.has(key)) return false
    count++
    if (key === "pickup" || key === "destination" || key === "latitude" || key === "longitude") present++
  }
  return count >= required && present === required
}

const COORDINATE_KEYS: ReadonlySet<string> = new Set(["latitude", "longitude"])
const PLAIN_REQUEST_KEYS: ReadonlySet<string> = new Set([
  "pickup",
  "destination",
  "distanceKm",
  "durationMinutes",
  "scheduledAt"
])

const coordinates = (u: unknown): Coordinates | undefined => {
  if (!isRecord(u) || !keysAre(u, COORDINATE_KEYS, 2)) return undefined
  const { latitude, longitude } = u
  return finiteWithin(latitude, MAX_ABS_LATITUDE) && finiteWithin(longitude, MAX_ABS_LONGITUDE)
    ? { latitude, longitude }
    : undefined
}

/** The request, when `json` has the plain shape and every bound holds; otherwise undefined (decode it with the schema). */
export const acceptPlainQuoteRequest = (json: unknown): QuoteRequest | undefined => {
  if (!isRecord(json) || !keysAre(json, PLAIN_REQUEST_KEYS, 2)) return undefined
  const pickup = coordinates(json["pickup"])
  const destination = coordinates(json["destination"])
  if (pickup === undefined || destination === undefined) return undefined
  const request: { -readonly [K in keyof QuoteRequest]: QuoteRequest[K] } = { pickup, destination }
  if ("distanceKm" in json) {
    const distanceKm = json["distanceKm"]
    if (!positiveUpTo(distanceKm, MAX_DISTANCE_KM)) return undefined
    request.distanceKm = distanceKm
  }
  if ("durationMinutes" in json) {
    const durationMinutes = json["durationMinutes"]
    if (!positiveUpTo(durationMinutes, MAX_DURATION_MINUTES)) return undefined
    request.durationMinutes = durationMinutes
  }
  if ("scheduledAt" in json) {
    const scheduledAt = json["scheduledAt"]
    if (typeof scheduledAt !== "string") return undefined
    const parsed = parseIsoTimestamp(scheduledAt)
    if (parsed._tag === "Left") return undefined
    request.scheduledAt = parsed.right
  }
  return request
}
