/**
 * Pricing behaviors: how an account's recommended price points are chosen from the market.
 * A registry keyed by id; core ships built-ins (documented in docs/pricing.md) and embedders
 * register their own with `makeBehaviorsLive`.
 */
import { Context, Effect, Layer } from "effect"
import { BehaviorNotFound } from "../Errors.js"
import type { BehaviorId } from "../Ids.js"
import type { Currency, Minor } from "../Money.js"
import type { ProviderOffer, Trip } from "../ports/MarketData.js"
import type { ServiceLevel } from "../Quote.js"

/** One offer's market percentiles in minor units, as they appear (in major units) in `marketPrices`. */
export interface PercentilesMinor {
  readonly p5: Minor
  readonly p25: Minor
  readonly p50: Minor
  readonly p75: Minor
  readonly p95: Minor
}

/** What a pricing behavior sees of one service level of one trip. */
export interface BehaviorInput {
  readonly serviceLevel: ServiceLevel
  readonly currency: Currency
  /** The market's offers for this service level (at least one). */
  readonly offers: ReadonlyArray<ProviderOffer>
  /** `percentiles[i]` are the rounded, non-decreasing percentiles of `offers[i]`. */
  readonly percentiles: ReadonlyArray<PercentilesMinor>
  readonly trip: Trip
}

/** Price points in minor units; the engine rounds, floors at 0 and sorts them afterwards. */
export interface PricePoints {
  readonly saver: number
  readonly balanced: number
  readonly priority: number
}

/**
 * A pricing behavior: turns a service level's market percentiles into the three recommended
 * points (saver, balanced, priority). Register your own with `makeBehaviorsLive` or the
 * `behaviors` setting of `makeEngineLive` (docs/pricing.md, "Behaviors").
 */
export interface PricingBehavior {
  readonly id: BehaviorId
  readonly description: string
  /** Pure and deterministic: equal inputs give equal points. */
  readonly recommend: (input: BehaviorInput) => PricePoints
}

/** The registry of pricing behaviors, by id. */
export interface Behaviors {
  readonly get: (id: string) => Effect.Effect<PricingBehavior, BehaviorNotFound>
  readonly all: ReadonlyArray<PricingBehavior>
}

/** The Behaviors service's tag. */
export const Behaviors = Context.GenericTag<Behaviors>("@ridequote/core/Behaviors")

/** The behavior of a new account unless one is named. */
export const DEFAULT_BEHAVIOR = "market-median" as BehaviorId

type Level = keyof PercentilesMinor

/**
 * Ascending, in place, by insertion: a level has a handful of providers, and V8's
 * `Array.prototype.sort` allocated ~3 KB of work space per call (a quarter of a quote's
 * garbage over HTTP, docs/performance.md).
 */
const sortSmall = (xs: Array<number>): Array<number> => {
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i] ?? 0
    let j = i - 1
    while (j >= 0 && (xs[j] ?? 0) > x) {
      xs[j + 1] = xs[j] ?? 0
      j--
    }
    xs[j + 1] = x
  }
  return xs
}

/** Median across providers; for an even count, the midpoint of the middle two. */
const medianOf = (input: BehaviorInput, level: Level): number => {
  const ps = input.percentiles
  // Most levels have one to three providers: their median without building an array.
  const a = ps[0]?.[level] ?? 0
  if (ps.length === 1) return a
  const b = ps[1]?.[level] ?? a
  if (ps.length === 2) return (a + b) / 2
  if (ps.length === 3) {
    const c = ps[2]?.[level] ?? b
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c))
  }
  const xs = sortSmall(ps.map((p) => p[level]))
  const mid = xs.length >> 1
  const upper = xs[mid] ?? 0
  return xs.length % 2 === 1 ? upper : ((xs[mid - 1] ?? upper) + upper) / 2
}

const minOf = (input: BehaviorInput, level: Level): number =>
  input.percentiles.reduce((m, p) => Math.min(m, p[level]), Number.POSITIVE_INFINITY)

/** Follows the market: the cross-provider median of p25, p50 and p75. */
export const marketMedianBehavior: PricingBehavior = {
  id: DEFAULT_BEHAVIOR,
  description: "Cross-provider median of the market's p25 (saver), p50 (balanced) and p75 (priority).",
  recommend: (input) => ({
    saver: medianOf(input, "p25"),
    balanced: medianOf(input, "p50"),
    priority: medianOf(input, "p75")
  })
}

/** Share below the cheapest provider that `undercut` prices at. */
export const UNDERCUT_SHARE = 0.05

/** Wins on price: 5 % below the cheapest provider at each of p25, p50 and p75. */
export const undercutBehavior: PricingBehavior = {
  id: "undercut" as BehaviorId,
  description: "5 % below the cheapest provider's p25 (saver), p50 (balanced) and p75 (priority).",
  recommend: (input) => ({
    saver: (1 - UNDERCUT_SHARE) * minOf(input, "p25"),
    balanced: (1 - UNDERCUT_SHARE) * minOf(input, "p50"),
    priority: (1 - UNDERCUT_SHARE) * minOf(input, "p75")
  })
}

/** Sells availability: one bracket up the market, the cross-provider median of p50, p75 and p95. */
export const premiumBehavior: PricingBehavior = {
  id: "premium" as BehaviorId,
  description: "Cross-provider median of the market's p50 (saver), p75 (balanced) and p95 (priority).",
  recommend: (input) => ({
    saver: medianOf(input, "p50"),
    balanced: medianOf(input, "p75"),
    priority: medianOf(input, "p95")
  })
}

/** The behaviors every registry has: market-median, undercut and premium (docs/pricing.md). */
export const builtInBehaviors: ReadonlyArray<PricingBehavior> = [marketMedianBehavior, undercutBehavior, premiumBehavior]

/** A registry of the built-ins plus `extra`; an extra behavior with a built-in's id replaces it. */
export const makeBehaviors = (extra: ReadonlyArray<PricingBehavior> = []): Behaviors => {
  const byId = new Map<string, PricingBehavior>()
  for (const behavior of [...builtInBehaviors, ...extra]) byId.set(behavior.id, behavior)
  const found = new Map<string, Effect.Effect<PricingBehavior>>()
  for (const [id, behavior] of byId) found.set(id, Effect.succeed(behavior))
  return {
    get: (id) =>
      found.get(id) ?? Effect.fail(new BehaviorNotFound({ message: `unknown pricing behavior "${id}"` })),
    all: [...byId.values()]
  }
}

/** Behaviors with the built-ins and the embedder's own. */
export const makeBehaviorsLive = (extra: ReadonlyArray<PricingBehavior>): Layer.Layer<Behaviors> =>
  Layer.succeed(Behaviors, makeBehaviors(extra))

/** Behaviors with the built-ins only. */
export const BehaviorsLive: Layer.Layer<Behaviors> = makeBehaviorsLive([])
