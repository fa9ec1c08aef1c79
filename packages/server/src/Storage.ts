/**
 * The storage behind every command, chosen by `--database` / `RIDEQUOTE_DATABASE`: a SQLite
 * file (the embedded default, shareable by several processes on one machine) or a PostgreSQL
 * URL (many `serve` processes on many machines). The storage settings that every command must
 * agree on (key encryption, audit retention, pool) come from the environment, and the
 * key-encryption key, without one there, from its file (KeyEncryptionKeyFile.ts).
 */
import { Effect, Layer, Option } from "effect"
import type { ConfigError, Redacted } from "effect"
import type { StoragePorts, StorageUnavailable } from "@ridequote/core"
import type { DatabaseLocation, SettingInvalid, StorageSettings } from "./Settings.js"
import { storageSettings } from "./Settings.js"
import { defaultKeyFile, keyEncryptionKeyFromFile } from "./KeyEncryptionKeyFile.js"

export type { StoragePorts }

/**
 * The storage adapters are loaded when a command opens a database, not when the program
 * starts: `--help`, usage errors and the commands that need no database never pay for
 * SQLite's native module or the PostgreSQL client (a third of the compiled program).
 */
export const loadSqlite = Effect.promise(() => import("@ridequote/storage-sqlite"))
export const loadPostgres = Effect.promise(() => import("@ridequote/storage-postgres"))
export const loadSql = Effect.promise(() => import("@ridequote/storage-sql"))

export type StorageError = StorageUnavailable | SettingInvalid | ConfigError.ConfigError

/**
 * The key-encryption key that seals the signing keys a location keeps: database-kept keys are
 * always sealed, under the KEK from the environment, else under the one in the key file
 * (created on first use; KeyEncryptionKeyFile.ts).
 */
export const keyEncryptionFor = (
  location: DatabaseLocation,
  settings: StorageSettings
): Effect.Effect<KeyEncryption, SettingInvalid> =>
  Option.isSome(settings.keyEncryption)
    ? Effect.succeed(settings.keyEncryption.value)
    : Effect.map(
      keyEncryptionKeyFromFile(Option.getOrElse(settings.keyEncryptionKeyFile, () => defaultKeyFile(location))),
      (current) => ({ current, previous: [] })
    )

export type KeyEncryption = {
  readonly current: Redacted.Redacted<Uint8Array>
  readonly previous: ReadonlyArray<Redacted.Redacted<Uint8Array>>
}

/** Storage for a location; building it applies pending migrations (idempotent). */
export const StorageLive = (
  location: DatabaseLocation,
  jwtSecret: Option.Option<Redacted.Redacted<string>>
): Layer.Layer<StoragePorts, StorageError> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const settings = yield* storageSettings
      // A fixed RIDEQUOTE_JWT_SECRET stores no key, so it needs no key-encryption key.
      const keyEncryption = Option.isSome(jwtSecret) ? undefined : yield* keyEncryptionFor(location, settings)
      const shared = {
        jwtSecret: Option.getOrUndefined(jwtSecret),
        keyEncryption,
        auditRetentionDays: Option.getOrUndefined(settings.auditRetentionDays)
      }
      switch (location._tag) {
        case "Sqlite":
          return (yield* loadSqlite).SqliteStorageLive({ ...shared, filename: location.filename })
        case "Postgres":
          return (yield* loadPostgres).PostgresStorageLive({
            ...shared,
            url: location.url,
            poolSize: settings.poolSize,
            statementTimeout: settings.statementTimeout
          })
      }
    })
  )

/** Brings the schema up to date without starting anything else (`ridequote migrate`). */
export const migrateDatabase = (location: DatabaseLocation): Effect.Effect<void, StorageUnavailable> => {
  switch (location._tag) {
    case "Sqlite":
      return Effect.flatMap(loadSqlite, (m) => m.migrateSqlite(location.filename))
    case "Postgres":
      return Effect.flatMap(loadPostgres, (m) => m.migratePostgres({ url: location.url }))
  }
}
