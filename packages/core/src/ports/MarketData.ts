/**
 * Port: markets and their price distributions. A market covers an area, has a currency, a
 * local clock and providers; for a trip it gives each (provider, service level) a price
 * distribution. The built-in sample market serves every point on Earth; calibrated markets
 * (fitted from trip records) serve their own areas.
 */
import type { DateTime, Effect } from "effect"
import { Context } from "effect"
import type { MarketNotServed } from "../Errors.js"
import type { Coordinates } from "../Geo.js"
import type { MarketId } from "../Ids.js"
import type { CoverageBox, MarketAirport, MarketOffer } from "../MarketCoverage.js"
import type { Currency } from "../Money.js"
import type { Mode, OfferSource, RouteSource, ServiceLevel } from "../Quote.js"

/** Wall-clock time where the trip starts. */
export interface LocalTime {
  /** 0..23 */
  readonly hour: number
  /** 0..1439 */
  readonly minuteOfDay: number
  /** 0 = Sunday .. 6 = Saturday */
  readonly dayOfWeek: number
  readonly dayType: "weekday" | "weekend"
}

/** What a market needs to know of a trip to price it. */
export interface Trip {
  readonly pickup: Coordinates
  readonly destination: Coordinates
  readonly distanceKm: number
  readonly durationMinutes: number
  readonly mode: Mode
  /** Resolved routes are uncertain: a market may widen its distribution for them. */
  readonly routeSource: RouteSource
  readonly localTime: LocalTime
  /**
   * When the trip starts (the scheduled time, else the moment of the request). Markets whose
   * tariff changed over time price on the tariff in force then; absent means now.
   */
  readonly departAt?: DateTime.Utc
}

/** Price in major units at quantile `q` ∈ (0, 1); must be finite, ≥ 0 and non-decreasing in `q`. */
export interface PriceDistribution {
  readonly quantile: (q: number) => number
}

/** One provider's price distribution for one service level of a trip. */
export interface ProviderOffer {
  readonly provider: string
  readonly serviceLevel: ServiceLevel
  readonly distribution: PriceDistribution
  /**
   * The product name and the records behind the price, as the response's `offers` shows them.
   * Build it once per (provider, level), not per trip: it is published as it is.
   */
  readonly source?: OfferSource
}

/** How the offline route estimator infers a route in this market. */
export interface RouteProfile {
  /** Road distance ÷ great-circle distance. */
  readonly detourFactor: number
  /** Average door-to-door speed, km/h, by local hour 0..23. */
  readonly speedKmhByHour: ReadonlyArray<number>
  /**
   * Optional: how a trip's length changes its speed, as `[km, factor]` knots in ascending km,
   * linear between them and flat beyond the ends (the hour's speed × the factor at the route's
   * distance). Long trips run on faster roads: the generic profile of the tariff cities carries
   * the factors measured on the bundled records (0.83 at 1 km … 2.06 at 30 km). Absent: 1.
   */
  readonly speedFactorByKm?: ReadonlyArray<readonly [number, number]>
}

/**
 * What a market covers, for a caller to discover without quoting (`GET /v1/markets`,
 * `ridequote markets list`): where it serves, its clock, and the basis of each offer in force
 * at a moment (tariffs and fits change over time).
 */
export interface MarketCoverage {
  /** The bounding box of the area served, in degrees (the area itself may be a polygon inside it). */
  readonly area: CoverageBox
  /** The IANA time zone of the market's clock (`solar` for the sample market: each place's solar offset). */
  readonly timeZone: string
  /** One entry per (provider, service level) offered at `at`, with what its prices rest on then. */
  readonly offers: (at: DateTime.Utc) => ReadonlyArray<Omit<MarketOffer, "key">>
  /** The airports the market serves, as callers name them (absent: none). */
  readonly airports?: ReadonlyArray<MarketAirport>
}

/**
 * How far a market's trips may go: a destination more than `km` from the market's area is
 * refused (`result:market-not-served`, reason `destination-beyond-reach`) before any route is
 * resolved or price computed. The check is on the destination's coordinates, whatever
 * distance the request supplies: a supplied distance is used as sent, but it does not make a
 * trip to another continent a local ride.
 */
export interface MarketReach {
  /** The reach, km beyond the area. */
  readonly km: number
  /** Great-circle km from a point to the market's area (0 inside it). */
  readonly distanceKm: (p: Coordinates) => number
}

/** A market: its area's currency, local clock, route profile and providers' offers. */
export interface Market {
  readonly id: MarketId
  readonly name: string
  /** True when the market's providers and prices are invented (the built-in sample market). */
  readonly sampleData?: boolean
  readonly currency: Currency
  readonly routeProfile: RouteProfile
  /** The local time at `at` for a trip starting at `where`. */
  readonly localTime: (at: DateTime.Utc, where: Coordinates) => LocalTime
  /** One offer per (provider, service level) the market has; deterministic for equal trips. */
  readonly offers: (trip: Trip) => ReadonlyArray<ProviderOffer>
  /**
   * Why a trip it has no offer for is not served, where the market can say more than "no rule
   * for this trip" (`no-rule-for-trip`, the default): a trip dated before the earliest rule it
   * knows (`no-rule-for-date`). Undefined: the default.
   */
  readonly unoffered?: (trip: Trip) => MarketNotServed | undefined
  /** What it covers, for listings; a market without it is priced as usual but not listed. */
  readonly coverage?: MarketCoverage
  /** How far its trips may go; absent: any destination (the sample market serves the whole Earth). */
  readonly reach?: MarketReach
}

/** The markets a deployment prices on, which `@ridequote/markets` (or an embedder) implements. */
export interface MarketData {
  /** The market of a pickup point. */
  readonly marketAt: (pickup: Coordinates) => Effect.Effect<Market, MarketNotServed>
  readonly markets: ReadonlyArray<Market>
}

/** The MarketData port's tag. */
export const MarketData = Context.GenericTag<MarketData>("@ridequote/core/MarketData")
