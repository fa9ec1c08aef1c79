/**
 * Pricing behaviors: how an account's recommended price points are chosen from the market.
 * A registry keyed by id; core ships built-ins (documented in docs/pricing.md) and embedders
 * register their own.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { BehaviorNotFound } from "../Errors.js"
import type { BehaviorId } from "../Ids.js"
import type { Currency, Minor } from "../Money.js"
import type { ProviderOffer, Trip } from "../ports/MarketData.js"
import type { ServiceLevel } from "../Quote.js"

export interface BehaviorInput {
  readonly serviceLevel: ServiceLevel
  readonly currency: Currency
  /** The market's offers for this service level (at least one). */
  readonly offers: ReadonlyArray<ProviderOffer>
  readonly trip: Trip
}

/** Price points in minor units; the engine enforces saver ≤ balanced ≤ priority afterwards. */
export interface PricePoints {
  readonly saver: Minor
  readonly balanced: Minor
  readonly priority: Minor
}

export interface PricingBehavior {
  readonly id: BehaviorId
  readonly description: string
  /** Pure and deterministic: equal inputs give equal points. */
  readonly recommend: (input: BehaviorInput) => PricePoints
}

export interface Behaviors {
  readonly get: (id: string) => Effect.Effect<PricingBehavior, BehaviorNotFound>
  readonly all: ReadonlyArray<PricingBehavior>
}

export const Behaviors = Context.GenericTag<Behaviors>("@ridequote/core/Behaviors")

export const DEFAULT_BEHAVIOR = "market-median" as BehaviorId
