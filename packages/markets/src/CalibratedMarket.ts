/**
 * A fitted market model behind core's `Market` port.
 *
 * Price quantile at level q for provider p and a trip:
 *   base(trip) × R_p,bucket(trip)(q)
 * where base is the market's fitted base fare for the trip's route source (supplied or
 * resolved route) and R is the provider's residual-ratio quantile function for the trip's
 * bucket. base > 0 and R non-decreasing in q, so quantiles never cross.
 */
import { DateTime } from "effect"
import type { LocalTime, Market, MarketId, ProviderOffer, Trip } from "@ridequote/core"
import { bucketOf, timeBucket } from "./Bucketing.js"
import { localClock } from "./LocalClock.js"
import type { BaseFare, MarketModel } from "./ModelFile.js"
import { interpolateQuantile } from "./Quantiles.js"

/** The base fare for a route and local time. */
export const baseFare = (
  fare: BaseFare,
  model: Pick<MarketModel, "buckets">,
  distanceKm: number,
  durationMinutes: number,
  time: Pick<LocalTime, "hour" | "dayType">
): number => {
  const linear = fare.intercept + fare.perKm * distanceKm + fare.perMinute * durationMinutes +
    (fare.timeShift[timeBucket(model.buckets, time)] ?? 0)
  return Number.isFinite(linear) ? Math.max(fare.floor, linear) : fare.floor
}

/** Price quantile function of one provider for one trip (shared by the market and the evaluation). */
export const priceQuantile = (
  model: MarketModel,
  providerIndex: number,
  route: "supplied" | "resolved",
  distanceKm: number,
  durationMinutes: number,
  time: Pick<LocalTime, "hour" | "dayType">
): ((q: number) => number) => {
  const base = baseFare(model.routes[route], model, distanceKm, durationMinutes, time)
  const row = model.providers[providerIndex]?.residuals[route][bucketOf(model.buckets, distanceKm, time)] ?? []
  const levels = model.quantileLevels
  return (q) => {
    const r = interpolateQuantile(levels, row, q)
    return Number.isFinite(r) ? Math.max(0, base * r) : 0
  }
}

export interface CalibratedMarket extends Market {
  readonly model: MarketModel
}

export const calibratedMarket = (model: MarketModel): CalibratedMarket => {
  const clock = localClock(model.timeZone)
  return {
    model,
    id: model.id as MarketId,
    name: model.name,
    currency: model.currency,
    routeProfile: model.routeProfile,
    // One time zone per market: `where` does not matter inside its area.
    localTime: (at) => clock(DateTime.toEpochMillis(at)),
    // Mode is not a feature: metered taxi fares do not depend on booking ahead and the trip
    // records say nothing about it (see docs, "Calibrated markets").
    offers: (trip: Trip): ReadonlyArray<ProviderOffer> =>
      model.providers.map((p, i) => ({
        provider: p.provider,
        serviceLevel: p.serviceLevel,
        distribution: {
          quantile: priceQuantile(
            model,
            i,
            trip.routeSource === "resolved" ? "resolved" : "supplied",
            trip.distanceKm,
            trip.durationMinutes,
            trip.localTime
          )
        }
      }))
  }
}
