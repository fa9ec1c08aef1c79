/** The quote request and response of `POST /v1/quote`, with its bounds (docs/api.md, "POST /v1/quote"). */
import { Schema } from "effect"
import { Coordinates } from "./Geo.js"
import { RequestId } from "./Ids.js"
import { Currency, Price } from "./Money.js"
import { Timestamp } from "./Timestamp.js"

/** The service levels a quote prices. */
export const ServiceLevel = Schema.Literal("Economy", "Standard", "Comfort", "XL").annotations({ identifier: "ServiceLevel" })
export type ServiceLevel = typeof ServiceLevel.Type
/** In the order they are listed on the wire. */
export const SERVICE_LEVELS: ReadonlyArray<ServiceLevel> = ServiceLevel.literals

/** Labels of recommended price points, cheapest first; each level has exactly one point per label. */
export const RecommendationLabel = Schema.Literal("saver", "balanced", "priority").annotations({
  identifier: "RecommendationLabel"
})
export type RecommendationLabel = typeof RecommendationLabel.Type
/** The labels in the order every level lists its points. */
export const RECOMMENDATION_LABELS: ReadonlyArray<RecommendationLabel> = RecommendationLabel.literals

/** `Scheduled` when the ride is booked 30 minutes or more ahead, else `Realtime`. */
export const Mode = Schema.Literal("Realtime", "Scheduled").annotations({ identifier: "Mode" })
export type Mode = typeof Mode.Type

/** The longest trip a quote may be for, in kilometres. */
export const MAX_DISTANCE_KM = 1000
/** The longest trip a quote may be for, in minutes. */
export const MAX_DURATION_MINUTES = 1440
/** How far ahead `scheduledAt` may be (docs/api.md, "POST /v1/quote"). */
export const MAX_SCHEDULE_AHEAD_DAYS = 90

/** A trip's distance as sent or resolved. */
export const DistanceKm = Schema.Number.pipe(
  Schema.finite(),
  Schema.greaterThan(0),
  Schema.lessThanOrEqualTo(MAX_DISTANCE_KM)
).annotations({ identifier: "DistanceKm", description: "Trip distance in kilometres, in (0, 1000]" })

/** A trip's duration as sent or resolved. */
export const DurationMinutes = Schema.Number.pipe(
  Schema.finite(),
  Schema.greaterThan(0),
  Schema.lessThanOrEqualTo(MAX_DURATION_MINUTES)
).annotations({ identifier: "DurationMinutes", description: "Trip duration in minutes, in (0, 1440]" })

/** The body of `POST /v1/quote`: two points, a route (both figures or neither), an optional schedule. */
export const QuoteRequest = Schema.Struct({
  pickup: Coordinates,
  destination: Coordinates,
  distanceKm: Schema.optional(DistanceKm),
  durationMinutes: Schema.optional(DurationMinutes),
  scheduledAt: Schema.optional(Timestamp)
}).annotations({ identifier: "QuoteRequest" })
export type QuoteRequest = typeof QuoteRequest.Type

/** Market price percentiles of one provider and level. */
export const Percentiles = Schema.Struct({ p5: Price, p25: Price, p50: Price, p75: Price, p95: Price }).annotations({
  identifier: "Percentiles",
  description: "Market price at the 5th, 25th, 50th, 75th and 95th percentile (non-decreasing)"
})
export type Percentiles = typeof Percentiles.Type
/** The quantile levels behind each percentile field. */
export const PERCENTILE_LEVELS = { p5: 0.05, p25: 0.25, p50: 0.5, p75: 0.75, p95: 0.95 } as const

/** One recommended price point. */
export const Recommendation = Schema.Struct({ price: Price, label: RecommendationLabel }).annotations({
  identifier: "Recommendation"
})
export type Recommendation = typeof Recommendation.Type

/** Service level → its recommended points, in label order saver, balanced, priority. */
export const Recommendations = Schema.Record({ key: Schema.String, value: Schema.Array(Recommendation) }).annotations({
  identifier: "Recommendations",
  description: "Service level (Economy, Standard, Comfort, XL) to its price points labelled saver, balanced, priority"
})
export type Recommendations = typeof Recommendations.Type

/** `"<provider>/<serviceLevel>"` → percentiles. */
export const MarketPrices = Schema.Record({ key: Schema.String, value: Percentiles }).annotations({
  identifier: "MarketPrices",
  description: "Key \"<provider>/<service_level>\" to the market price percentiles"
})
export type MarketPrices = typeof MarketPrices.Type

/** The answer of `POST /v1/quote`. */
export const QuoteResponse = Schema.Struct({
  requestId: RequestId,
  mode: Mode,
  currency: Currency,
  distanceKm: Schema.Number,
  durationMinutes: Schema.Number,
  recommendations: Recommendations,
  marketPrices: MarketPrices
}).annotations({ identifier: "QuoteResponse" })
export type QuoteResponse = typeof QuoteResponse.Type

/** Where the distance and duration used for pricing came from. */
export const RouteSource = Schema.Literal("supplied", "resolved").annotations({ identifier: "RouteSource" })
export type RouteSource = typeof RouteSource.Type

/** The distance and duration priced, and where they came from. */
export const Route = Schema.Struct({
  source: RouteSource,
  distanceKm: Schema.Number,
  durationMinutes: Schema.Number
}).annotations({ identifier: "Route" })
export type Route = typeof Route.Type
