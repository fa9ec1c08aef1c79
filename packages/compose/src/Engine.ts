/**
 * Production engines in one call: core's services (`makeEngineLive`) on a storage, the
 * markets and a route resolver, as one Effect layer. Build it with `Effect.provide`,
 * `Layer.launch` or a `ManagedRuntime`; closing it flushes the audit and closes the storage.
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const accounts = yield* Accounts
 *   ...
 * })
 * Effect.runPromise(Effect.provide(program, SqliteEngineLive({ filename: "./data/ridequote.db" })))
 * ```
 */
import type { EngineConfig, Randomness } from "@ridequote/core"
import type { MarketModelInvalid } from "@ridequote/markets"
import type { Layer } from "effect"
import type { RidequoteEngine } from "./Compose.js"
import { composeEngine } from "./Compose.js"
import type { MarketsChoice, RoutesChoice } from "./Pricing.js"
import { MarketDataLive, RoutesLive } from "./Pricing.js"
import type { PostgresChoice, SqliteChoice, StorageChoice, StorageStartError } from "./Storage.js"
import { StorageLive } from "./Storage.js"

/** What building an engine can fail with: storage unreachable or its adapter missing, a bad market model file. */
export type EngineStartError = StorageStartError | MarketModelInvalid

/** Settings of every engine, all optional. */
export interface EngineOptions extends EngineConfig {
  /** Markets to price on (default `"shipped"`: the calibrated models, the sample market elsewhere). */
  readonly markets?: MarketsChoice | undefined
  /** Route resolution when a request sends no distance and duration (default `"offline"`). */
  readonly routes?: RoutesChoice | undefined
  /** Randomness source (ids, secrets, keys); default the OS CSPRNG. Tests may pass `RandomnessSeeded(n)`. */
  readonly randomness?: Layer.Layer<Randomness> | undefined
}

/** The options of `RidequoteEngineLive`: a storage choice and the engine's settings. */
export interface RidequoteEngineOptions extends EngineOptions {
  /** Default `"memory"`. */
  readonly storage?: StorageChoice | undefined
}

/** An engine on any storage choice, with the markets and routes of `options` (defaults: shipped, offline). */
export const RidequoteEngineLive = (
  options: RidequoteEngineOptions = {}
): Layer.Layer<RidequoteEngine, EngineStartError> =>
  composeEngine(
    {
      storage: StorageLive(options.storage ?? "memory"),
      markets: MarketDataLive(options.markets),
      routes: RoutesLive(options.routes),
      randomness: options.randomness
    },
    { refreshInterval: options.refreshInterval, behaviors: options.behaviors }
  )

/** The engine in this process's memory: nothing to install or run, nothing kept after exit. */
export const MemoryEngineLive = (options: EngineOptions = {}): Layer.Layer<RidequoteEngine, EngineStartError> =>
  RidequoteEngineLive({ ...options, storage: "memory" })

/**
 * The engine on a SQLite file (needs `@ridequote/storage-sqlite` installed).
 *
 * @example
 * ```ts
 * import { Accounts } from "@ridequote/core"
 * import { SqliteEngineLive } from "@ridequote/compose"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const accounts = yield* Accounts
 *   return (yield* accounts.list).length
 * })
 * const count: Promise<number> = Effect.runPromise(
 *   program.pipe(Effect.provide(SqliteEngineLive({ filename: "./data/ridequote.db" })))
 * )
 * ```
 */
export const SqliteEngineLive = (
  options: EngineOptions & Omit<SqliteChoice, "sqlite"> & { readonly filename: string }
): Layer.Layer<RidequoteEngine, EngineStartError> => {
  const { auditRetentionDays, filename, jwtSecret, keyEncryptionKey, keyEncryptionKeyFile, ...engine } = options
  return RidequoteEngineLive({
    ...engine,
    storage: { sqlite: filename, jwtSecret, auditRetentionDays, keyEncryptionKey, keyEncryptionKeyFile }
  })
}

/** The engine on a PostgreSQL database (needs `@ridequote/storage-postgres` installed). */
export const PostgresEngineLive = (
  options: EngineOptions & Omit<PostgresChoice, "postgres"> & { readonly url: PostgresChoice["postgres"] }
): Layer.Layer<RidequoteEngine, EngineStartError> => {
  const { auditRetentionDays, jwtSecret, keyEncryptionKey, keyEncryptionKeyFile, poolSize, schema, statementTimeout, url, ...engine } =
    options
  return RidequoteEngineLive({
    ...engine,
    storage: { postgres: url, jwtSecret, auditRetentionDays, keyEncryptionKey, keyEncryptionKeyFile, poolSize, schema, statementTimeout }
  })
}
