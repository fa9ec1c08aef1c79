/** The quote request and response of `POST /v1/quote`, with its bounds (docs/api.md, "POST /v1/quote"). */
import { Schema } from "effect"
import { Coordinates } from "./Geo.js"
import { MarketId, RequestId } from "./Ids.js"
import { Currency, Price } from "./Money.js"
import { Timestamp } from "./Timestamp.js"

/**
 * The shared vocabulary of service levels a rider chooses between, whatever each provider
 * calls its product (docs/pricing.md, "Service levels"): Shared (a pooled ride), Economy,
 * Standard (the everyday private ride: UberX, Lyft, a yellow taxi), Comfort (newer or
 * larger cars: Lyft Lux), XL (6 seats), Premium (black car: Uber Black, Lyft Lux Black),
 * PremiumXL (black SUV), Accessible (wheelchair-accessible vehicle). The contract's four
 * (Economy, Standard, Comfort, XL) keep their meaning; the others were added for the
 * ride-hail markets.
 */
export const ServiceLevel = Schema.Literal(
  "Shared",
  "Economy",
  "Standard",
  "Comfort",
  "XL",
  "Premium",
  "PremiumXL",
  "Accessible"
).annotations({ identifier: "ServiceLevel" })
export type ServiceLevel = typeof ServiceLevel.Type
/** In the order they are listed on the wire (cheapest kind of ride first). */
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
  description:
    "Service level (Shared, Economy, Standard, Comfort, XL, Premium, PremiumXL, Accessible) to its price points labelled saver, balanced, priority"
})
export type Recommendations = typeof Recommendations.Type

/** `"<provider>/<serviceLevel>"` → percentiles. */
export const MarketPrices = Schema.Record({ key: Schema.String, value: Percentiles }).annotations({
  identifier: "MarketPrices",
  description: "Key \"<provider>/<service_level>\" to the market price percentiles"
})
export type MarketPrices = typeof MarketPrices.Type

/** The market that priced a quote (additive field `market` of the response). */
export const PricingMarket = Schema.Struct({
  id: MarketId,
  name: Schema.String,
  /** True for the built-in sample market: its providers and prices are invented, not market data. */
  sampleData: Schema.Boolean
}).annotations({
  identifier: "PricingMarket",
  description: "The market whose data priced the quote; sampleData is true for the built-in sample market (invented prices)"
})
export type PricingMarket = typeof PricingMarket.Type

/** The records behind an offer's prices: completed trips or price quotes, first and last local date. */
export const RecordsPeriod = Schema.Struct({
  kind: Schema.Literal("trips", "quotes"),
  from: Schema.String,
  to: Schema.String
}).annotations({ identifier: "RecordsPeriod" })
export type RecordsPeriod = typeof RecordsPeriod.Type

/**
 * The published rule that priced an offer: the tariff version in force at the trip's moment
 * (name, the local date it took effect, who publishes it and where) and the surcharges and
 * fees of the rule that this trip pays.
 */
export const TariffBasis = Schema.Struct({
  name: Schema.String,
  effectiveFrom: Schema.String,
  authority: Schema.String,
  rule: Schema.String,
  url: Schema.String,
  /** The surcharges and fees of the rule that apply to this trip, by name. */
  charges: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "TariffBasis" })
export type TariffBasis = typeof TariffBasis.Type

/**
 * How current an offer's price level is. `asOf`: the local date of the newest evidence the
 * level rests on (a rule's effective date, or the last day of the records). Where the records'
 * prices were brought forward, `factor` is the multiplier applied, `low`–`high` its range
 * (folded into the spread) and `evidence` what it rests on. Without a factor, `evidence` says
 * what newer rule may be in force but was not confirmed, and when that was last checked.
 */
export const LevelBasis = Schema.Struct({
  asOf: Schema.String,
  factor: Schema.optional(Schema.Number),
  low: Schema.optional(Schema.Number),
  high: Schema.optional(Schema.Number),
  evidence: Schema.optional(Schema.String)
}).annotations({ identifier: "LevelBasis" })
export type LevelBasis = typeof LevelBasis.Type

/** What stands behind one `"<provider>/<serviceLevel>"` entry of `marketPrices`. */
export const OfferSource = Schema.Struct({
  /** The provider's own name for the product (UberX, Lyft XL, Yellow taxi). */
  product: Schema.optional(Schema.String),
  /** The period of the records behind the trip (distance, time, scatter) or the fitted prices; absent for sample data. */
  records: Schema.optional(RecordsPeriod),
  /** The flat or fixed fare that replaced the meter, where one did (e.g. "JFK–Manhattan flat fare"). */
  fare: Schema.optional(Schema.String),
  /** The published rule that set the money, where one did. */
  tariff: Schema.optional(TariffBasis),
  /** How current the price level is, and any adjustment that brought the records' level forward. */
  level: Schema.optional(LevelBasis)
}).annotations({ identifier: "OfferSource" })
export type OfferSource = typeof OfferSource.Type

/** `"<provider>/<serviceLevel>"` (the keys of `marketPrices`) → what priced it. */
export const MarketOffers = Schema.Record({ key: Schema.String, value: OfferSource }).annotations({
  identifier: "MarketOffers",
  description: "Key \"<provider>/<service_level>\" (as in marketPrices) to the product name and the records behind its prices"
})
export type MarketOffers = typeof MarketOffers.Type

/** The answer of `POST /v1/quote`. */
export const QuoteResponse = Schema.Struct({
  requestId: RequestId,
  mode: Mode,
  currency: Currency,
  distanceKm: Schema.Number,
  durationMinutes: Schema.Number,
  recommendations: Recommendations,
  marketPrices: MarketPrices,
  /** Additive (not in the interface document): the market that priced the quote. */
  market: PricingMarket,
  /** Additive: per marketPrices key, the product name and the period of the records behind it. */
  offers: MarketOffers
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
