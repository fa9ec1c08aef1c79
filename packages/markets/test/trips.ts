/** Trips for the markets' tests. */
import { DateTime } from "effect"
import type { Coordinates, Market, Trip } from "@ridequote/core"

/**
 * A realtime trip between two places on a route the caller supplies (`distanceKm`,
 * `durationMinutes`), as a function of its departure (`iso`), read on `market`'s local clock.
 */
export const suppliedTrip = (
  market: Pick<Market, "localTime">,
  pickup: Coordinates,
  destination: Coordinates,
  distanceKm: number,
  durationMinutes: number
) =>
(iso: string): Trip => ({
  pickup,
  destination,
  distanceKm,
  durationMinutes,
  mode: "Realtime",
  routeSource: "supplied",
  localTime: market.localTime(DateTime.unsafeMake(iso), pickup),
  departAt: DateTime.unsafeMake(iso)
})
