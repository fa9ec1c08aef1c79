/**
 * Port: infers distance and duration when the caller sent neither. Adapters live in
 * @ridequote/routes (offline estimator, empirical routes, an OSRM client).
 */
import type { DateTime, Effect } from "effect"
import { Context } from "effect"
import type { RouteUnavailable } from "../Errors.js"
import type { Coordinates } from "../Geo.js"
import type { Market } from "./MarketData.js"

export interface RouteQuery {
  readonly pickup: Coordinates
  readonly destination: Coordinates
  readonly departAt: DateTime.Utc
  /** The pickup's market: its route profile and local clock. */
  readonly market: Market
}

export interface ResolvedRoute {
  readonly distanceKm: number
  readonly durationMinutes: number
}

export interface RouteResolver {
  readonly resolve: (query: RouteQuery) => Effect.Effect<ResolvedRoute, RouteUnavailable>
}

export const RouteResolver = Context.GenericTag<RouteResolver>("@ridequote/core/RouteResolver")
