/**
 * The services operator commands act through: core's `Accounts` and `Tokens` over the shared
 * storage. Commands never write to the database behind core's back, so every change they make
 * is published on the access feed and reaches running `serve` processes within their refresh
 * interval, exactly like a change made through the HTTP API.
 */
import { Effect, Layer } from "effect"
import type { ConfigError } from "effect"
import {
  AccessSnapshotLive,
  type Accounts,
  AccountsLive,
  BehaviorsLive,
  CredentialsLive,
  RandomnessLive,
  type StorageUnavailable,
  type Tokens,
  TokensLive
} from "@ridequote/core"
import { jwtSecretConfig, parseDatabaseLocation, type SettingInvalid } from "./Settings.js"
import { type StorageError, StorageLive, type StoragePorts } from "./Storage.js"

export type OperatorServices = Accounts | Tokens

/** Accounts and Tokens over the given storage. */
export const OperatorLive: Layer.Layer<OperatorServices, StorageUnavailable, StoragePorts> = Layer.mergeAll(AccountsLive, TokensLive)
  .pipe(
    Layer.provideMerge(AccessSnapshotLive()),
    Layer.provideMerge(Layer.mergeAll(CredentialsLive, BehaviorsLive)),
    Layer.provideMerge(RandomnessLive)
  )

/** Runs an operator action against `--database`, opening and closing the storage around it. */
export const withOperator = <A, E>(
  database: string,
  action: Effect.Effect<A, E, OperatorServices>
): Effect.Effect<A, E | SettingInvalid | StorageError | ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const location = yield* parseDatabaseLocation(database)
    const jwtSecret = yield* jwtSecretConfig
    return yield* action.pipe(Effect.provide(OperatorLive.pipe(Layer.provide(StorageLive(location, jwtSecret)))))
  })
