/**
 * The engine with nothing outside the process: in-memory storage and audit, the global sample
 * market and the offline route estimator. What an embedder or a test needs to quote at once.
 */
import { Layer } from "effect"
import type { EngineConfig, EngineServices } from "../Engine.js"
import { makeEngineLive } from "../Engine.js"
import type { StorageUnavailable } from "../Errors.js"
import { OfflineRouteResolverLive } from "../pricing/RouteEstimator.js"
import { SampleMarketLive } from "../pricing/SampleMarket.js"
import type { AuditLog } from "../ports/AuditLog.js"
import type { MarketData } from "../ports/MarketData.js"
import type { RouteResolver } from "../ports/RouteResolver.js"
import { Randomness, RandomnessLive } from "../Randomness.js"
import type { InMemoryStorage } from "./auth.js"
import { InMemoryStorageLive } from "./auth.js"
import type { InMemoryAudit } from "./pricing.js"
import { InMemoryAuditLog } from "./pricing.js"

export type InMemoryEngine =
  | EngineServices
  | InMemoryStorage
  | AuditLog
  | InMemoryAudit
  | MarketData
  | RouteResolver
  | Randomness

export interface InMemoryEngineOptions extends EngineConfig {
  /** Randomness source; defaults to the OS CSPRNG. Pass `RandomnessSeeded(n)` for reproducible ids. */
  readonly randomness?: Layer.Layer<Randomness> | undefined
}

export const makeInMemoryEngineLive = (
  options: InMemoryEngineOptions = {}
): Layer.Layer<InMemoryEngine, StorageUnavailable> => {
  const ports = Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog, SampleMarketLive, OfflineRouteResolverLive).pipe(
    Layer.provideMerge(options.randomness ?? RandomnessLive)
  )
  return makeEngineLive(options).pipe(Layer.provideMerge(ports))
}

export const InMemoryEngineLive: Layer.Layer<InMemoryEngine, StorageUnavailable> = makeInMemoryEngineLive()
