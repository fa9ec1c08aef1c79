/**
 * The storage behind every command, chosen by `--database` / `RIDEQUOTE_DATABASE`: a SQLite
 * file (the embedded default, shareable by several processes on one machine) or a PostgreSQL
 * URL (many `serve` processes on many machines). The storage settings that every command must
 * agree on (key encryption, audit retention, pool) come from the environment.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type * as ConfigError from "effect/ConfigError"
import type { StoragePorts, StorageUnavailable } from "@ridequote/core"
import { migratePostgres, PostgresStorageLive } from "@ridequote/storage-postgres"
import { migrateSqlite, SqliteStorageLive } from "@ridequote/storage-sqlite"
import type { DatabaseLocation, SettingInvalid } from "./Settings.js"
import { storageSettings } from "./Settings.js"

export type { StoragePorts }

export type StorageError = StorageUnavailable | SettingInvalid | ConfigError.ConfigError

/** Storage for a location; building it applies pending migrations (idempotent). */
export const StorageLive = (
  location: DatabaseLocation,
  jwtSecret: Option.Option<Redacted.Redacted<string>>
): Layer.Layer<StoragePorts, StorageError> =>
  Layer.unwrapEffect(
    Effect.map(storageSettings, (settings) => {
      const shared = {
        jwtSecret: Option.getOrUndefined(jwtSecret),
        keyEncryption: Option.getOrUndefined(settings.keyEncryption),
        auditRetentionDays: Option.getOrUndefined(settings.auditRetentionDays)
      }
      switch (location._tag) {
        case "Sqlite":
          return SqliteStorageLive({ ...shared, filename: location.filename })
        case "Postgres":
          return PostgresStorageLive({
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
      return migrateSqlite(location.filename)
    case "Postgres":
      return migratePostgres({ url: location.url })
  }
}
