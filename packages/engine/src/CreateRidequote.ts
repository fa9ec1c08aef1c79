/**
 * `createRidequote`: the engine for services that do not use Effect. Every method returns a
 * Promise of plain JSON-shaped values (the HTTP API's shapes) and rejects with a
 * `RidequoteError` carrying the contract's error body.
 *
 * It is not a second implementation: the options choose a one-call engine of
 * `@ridequote/compose` (`RidequoteEngineLive`), a `ManagedRuntime` builds it once, and the
 * facade (Facade.ts) runs core's own services on that runtime.
 */
import { RidequoteEngineLive } from "@ridequote/compose"
import { Duration, Effect, Either, Exit, ManagedRuntime } from "effect"
import { facadeOn } from "./Facade.js"
import { fromCause, toRidequoteError } from "./FacadeErrors.js"
import { decodeInput } from "./internal/Inputs.js"
import { OptionsInput } from "./internal/Options.js"
import type { Ridequote, RidequoteOptions } from "./Ridequote.js"

const decodeOptions = decodeInput(OptionsInput, "the options")

/**
 * Starts an engine and resolves once it is ready (storage open and migrated, markets loaded).
 * Rejects with a `RidequoteError`: `result:invalid-request` for bad options, `result:unavailable`
 * when the storage cannot be reached, `result:internal` when a storage adapter is not installed
 * or a market model is invalid (the message says which).
 *
 * @example
 * ```ts
 * import { createRidequote, isRidequoteError } from "@ridequote/engine"
 *
 * const ridequote = await createRidequote({ storage: { sqlite: "./data/ridequote.db" } })
 * const { apiKey, apiSecret } = await ridequote.accounts.create({ name: "Acme Rides" })
 * const { token } = await ridequote.tokens.issue(apiKey, apiSecret)
 * try {
 *   const quote = await ridequote.quote({ token }, {
 *     pickup: { latitude: 40.758, longitude: -73.9855 },
 *     destination: { latitude: 40.6413, longitude: -73.7781 }
 *   })
 *   console.log(quote.market.id, quote.marketPrices["yellow-taxi/Standard"]?.p50)
 * } catch (error) {
 *   if (isRidequoteError(error)) console.error(error.body.code, error.body.message)
 * } finally {
 *   await ridequote.close()
 * }
 * ```
 */
export const createRidequote = async (options: RidequoteOptions = {}): Promise<Ridequote> => {
  const decoded = decodeOptions(options)
  if (Either.isLeft(decoded)) throw toRidequoteError(decoded.left)
  const { markets, refreshIntervalSeconds, routes, storage } = decoded.right
  const managed = ManagedRuntime.make(RidequoteEngineLive({
    storage,
    markets,
    routes,
    refreshInterval: refreshIntervalSeconds === undefined ? undefined : Duration.seconds(refreshIntervalSeconds)
  }))
  const started = await Effect.runPromiseExit(managed.runtimeEffect)
  if (Exit.isFailure(started)) {
    await managed.dispose()
    throw fromCause(started.cause)
  }
  return facadeOn(started.value, () => managed.dispose())
}

