/** Pricing: market percentiles and recommendations for one trip in one market. */
import { Context } from "effect"
import type { Effect } from "effect"
import type { PricingSettings } from "../Account.js"
import type { BehaviorNotFound } from "../Errors.js"
import type { BehaviorId } from "../Ids.js"
import type { Currency } from "../Money.js"
import type { Market, Trip } from "../ports/MarketData.js"
import type { MarketPrices, Recommendations } from "../Quote.js"

export interface PricedTrip {
  readonly currency: Currency
  readonly marketPrices: MarketPrices
  readonly recommendations: Recommendations
  readonly behavior: BehaviorId
  /** Recommendations of the other enabled behaviors, keyed by behavior id. */
  readonly shadow: Readonly<Record<string, Recommendations>>
}

export interface Pricing {
  readonly price: (market: Market, trip: Trip, settings: PricingSettings) => Effect.Effect<PricedTrip, BehaviorNotFound>
}

export const Pricing = Context.GenericTag<Pricing>("@ridequote/core/Pricing")
