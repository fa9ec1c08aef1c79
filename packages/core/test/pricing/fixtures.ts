/** Shared test wiring: the quote engine over the sample market and an in-memory audit log. */
import { DateTime, Effect, Layer } from "effect"
import type { Account } from "../../src/Account.js"
import { greatCircleKm } from "../../src/Geo.js"
import type { AccountId, BehaviorId, RequestId } from "../../src/Ids.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { MarketData } from "../../src/ports/MarketData.js"
import type { ResolvedRoute, RouteQuery } from "../../src/ports/RouteResolver.js"
import { RouteResolver } from "../../src/ports/RouteResolver.js"
import type { PricingBehavior } from "../../src/pricing/Behaviors.js"
import { BehaviorsLive, makeBehaviorsLive } from "../../src/pricing/Behaviors.js"
import { PricingLive } from "../../src/pricing/Pricing.js"
import type { QuoteContext } from "../../src/pricing/Quotes.js"
import { QuotesLive } from "../../src/pricing/Quotes.js"
import { SampleMarketLive } from "../../src/pricing/SampleMarket.js"
import type { InMemoryAudit } from "../../src/testing/pricing.js"
import { InMemoryAuditLog } from "../../src/testing/pricing.js"
import type { Quotes } from "../../src/pricing/Quotes.js"

export const account = (overrides: Partial<Account> = {}): Account => ({
  id: "0b5c4a1e-8f3d-4c2a-9e1b-7d6f5a4b3c2d" as AccountId,
  name: "Acme Rides",
  status: "Active",
  tokenTtlSeconds: 86_400,
  pricing: { defaultBehavior: "market-median" as BehaviorId, enabledBehaviors: [] },
  createdAt: DateTime.unsafeMake(0),
  ...overrides
})

let counter = 0
/** A fresh, valid request id for each call (deterministic across runs). */
export const context = (receivedAt: DateTime.Utc = DateTime.unsafeMake(0)): QuoteContext => {
  counter += 1
  const hex = counter.toString(16).padStart(12, "0")
  return { requestId: `00000000-0000-4000-8000-${hex}` as RequestId, receivedAt }
}

export const BERLIN = { latitude: 52.52, longitude: 13.405 }
export const BERLIN_WEST = { latitude: 52.5, longitude: 13.3 }

export interface EngineOptions {
  readonly marketData?: Layer.Layer<MarketData>
  readonly routeResolver?: Layer.Layer<RouteResolver>
  readonly behaviors?: ReadonlyArray<PricingBehavior>
  readonly auditLog?: Layer.Layer<AuditLog | InMemoryAudit>
}

/**
 * Core's tests resolve routes with this stand-in (the real resolvers are adapters, in
 * @ridequote/routes): the great circle × the market's detour factor at the hour's speed, so
 * resolved routes behave like real ones (longer in the peaks, bounded by the market).
 */
export const StandInRouteResolver: Layer.Layer<RouteResolver> = Layer.succeed(RouteResolver, {
  resolve: ({ departAt, destination, market, pickup }) => {
    const km = greatCircleKm(pickup, destination) * market.routeProfile.detourFactor
    const speed = market.routeProfile.speedKmhByHour[market.localTime(departAt, pickup).hour] ?? 20
    return Effect.succeed({ distanceKm: Number(km.toFixed(2)), durationMinutes: Number((1 + (km / speed) * 60).toFixed(1)) })
  }
})

/** Quotes over the sample market, a stand-in resolver and a fresh in-memory audit log. */
export const engine = (options: EngineOptions = {}): Layer.Layer<Quotes | InMemoryAudit | AuditLog> =>
  QuotesLive.pipe(
    Layer.provide(PricingLive),
    Layer.provide(options.behaviors === undefined ? BehaviorsLive : makeBehaviorsLive(options.behaviors)),
    Layer.provide(options.marketData ?? SampleMarketLive),
    Layer.provide(options.routeResolver ?? StandInRouteResolver),
    Layer.provideMerge(options.auditLog ?? InMemoryAuditLog)
  )

/** A route resolver that answers `route` and remembers every query it was asked. */
export const recordingResolver = (route: ResolvedRoute) => {
  const queries: Array<RouteQuery> = []
  const layer = Layer.succeed(RouteResolver, {
    resolve: (query) => Effect.sync(() => { queries.push(query); return route })
  })
  return { queries, layer }
}
