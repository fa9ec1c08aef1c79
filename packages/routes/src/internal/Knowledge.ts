/**
 * What a market knows of its roads, learned from its trip records and kept in its model
 * file: speed factors by area for the offline estimator, and the empirical table of
 * origin–destination cells. Versioned with the model file (docs/pricing.md, "The model file").
 */
import { Schema } from "effect"
import type { Coordinates, Market, RouteProfile } from "@ridequote/core"

const Positive = Schema.Number.pipe(Schema.finite(), Schema.greaterThan(0))

/** A grid of cells in degrees; a cell's key is `row:column` of its south-west corner. */
export const Grid = Schema.Struct({
  cellLatitude: Positive,
  cellLongitude: Positive
})
export type Grid = typeof Grid.Type

export const cellKey = (grid: Grid, p: Coordinates): string =>
  `${Math.floor(p.latitude / grid.cellLatitude)}:${Math.floor(p.longitude / grid.cellLongitude)}`

/** Speed multipliers of the hour's speed, by the cell of a trip's midpoint (absent = 1). */
export const AreaSpeed = Schema.Struct({
  ...Grid.fields,
  factors: Schema.Record({ key: Schema.String, value: Positive })
})
export type AreaSpeed = typeof AreaSpeed.Type
export const areaKey = cellKey

type OdPairTuple = readonly [string, string, number, number, number]

/** One pair, checked in one pass (thousands of them load at start-up; element-wise schemas are slow). */
const OdPair = Schema.declare(
  (u: unknown): u is OdPairTuple =>
    Array.isArray(u) && u.length === 5 && typeof u[0] === "string" && typeof u[1] === "string" &&
    Number.isInteger(u[2]) && [u[3], u[4]].every((x) => typeof x === "number" && Number.isFinite(x) && x > 0),
  { identifier: "OdPair", description: "[origin cell, destination cell, trips, km > 0, duration factor > 0]" }
)

/**
 * Observed routes between cells: `[origin cell, destination cell, trips, median road km,
 * median duration factor]`, where the duration factor is real minutes of movement ÷ the
 * estimator's minutes for the same road distance at the trip's hour.
 */
export const OdCells = Schema.Struct({
  ...Grid.fields,
  /** Fewest trips behind a pair (thinner pairs fall back to the estimator). */
  minTrips: Schema.Int,
  pairs: Schema.Array(OdPair)
})
export type OdCells = typeof OdCells.Type

/**
 * Everything a market learned of its roads: area speed factors (offline resolver) and
 * origin–destination cells (empirical resolver); `learnRouteKnowledge` makes it.
 */
export const RouteKnowledge = Schema.Struct({
  areaSpeed: AreaSpeed,
  odCells: OdCells
})
export type RouteKnowledge = typeof RouteKnowledge.Type

/** A market that carries route knowledge (calibrated markets do; the sample market does not). */
export interface KnowsRoutes {
  readonly routeKnowledge: RouteKnowledge
}

/** A market's route knowledge, or undefined when it carries none (then resolvers use the route profile alone). */
export const knowledgeOf = (market: Market): RouteKnowledge | undefined =>
  "routeKnowledge" in market ? (market as Market & KnowsRoutes).routeKnowledge : undefined

export type { RouteProfile }
