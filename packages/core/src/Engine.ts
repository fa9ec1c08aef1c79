/**
 * The whole engine as one layer: every core service, built on the ports an embedder or the
 * server provides (storage, a MarketData, a RouteResolver, a Randomness source).
 */
import { Layer } from "effect"
import type { AccessSnapshotConfig } from "./auth/AccessSnapshot.js"
import { AccessSnapshot, AccessSnapshotLive } from "./auth/AccessSnapshot.js"
import { Accounts, AccountsLive } from "./auth/Accounts.js"
import { Credentials, CredentialsLive } from "./auth/Credentials.js"
import { Tokens, TokensLive } from "./auth/Tokens.js"
import type { StorageUnavailable } from "./Errors.js"
import type { PricingBehavior } from "./pricing/Behaviors.js"
import { Behaviors, BehaviorsLive, makeBehaviorsLive } from "./pricing/Behaviors.js"
import { Pricing, PricingLive } from "./pricing/Pricing.js"
import { Quotes, QuotesLive } from "./pricing/Quotes.js"
import type { AccessFeed } from "./ports/AccessFeed.js"
import type { AccountStore } from "./ports/AccountStore.js"
import type { AuditLog } from "./ports/AuditLog.js"
import type { MarketData } from "./ports/MarketData.js"
import type { RouteResolver } from "./ports/RouteResolver.js"
import type { SigningKeys } from "./ports/SigningKeys.js"
import type { StorageHealth } from "./ports/StorageHealth.js"
import type { TokenStore } from "./ports/TokenStore.js"
import type { Randomness } from "./Randomness.js"

/** What the engine gives: the services hosts and embedders call. */
export type EngineServices = Tokens | Accounts | Quotes | AccessSnapshot | Credentials | Behaviors | Pricing

/** Every port a storage adapter provides (SQLite, the in-memory kit, …). */
export type StoragePorts = AccountStore | TokenStore | AccessFeed | AuditLog | SigningKeys | StorageHealth

/** What the engine needs. */
export type EnginePorts =
  | AccountStore
  | TokenStore
  | AccessFeed
  | AuditLog
  | SigningKeys
  | MarketData
  | RouteResolver
  | Randomness

/** Settings of `makeEngineLive`; both optional. */
export interface EngineConfig {
  /** How often the access snapshot reads the change feed (default 5 s, at most 60 s). */
  readonly refreshInterval?: AccessSnapshotConfig["refreshInterval"] | undefined
  /** Behaviors of the embedder's own, registered next to the built-ins. */
  readonly behaviors?: ReadonlyArray<PricingBehavior> | undefined
}

/**
 * Every core service (Accounts, Tokens, Quotes, the access snapshot, pricing) as one layer, on
 * the ports it needs (`EnginePorts`: storage, a MarketData, a RouteResolver, a Randomness
 * source). `@ridequote/engine` provides those in one call; building the layer fails with
 * StorageUnavailable when the access snapshot cannot read its first view.
 *
 * @example
 * ```ts
 * import { makeEngineLive, RandomnessLive, SampleMarketLive } from "@ridequote/core"
 * import { InMemoryStorageLive, NoRouteResolver } from "@ridequote/core/testing"
 * import { Duration, Layer } from "effect"
 *
 * // Your own ports: here the in-memory storage, the sample market, no route resolver (callers
 * // send distance and duration), and core's randomness.
 * const engine = makeEngineLive({ refreshInterval: Duration.seconds(2) }).pipe(
 *   Layer.provideMerge(Layer.mergeAll(SampleMarketLive, NoRouteResolver)),
 *   Layer.provideMerge(InMemoryStorageLive),
 *   Layer.provideMerge(RandomnessLive)
 * )
 * ```
 */
export const makeEngineLive = (
  config: EngineConfig = {}
): Layer.Layer<EngineServices, StorageUnavailable, EnginePorts> => {
  const behaviors = config.behaviors === undefined ? BehaviorsLive : makeBehaviorsLive(config.behaviors)
  // Built once and shared: Tokens and Accounts must see the same snapshot.
  const snapshot = AccessSnapshotLive(
    config.refreshInterval === undefined ? undefined : { refreshInterval: config.refreshInterval }
  )
  const pricing = PricingLive.pipe(Layer.provideMerge(behaviors))
  const foundations = Layer.mergeAll(CredentialsLive, snapshot, pricing)
  return Layer.mergeAll(TokensLive, AccountsLive, QuotesLive).pipe(Layer.provideMerge(foundations))
}

/** The engine with default settings. */
export const EngineLive: Layer.Layer<EngineServices, StorageUnavailable, EnginePorts> = makeEngineLive()

