/**
 * A fitted market model behind core's `Market` port.
 *
 * A trip is priced on the tariff regime in force at its moment (`Trip.departAt`: the
 * scheduled time, else now; a backtest's trip time). Price quantile at level q for provider p:
 *   Σ fees + metered(trip) × season(local month) × R_p,bucket(trip)(q)
 * where metered is the regime's fitted base fare for the trip's route source (supplied or
 * resolved route), season the regime's month-of-year factor for that source, and R the
 * provider's residual-ratio quantile function for the trip's bucket.
 * metered > 0 and R non-decreasing in q, so quantiles never cross.
 */
import { DateTime } from "effect"
import type { LocalTime, Market, MarketId, OfferSource, ProviderOffer, Trip } from "@ridequote/core"
import type { KnowsRoutes } from "@ridequote/routes"
import { bucketOf, timeBucket } from "./Bucketing.js"
import { localClock, localMidnight, localMonthClock } from "./LocalClock.js"
import type { BaseFare, MarketModel, Regime } from "./ModelFile.js"
import { interpolateQuantile } from "./Quantiles.js"

export type RouteKind = "supplied" | "resolved"

/** The metered base fare for a route and local time. */
export const baseFare = (
  fare: BaseFare,
  model: Pick<MarketModel, "buckets">,
  distanceKm: number,
  durationMinutes: number,
  time: Pick<LocalTime, "hour" | "dayType">
): number => {
  let linear = fare.intercept + fare.perKm * distanceKm + fare.perMinute * durationMinutes +
    (fare.timeShift[timeBucket(model.buckets, time)] ?? 0)
  const knots = fare.speedKnotsKmh
  for (let k = 0; k < knots.length; k++) {
    linear += (fare.perKnotKm[k] ?? 0) * Math.max(distanceKm, ((knots[k] ?? 0) * durationMinutes) / 60)
  }
  return Number.isFinite(linear) ? Math.max(fare.floor, linear) : fare.floor
}

/** Sum of a regime's flat fees. */
export const feeTotal = (regime: Pick<Regime, "fees">): number =>
  Object.values(regime.fees).reduce((a, b) => a + b, 0)

/** Price quantile function of one provider for one trip in one regime (shared by the market and the evaluation). */
export const priceQuantile = (
  model: MarketModel,
  regime: Regime,
  providerIndex: number,
  route: RouteKind,
  distanceKm: number,
  durationMinutes: number,
  time: Pick<LocalTime, "hour" | "dayType">,
  /** Local calendar month of the trip, 1–12; absent: no seasonal factor (the regime's average month). */
  month?: number
): ((q: number) => number) => {
  const fees = feeTotal(regime)
  const season = month === undefined ? 1 : (regime.seasonal[route][month - 1] ?? 1)
  const provider = regime.providers[providerIndex]
  const fare = provider?.routes?.[route] ?? regime.routes[route]
  const base = baseFare(fare, model, distanceKm, durationMinutes, time) * season
  const row = provider?.residuals[route][bucketOf(model.buckets, distanceKm, time)] ?? []
  const levels = model.quantileLevels
  return (q) => {
    const r = interpolateQuantile(levels, row, q)
    return Number.isFinite(r) ? fees + Math.max(0, base * r) : fees
  }
}

/**
 * The regime in force at an instant: the last one that began at or before it. Instants before
 * the first regime get the first (the oldest tariff the records show); without an instant,
 * the newest.
 */
export const regimeFinder = (model: MarketModel): ((epochMillis: number | undefined) => Regime) => {
  const starts = model.regimes.map((r) => localMidnight(model.timeZone, r.effectiveFrom))
  const newest = model.regimes[model.regimes.length - 1] as Regime
  return (at) => {
    if (at === undefined) return newest
    let i = starts.length - 1
    while (i > 0 && (starts[i] ?? 0) > at) i--
    return model.regimes[i] ?? newest
  }
}

export interface CalibratedMarket extends Market, KnowsRoutes {
  readonly model: MarketModel
  /** The regime in force at an instant (epoch ms; undefined = the newest). */
  readonly regimeAt: (epochMillis: number | undefined) => Regime
}

export const calibratedMarket = (model: MarketModel): CalibratedMarket => {
  const clock = localClock(model.timeZone)
  const monthAt = localMonthClock(model.timeZone)
  const regimeAt = regimeFinder(model)
  // What each offer publishes in the quote's `offers`, built once.
  const sources: ReadonlyArray<OfferSource> = model.providers.map((p) => ({
    ...(p.product === undefined ? {} : { product: p.product }),
    ...(p.records === undefined ? {} : { records: p.records })
  }))
  return {
    model,
    regimeAt,
    id: model.id as MarketId,
    name: model.name,
    currency: model.currency,
    routeProfile: model.routeProfile,
    // What the route resolvers of @ridequote/routes learned of this market's roads.
    routeKnowledge: model.routing,
    // One time zone per market: `where` does not matter inside its area.
    localTime: (at) => clock(DateTime.toEpochMillis(at)),
    // Mode is not a feature: metered taxi fares do not depend on booking ahead and the trip
    // records say nothing about it (see docs, "Calibrated markets").
    offers: (trip: Trip): ReadonlyArray<ProviderOffer> => {
      const at = trip.departAt === undefined ? undefined : DateTime.toEpochMillis(trip.departAt)
      const regime = regimeAt(at)
      // The season of the trip's local month (none without a moment: the regime's average month).
      const month = at === undefined ? undefined : monthAt(at)
      const route: RouteKind = trip.routeSource === "resolved" ? "resolved" : "supplied"
      return model.providers.map((p, i) => ({
        provider: p.provider,
        serviceLevel: p.serviceLevel,
        distribution: {
          quantile: priceQuantile(model, regime, i, route, trip.distanceKm, trip.durationMinutes, trip.localTime, month)
        },
        source: sources[i] ?? {}
      }))
    }
  }
}
