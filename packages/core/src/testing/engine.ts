/**
 * The engine with nothing outside the process: in-memory storage and audit and the global
 * sample market. What an embedder or a test needs to quote at once. Route resolution is an
 * adapter of its own: pass one (`OfflineRouteResolverLive` from @ridequote/routes) to quote
 * requests that send no distance and duration; without one such requests are refused with
 * RouteUnavailable.
 */
import { Effect, Layer } from "effect"
import type { EngineConfig, EngineServices } from "../Engine.js"
import { makeEngineLive } from "../Engine.js"
import type { StorageUnavailable } from "../Errors.js"
import { RouteUnavailable } from "../Errors.js"
import { SampleMarketLive } from "../pricing/SampleMarket.js"
import type { AuditLog } from "../ports/AuditLog.js"
import type { MarketData } from "../ports/MarketData.js"
import { RouteResolver } from "../ports/RouteResolver.js"
import { Randomness, RandomnessLive } from "../Randomness.js"
import type { InMemoryStorage } from "./auth.js"
import { InMemoryStorageLive } from "./auth.js"
import type { InMemoryAudit } from "./pricing.js"
import { InMemoryAuditLog } from "./pricing.js"

/** What the in-memory engine provides: core's services, the in-memory ports and their test controls. */
export type InMemoryEngine =
  | EngineServices
  | InMemoryStorage
  | AuditLog
  | InMemoryAudit
  | MarketData
  | RouteResolver
  | Randomness

/** Settings of `makeInMemoryEngineLive`: the engine's, plus randomness and a route resolver. */
export interface InMemoryEngineOptions extends EngineConfig {
  /** Randomness source; defaults to the OS CSPRNG. Pass `RandomnessSeeded(n)` for reproducible ids. */
  readonly randomness?: Layer.Layer<Randomness> | undefined
  /** Route resolver for requests without distance and duration; default: none (they are refused). */
  readonly routeResolver?: Layer.Layer<RouteResolver> | undefined
}

/** The in-memory engine's resolver when none is given: it says where to get one. */
export const NoRouteResolver: Layer.Layer<RouteResolver> = Layer.succeed(RouteResolver, {
  resolve: () =>
    Effect.fail(
      new RouteUnavailable({
        message:
          "no route resolver: send distanceKm and durationMinutes, or give the engine one (OfflineRouteResolverLive from @ridequote/routes)"
      })
    )
})

/**
 * The whole engine on in-memory fakes (storage you can switch off, an inspectable audit) and
 * the sample market: for tests. For a production engine in memory, see `MemoryEngineLive` in
 * `@ridequote/engine`.
 */
export const makeInMemoryEngineLive = (
  options: InMemoryEngineOptions = {}
): Layer.Layer<InMemoryEngine, StorageUnavailable> => {
  const ports = Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog, SampleMarketLive, options.routeResolver ?? NoRouteResolver).pipe(
    Layer.provideMerge(options.randomness ?? RandomnessLive)
  )
  return makeEngineLive(options).pipe(Layer.provideMerge(ports))
}

/** `makeInMemoryEngineLive()` with its defaults. */
export const InMemoryEngineLive: Layer.Layer<InMemoryEngine, StorageUnavailable> = makeInMemoryEngineLive()
