/** Pricing: market percentiles and recommendations for one trip in one market. */
import { Context, Effect, Layer } from "effect"
import type { PricingSettings } from "../Account.js"
import type { BehaviorNotFound } from "../Errors.js"
import type { BehaviorId } from "../Ids.js"
import type { Currency, Minor } from "../Money.js"
import { toMajor, toMinor } from "../Money.js"
import type { Market, PriceDistribution, ProviderOffer, Trip } from "../ports/MarketData.js"
import type {
  MarketOffers,
  MarketPrices,
  OfferSource,
  PricingMarket,
  Recommendation,
  Recommendations,
  ServiceLevel
} from "../Quote.js"
import { PERCENTILE_LEVELS, SERVICE_LEVELS } from "../Quote.js"
import type { PercentilesMinor, PricingBehavior } from "./Behaviors.js"
import { Behaviors } from "./Behaviors.js"

/** A trip priced in one market: what a quote answers and its audit keeps. */
export interface PricedTrip {
  readonly currency: Currency
  readonly marketPrices: MarketPrices
  /** Per marketPrices key: the product name and the records behind it. */
  readonly offers: MarketOffers
  /** The market that priced the trip, as the response names it. */
  readonly market: PricingMarket
  readonly recommendations: Recommendations
  readonly behavior: BehaviorId
  /** Recommendations of the other enabled behaviors, keyed by behavior id. */
  readonly shadow: Readonly<Record<string, Recommendations>>
}

/** Prices one trip in one market for an account's pricing settings. */
export interface Pricing {
  readonly price: (market: Market, trip: Trip, settings: PricingSettings) => Effect.Effect<PricedTrip, BehaviorNotFound>
}

/** The Pricing service's tag. */
export const Pricing = Context.GenericTag<Pricing>("@ridequote/core/Pricing")

/**
 * An offer's percentiles in integer minor units. A running maximum keeps them non-decreasing
 * even for a market whose distribution breaks the port's promise; a non-finite or negative
 * price becomes 0 (toMinor is total).
 */
export const offerPercentiles = (distribution: PriceDistribution, currency: Currency): PercentilesMinor => {
  const p5 = toMinor(distribution.quantile(PERCENTILE_LEVELS.p5), currency)
  const p25 = Math.max(p5, toMinor(distribution.quantile(PERCENTILE_LEVELS.p25), currency)) as Minor
  const p50 = Math.max(p25, toMinor(distribution.quantile(PERCENTILE_LEVELS.p50), currency)) as Minor
  const p75 = Math.max(p50, toMinor(distribution.quantile(PERCENTILE_LEVELS.p75), currency)) as Minor
  const p95 = Math.max(p75, toMinor(distribution.quantile(PERCENTILE_LEVELS.p95), currency)) as Minor
  return { p5, p25, p50, p75, p95 }
}

/** The offers of one service level with their percentiles, in the market's order. */
export interface LevelMarket {
  readonly serviceLevel: ServiceLevel
  readonly offers: ReadonlyArray<ProviderOffer>
  readonly percentiles: ReadonlyArray<PercentilesMinor>
}

/** A market's offers for one trip, as percentiles per provider and level. */
export interface MarketView {
  readonly marketPrices: MarketPrices
  readonly offers: MarketOffers
  /** Only levels with at least one provider, in SERVICE_LEVELS order. */
  readonly levels: ReadonlyArray<LevelMarket>
}

/**
 * `"<provider>/<serviceLevel>"`, made once per pair: the same few keys recur on every quote,
 * and a fresh template string is a new allocation that must be hashed again as a property key.
 */
const offerKeys = new Map<string, Map<string, string>>()
const offerKey = (provider: string, serviceLevel: string): string => {
  let levels = offerKeys.get(provider)
  if (levels === undefined) offerKeys.set(provider, levels = new Map())
  let key = levels.get(serviceLevel)
  if (key === undefined) levels.set(serviceLevel, key = `${provider}/${serviceLevel}`)
  return key
}

const NO_SOURCE: OfferSource = {}

/** The response's `market`, made once per market. */
const pricingMarkets = new WeakMap<Market, PricingMarket>()
/** The response's `market` for a market (id, name, whether it is sample data), made once per market and shared by its quotes. */
export const pricingMarketOf = (market: Market): PricingMarket => {
  let named = pricingMarkets.get(market)
  if (named === undefined) {
    named = { id: market.id, name: market.name, sampleData: market.sampleData === true }
    pricingMarkets.set(market, named)
  }
  return named
}

/** Prices every offer of the market for the trip: `marketPrices` and the per-level view behaviors use. */
export const marketView = (market: Market, trip: Trip): MarketView => {
  const currency = market.currency
  const marketPrices: Record<string, MarketPrices[string]> = {}
  const offers: Record<string, OfferSource> = {}
  const offersByLevel = new Map<ServiceLevel, { offers: Array<ProviderOffer>; percentiles: Array<PercentilesMinor> }>()
  for (const offer of market.offers(trip)) {
    const p = offerPercentiles(offer.distribution, currency)
    const key = offerKey(offer.provider, offer.serviceLevel)
    offers[key] = offer.source ?? NO_SOURCE
    marketPrices[key] = {
      p5: toMajor(p.p5, currency),
      p25: toMajor(p.p25, currency),
      p50: toMajor(p.p50, currency),
      p75: toMajor(p.p75, currency),
      p95: toMajor(p.p95, currency)
    }
    const group = offersByLevel.get(offer.serviceLevel)
    if (group === undefined) offersByLevel.set(offer.serviceLevel, { offers: [offer], percentiles: [p] })
    else {
      group.offers.push(offer)
      group.percentiles.push(p)
    }
  }
  const levels: Array<LevelMarket> = []
  for (const serviceLevel of SERVICE_LEVELS) {
    const group = offersByLevel.get(serviceLevel)
    if (group !== undefined) levels.push({ serviceLevel, ...group })
  }
  return { marketPrices, offers, levels }
}

/** A behavior's point as the engine publishes it: integer minor units, ≥ 0 (non-finite → 0). */
const toPoint = (x: number): number => (Number.isFinite(x) && x > 0 ? Math.round(x) : 0)

/**
 * One behavior's recommendations: exactly one point per label, in order saver, balanced,
 * priority, sorted so that saver ≤ balanced ≤ priority whatever the behavior returned.
 */
export const recommend = (
  behavior: PricingBehavior,
  view: MarketView,
  trip: Trip,
  currency: Currency
): Recommendations => {
  const out: Record<string, ReadonlyArray<Recommendation>> = {}
  for (const level of view.levels) {
    const points = behavior.recommend({
      serviceLevel: level.serviceLevel,
      currency,
      offers: level.offers,
      percentiles: level.percentiles,
      trip
    })
    let saver = toPoint(points.saver) as Minor
    let balanced = toPoint(points.balanced) as Minor
    let priority = toPoint(points.priority) as Minor
    // Three compare-and-swaps, not Array.prototype.sort, which allocates work space per call
    // (see sortSmall in Behaviors.ts).
    let swap: Minor
    if (saver > balanced) (swap = saver, saver = balanced, balanced = swap)
    if (balanced > priority) (swap = balanced, balanced = priority, priority = swap)
    if (saver > balanced) (swap = saver, saver = balanced, balanced = swap)
    out[level.serviceLevel] = [
      { price: toMajor(saver, currency), label: "saver" },
      { price: toMajor(balanced, currency), label: "balanced" },
      { price: toMajor(priority, currency), label: "priority" }
    ]
  }
  return out
}

/** The whole pricing of a trip, without effects: what `Pricing.price` does once behaviors are looked up. */
export const priceTrip = (
  market: Market,
  trip: Trip,
  behavior: PricingBehavior,
  shadowBehaviors: ReadonlyArray<PricingBehavior>
): PricedTrip => {
  const view = marketView(market, trip)
  const shadow: Record<string, Recommendations> = {}
  for (const other of shadowBehaviors) shadow[other.id] = recommend(other, view, trip, market.currency)
  return {
    currency: market.currency,
    marketPrices: view.marketPrices,
    offers: view.offers,
    market: pricingMarketOf(market),
    recommendations: recommend(behavior, view, trip, market.currency),
    behavior: behavior.id,
    shadow
  }
}

/**
 * Pricing over the behavior registry. The default behavior must exist (BehaviorNotFound
 * otherwise). An enabled behavior the registry no longer knows is skipped with a warning:
 * shadow pricing must never fail a quote.
 */
export const PricingLive: Layer.Layer<Pricing, never, Behaviors> = Layer.effect(
  Pricing,
  Effect.map(Behaviors, (behaviors): Pricing => {
    // An account's settings object is immutable until the account changes: its shadow ids are
    // worked out once, not on every quote.
    const shadowIds = new WeakMap<PricingSettings, ReadonlyArray<BehaviorId>>()
    const shadowIdsOf = (settings: PricingSettings): ReadonlyArray<BehaviorId> => {
      let ids = shadowIds.get(settings)
      if (ids === undefined) {
        ids = [...new Set(settings.enabledBehaviors)].filter((id) => id !== settings.defaultBehavior)
        shadowIds.set(settings, ids)
      }
      return ids
    }
    const shadowsOf = (ids: ReadonlyArray<BehaviorId>): Effect.Effect<ReadonlyArray<PricingBehavior>> =>
      Effect.forEach(ids, (id) =>
        behaviors.get(id).pipe(
          Effect.map((b): ReadonlyArray<PricingBehavior> => [b]),
          Effect.catchTag("BehaviorNotFound", (e) =>
            Effect.as(Effect.logWarning(`shadow pricing skipped: ${e.message}`), [] as ReadonlyArray<PricingBehavior>))
        )).pipe(Effect.map((found) => found.flat()))
    return {
      price: (market, trip, settings) => {
        const ids = shadowIdsOf(settings)
        // Most accounts price with their default behavior alone: one step, not three.
        return ids.length === 0
          ? Effect.map(behaviors.get(settings.defaultBehavior), (behavior) => priceTrip(market, trip, behavior, []))
          : Effect.flatMap(behaviors.get(settings.defaultBehavior), (behavior) =>
            Effect.map(shadowsOf(ids), (shadows) => priceTrip(market, trip, behavior, shadows)))
      }
    }
  })
)
