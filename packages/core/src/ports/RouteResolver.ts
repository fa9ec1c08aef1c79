/**
 * Port: infers distance and duration when the caller sent neither. Adapters live in
 * @ridequote/routes (offline estimator, empirical routes, an OSRM client).
 */
import type { DateTime, Effect } from "effect"
import { Context } from "effect"
import type { RouteUnavailable } from "../Errors.js"
import type { Coordinates } from "../Geo.js"
import type { Market } from "./MarketData.js"

/** What a resolver is asked: the two points, when, and in which market. */
export interface RouteQuery {
  readonly pickup: Coordinates
  readonly destination: Coordinates
  readonly departAt: DateTime.Utc
  /** The pickup's market: its route profile and local clock. */
  readonly market: Market
}

/** A route's distance and duration, as a resolver inferred them. */
export interface ResolvedRoute {
  readonly distanceKm: number
  readonly durationMinutes: number
}

/** Infers a route when a request sends neither distance nor duration. */
export interface RouteResolver {
  readonly resolve: (query: RouteQuery) => Effect.Effect<ResolvedRoute, RouteUnavailable>
}

/** The RouteResolver port's tag. */
export const RouteResolver = Context.GenericTag<RouteResolver>("@ridequote/core/RouteResolver")
