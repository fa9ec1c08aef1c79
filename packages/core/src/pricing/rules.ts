/**
 * The quote's rules (route metadata, mode) and bounds, as pure, total functions; docs/api.md,
 * "POST /v1/quote", states them for callers.
 * `Quotes` applies them in order; each is property-tested on its own.
 */
import { DateTime, Either } from "effect"
import { destinationBeyondReach, InvalidRequest, noRuleForTrip, RouteMetadataIncomplete } from "../Errors.js"
import type { MarketNotServed } from "../Errors.js"
import type { Coordinates } from "../Geo.js"
import { MAX_ABS_LATITUDE, MAX_ABS_LONGITUDE } from "../Geo.js"
import type { Market, Trip } from "../ports/MarketData.js"
import type { Mode, RouteSource } from "../Quote.js"
import { MAX_DISTANCE_KM, MAX_DURATION_MINUTES, MAX_SCHEDULE_AHEAD_DAYS } from "../Quote.js"

/** A trip at least this far ahead (30 minutes) is priced as Scheduled, nearer ones as Realtime. */
export const SCHEDULED_THRESHOLD_MINUTES = 30
const SCHEDULED_THRESHOLD_MS = SCHEDULED_THRESHOLD_MINUTES * 60_000
const MAX_SCHEDULE_AHEAD_MS = MAX_SCHEDULE_AHEAD_DAYS * 86_400_000

/**
 * Scheduled iff scheduledAt ≥ now + 30 min (exactly 30 min is Scheduled);
 * absent, sooner, or in the past is Realtime.
 */
export const selectMode = (scheduledAt: DateTime.Utc | undefined, now: DateTime.Utc): Mode =>
  scheduledAt !== undefined &&
    DateTime.toEpochMillis(scheduledAt) - DateTime.toEpochMillis(now) >= SCHEDULED_THRESHOLD_MS
    ? "Scheduled"
    : "Realtime"

/** What the route rule decided: price the supplied figures, or ask the route resolver. */
export type RouteMetadata =
  | { readonly _tag: "Supplied"; readonly distanceKm: number; readonly durationMinutes: number }
  | { readonly _tag: "Resolve" }

const RESOLVE: RouteMetadata = { _tag: "Resolve" }

/**
 * Both distanceKm and durationMinutes → use them; neither → resolve both from
 * pickup and destination; exactly one → RouteMetadataIncomplete.
 */
export const routeMetadataRule = (request: {
  readonly distanceKm?: number | undefined
  readonly durationMinutes?: number | undefined
}): Either.Either<RouteMetadata, RouteMetadataIncomplete> => {
  const { distanceKm, durationMinutes } = request
  if (distanceKm === undefined && durationMinutes === undefined) return Either.right(RESOLVE)
  if (distanceKm !== undefined && durationMinutes !== undefined) {
    return Either.right({ _tag: "Supplied", distanceKm, durationMinutes })
  }
  const sent = distanceKm !== undefined ? "distanceKm" : "durationMinutes"
  const missing = distanceKm !== undefined ? "durationMinutes" : "distanceKm"
  return Either.left(
    new RouteMetadataIncomplete({
      message: `distanceKm and durationMinutes must be sent together: ${sent} was sent without ${missing}`
    })
  )
}

/** scheduledAt at most 90 days ahead of now (exactly 90 days is allowed): no market data reaches further. */
export const scheduleBoundRule = (
  scheduledAt: DateTime.Utc | undefined,
  now: DateTime.Utc
): Either.Either<void, InvalidRequest> =>
  scheduledAt !== undefined && DateTime.toEpochMillis(scheduledAt) - DateTime.toEpochMillis(now) > MAX_SCHEDULE_AHEAD_MS
    ? Either.left(
      new InvalidRequest({
        message: `scheduledAt must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`,
        details: [{ path: ["scheduledAt"], message: `more than ${MAX_SCHEDULE_AHEAD_DAYS} days ahead` }]
      })
    )
    : Either.void

// The schemas' bounds (Geo.ts, Quote.ts), as plain predicates: `Schema.is` here cost 10–20 %
// of an in-process quote (measured with `pnpm bench`).
const inLatitude = (x: number): boolean => Number.isFinite(x) && Math.abs(x) <= MAX_ABS_LATITUDE
const inLongitude = (x: number): boolean => Number.isFinite(x) && Math.abs(x) <= MAX_ABS_LONGITUDE

/**
 * Coordinate bounds. The HTTP schema already enforces them; core checks again
 * because embedders may build a QuoteRequest without decoding it.
 */
export const coordinatesRule = (request: {
  readonly pickup: Coordinates
  readonly destination: Coordinates
}): Either.Either<void, InvalidRequest> => {
  const details: Array<{ path: Array<string>; message: string }> = []
  for (const end of ["pickup", "destination"] as const) {
    const point = request[end]
    if (!inLatitude(point.latitude)) details.push({ path: [end, "latitude"], message: "must be a finite number in [-90, 90]" })
    if (!inLongitude(point.longitude)) {
      details.push({ path: [end, "longitude"], message: "must be a finite number in [-180, 180]" })
    }
  }
  return details.length === 0
    ? Either.void
    : Either.left(new InvalidRequest({ message: "coordinates out of bounds", details }))
}

const inDistance = (x: number): boolean => Number.isFinite(x) && x > 0 && x <= MAX_DISTANCE_KM
const inDuration = (x: number): boolean => Number.isFinite(x) && x > 0 && x <= MAX_DURATION_MINUTES

/**
 * distanceKm ∈ (0, 1000], durationMinutes ∈ (0, 1440], for supplied and resolved
 * routes alike. A resolved route out of bounds is the caller's trip, not our failure: 400, and
 * the message says the figures were inferred (e.g. pickup and destination on two continents).
 */
export const routeBoundsRule = (route: {
  readonly source: RouteSource
  readonly distanceKm: number
  readonly durationMinutes: number
}): Either.Either<void, InvalidRequest> => {
  const details: Array<{ path: Array<string>; message: string }> = []
  if (!inDistance(route.distanceKm)) {
    details.push({ path: ["distanceKm"], message: `${route.distanceKm} km is outside (0, ${MAX_DISTANCE_KM}]` })
  }
  if (!inDuration(route.durationMinutes)) {
    details.push({
      path: ["durationMinutes"],
      message: `${route.durationMinutes} min is outside (0, ${MAX_DURATION_MINUTES}]`
    })
  }
  if (details.length === 0) return Either.void
  return Either.left(
    new InvalidRequest({
      message: route.source === "resolved"
        ? "the route inferred from pickup to destination is outside the supported bounds " +
          `(distance in (0, ${MAX_DISTANCE_KM}] km, duration in (0, ${MAX_DURATION_MINUTES}] min)`
        : "distanceKm or durationMinutes out of bounds",
      details
    })
  )
}

/**
 * The market's reach: a destination farther from the pickup market's area than its reach is
 * not served (`result:market-not-served`, reason `destination-beyond-reach`). Read from the
 * coordinates alone, before the route: a supplied distance is used as sent (the route rule)
 * but does not make a trip to another continent a local ride. A market without a reach (the
 * sample market) serves any destination.
 */
export const reachRule = (market: Market, destination: Coordinates): Either.Either<void, MarketNotServed> => {
  const reach = market.reach
  if (reach === undefined) return Either.void
  const km = reach.distanceKm(destination)
  return km <= reach.km ? Either.void : Either.left(destinationBeyondReach(destination, market.id, km, reach.km))
}

/**
 * A trip the market prices with no offer at all is not served: a market of an airport's
 * published fixed fares alone has a price for the trips they cover and none for others, and an
 * answer with empty `marketPrices` would read as a price of nothing. The refusal names the
 * market's airports, where the trips it does price begin or end; a market that can say more (a
 * trip dated before the earliest rule it knows) gives its own refusal (`Market.unoffered`).
 */
export const offeredRule = (market: Market, trip: Trip, marketPrices: Readonly<Record<string, unknown>>): Either.Either<void, MarketNotServed> => {
  for (const _ in marketPrices) return Either.void
  return Either.left(market.unoffered?.(trip) ?? noRuleForTrip(market.id, (market.coverage?.airports ?? []).map((a) => a.iata)))
}

