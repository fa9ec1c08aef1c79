/**
 * Assembling an engine from its parts: the storage, the markets and the route resolver as
 * layers. A program which brings its own storage (the `ridequote` server) uses this alone.
 */
import type { EngineConfig, EngineServices, MarketData, RouteResolver, StoragePorts, StorageUnavailable } from "@ridequote/core"
import { makeEngineLive, Randomness, RandomnessLive } from "@ridequote/core"
import { Layer } from "effect"

/**
 * Everything a built engine provides: core's services (Accounts, Tokens, Quotes, …), the
 * storage ports (the audit log among them, for reading the audit back), the markets, the
 * route resolver and the randomness source.
 */
export type RidequoteEngine = EngineServices | StoragePorts | MarketData | RouteResolver | Randomness

/** The parts of an engine, as layers: what `composeEngine` assembles. */
export interface EngineParts<E1, E2, R1, R2> {
  /** The storage ports (may need the Randomness source, as the in-memory storage does). */
  readonly storage: Layer.Layer<StoragePorts, E1, R1>
  readonly markets: Layer.Layer<MarketData, E2, R2>
  readonly routes: Layer.Layer<RouteResolver>
  readonly randomness?: Layer.Layer<Randomness> | undefined
}

/**
 * Assembles an engine from its parts, in the order that makes closing graceful: the storage
 * is built first and closed last (after its audit queue is flushed), the services last and
 * closed first. The one-call engines (Engine.ts) use it, and so does `ridequote serve` (with the
 * storage, markets and routes its settings choose).
 */
export const composeEngine = <E1, E2, R1, R2>(
  parts: EngineParts<E1, E2, R1, R2>,
  config: EngineConfig = {}
): Layer.Layer<RidequoteEngine, E1 | E2 | StorageUnavailable, Exclude<R1, Randomness> | R2> =>
  makeEngineLive(config).pipe(
    Layer.provideMerge(Layer.mergeAll(parts.markets, parts.routes)),
    Layer.provideMerge(parts.storage),
    Layer.provideMerge(parts.randomness ?? RandomnessLive)
  )

