/**
 * A market described by tariffs: each (provider, service level) has a metered price
 * (base + per km + per minute, floored at a minimum fare, plus a booking fee) times a demand
 * multiplier whose distribution depends on the local hour, the day type, the mode and how sure
 * the route is. The sample market is one; embedders and the arbitraries build others.
 */
import type { DateTime } from "effect"
import type { Coordinates } from "../Geo.js"
import type { MarketId } from "../Ids.js"
import type { Currency } from "../Money.js"
import type { LocalTime, Market, MarketCoverage, PriceDistribution, ProviderOffer, RouteProfile, Trip } from "../ports/MarketData.js"
import type { ServiceLevel } from "../Quote.js"
import { normalQuantile } from "./Quantile.js"

/** Major units of the market's currency. */
export interface Tariff {
  readonly baseFare: number
  readonly perKm: number
  readonly perMinute: number
  readonly minimumFare: number
  /** Added after the minimum-fare floor, as riders see it on a receipt. */
  readonly bookingFee: number
}

/** One provider's tariff for one service level. */
export interface TariffOffer {
  readonly provider: string
  readonly serviceLevel: ServiceLevel
  readonly tariff: Tariff
  /** Scales the demand spread: < 1 for a provider that surges little (a metered cab), > 1 for one that surges a lot. */
  readonly spreadScale: number
  /** The provider's own name for the product, shown in the response's `offers`. */
  readonly product?: string
}

/** Per local hour 0..23: the median demand multiplier and the log-sd of the multiplier. */
export interface HourlyDemand {
  readonly median: ReadonlyArray<number>
  readonly sigma: ReadonlyArray<number>
}

/** How demand moves prices by local hour, and how Scheduled trips and resolved routes differ. */
export interface DemandProfile {
  readonly weekday: HourlyDemand
  readonly weekend: HourlyDemand
  /** How Scheduled trips differ: booked ahead, the provider plans supply, so surge is damped. */
  readonly scheduled: {
    /** Share of the hour's surge (median − 1) a Scheduled trip still pays, in [0, 1]. */
    readonly surgeShare: number
    /** Multiplies the median after damping: the reservation premium (> 1) or discount (< 1). */
    readonly premium: number
    /** Multiplies the log-sd. */
    readonly spreadScale: number
  }
  /** Extra log-sd for resolved routes: the estimated distance and duration are uncertain. */
  readonly resolvedRouteSigma: number
}

/** Everything `tariffMarket` builds a market from. */
export interface TariffMarketSpec {
  readonly id: MarketId
  readonly name: string
  readonly currency: Currency
  readonly routeProfile: RouteProfile
  readonly localTime: (at: DateTime.Utc, where: Coordinates) => LocalTime
  readonly offers: ReadonlyArray<TariffOffer>
  readonly demand: DemandProfile
  /** True when the tariffs are invented (the sample market): quotes say so. */
  readonly sampleData?: boolean
  /**
   * Where it serves and its clock's zone, for listings (`Market.coverage`; its offers are the
   * tariffs above, which do not change over time). Absent: the market is not listed.
   */
  readonly coverage?: Pick<MarketCoverage, "area" | "timeZone">
}

/** The demand multiplier's lognormal parameters for one trip and offer. */
export const demandMultiplier = (
  demand: DemandProfile,
  trip: Trip,
  spreadScale: number
): { readonly median: number; readonly sigma: number } => {
  const hourly = trip.localTime.dayType === "weekend" ? demand.weekend : demand.weekday
  const hourMedian = hourly.median[trip.localTime.hour] ?? 1
  const hourSigma = hourly.sigma[trip.localTime.hour] ?? 0
  const scheduled = trip.mode === "Scheduled"
  const median = scheduled
    ? demand.scheduled.premium * (1 + demand.scheduled.surgeShare * (hourMedian - 1))
    : hourMedian
  const demandSigma = hourSigma * spreadScale * (scheduled ? demand.scheduled.spreadScale : 1)
  const routeSigma = trip.routeSource === "resolved" ? demand.resolvedRouteSigma : 0
  return { median, sigma: Math.sqrt(demandSigma * demandSigma + routeSigma * routeSigma) }
}

/**
 * price(q) = bookingFee + max(minimumFare, meter × median × exp(sigma × z(q))), where meter =
 * baseFare + perKm × distance + perMinute × duration and z is the standard normal quantile.
 * Non-decreasing in q (sigma ≥ 0), in distance and in duration; finite and ≥ 0 for finite,
 * non-negative tariffs.
 */
export const tariffDistribution = (
  tariff: Tariff,
  trip: Trip,
  multiplier: { readonly median: number; readonly sigma: number }
): PriceDistribution => {
  const meter = tariff.baseFare + tariff.perKm * trip.distanceKm + tariff.perMinute * trip.durationMinutes
  const scale = meter * multiplier.median
  const { sigma } = multiplier
  return {
    quantile: (q) => tariff.bookingFee + Math.max(tariff.minimumFare, scale * Math.exp(sigma * normalQuantile(q)))
  }
}

/** A market whose prices are tariffs times a lognormal demand multiplier (the sample market is one). */
export const tariffMarket = (spec: TariffMarketSpec): Market => {
  // Built once: every quote publishes the same source objects.
  const sources = spec.offers.map((offer) => (offer.product === undefined ? {} : { product: offer.product }))
  // The same tariffs at every moment: one list for every listing.
  const listed = spec.offers.map((offer, i) => ({
    provider: offer.provider,
    serviceLevel: offer.serviceLevel,
    source: sources[i] ?? {}
  }))
  const coverage: MarketCoverage | undefined = spec.coverage === undefined
    ? undefined
    : { area: spec.coverage.area, timeZone: spec.coverage.timeZone, offers: () => listed }
  return {
    id: spec.id,
    name: spec.name,
    currency: spec.currency,
    ...(spec.sampleData === true ? { sampleData: true } : {}),
    routeProfile: spec.routeProfile,
    localTime: spec.localTime,
    ...(coverage === undefined ? {} : { coverage }),
    offers: (trip) =>
      spec.offers.map((offer, i): ProviderOffer => ({
        provider: offer.provider,
        serviceLevel: offer.serviceLevel,
        distribution: tariffDistribution(offer.tariff, trip, demandMultiplier(spec.demand, trip, offer.spreadScale)),
        source: sources[i] ?? {}
      }))
  }
}
