/**
 * The storage behind every command, chosen by `--database` / `RIDEQUOTE_DATABASE`. A SQLite
 * file is the embedded default and may be shared by several `serve` processes and the CLI;
 * Postgres is accepted by the settings but not built yet, and says so instead of guessing.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { StoragePorts, StorageUnavailable } from "@ridequote/core"
import { migrateSqlite, SqliteStorageLive } from "@ridequote/storage-sqlite"
import type { DatabaseLocation } from "./Settings.js"

export type { StoragePorts }


export class DatabaseNotSupported extends Data.TaggedError("DatabaseNotSupported")<{ readonly message: string }> {}

const postgresNotBuilt = new DatabaseNotSupported({
  message:
    "Postgres support is not built yet: set --database / RIDEQUOTE_DATABASE to a SQLite file path (default ./data/ridequote.db)"
})

/** Fails at once for a location no adapter is built for (before anything heavy is loaded). */
export const requireBuiltAdapter = (location: DatabaseLocation): Effect.Effect<void, DatabaseNotSupported> =>
  location._tag === "Postgres" ? Effect.fail(postgresNotBuilt) : Effect.void

/** Storage for a location; building it applies pending migrations (idempotent). */
export const StorageLive = (
  location: DatabaseLocation,
  jwtSecret: Option.Option<Redacted.Redacted<string>>
): Layer.Layer<StoragePorts, DatabaseNotSupported | StorageUnavailable> => {
  switch (location._tag) {
    case "Sqlite":
      return SqliteStorageLive(
        Option.match(jwtSecret, {
          onNone: () => ({ filename: location.filename }),
          onSome: (secret) => ({ filename: location.filename, jwtSecret: secret })
        })
      )
    case "Postgres":
      return Layer.fail(postgresNotBuilt)
  }
}

/** Brings the schema up to date without starting anything else (`ridequote migrate`). */
export const migrateDatabase = (
  location: DatabaseLocation
): Effect.Effect<void, DatabaseNotSupported | StorageUnavailable> => {
  switch (location._tag) {
    case "Sqlite":
      return migrateSqlite(location.filename)
    case "Postgres":
      return Effect.fail(postgresNotBuilt)
  }
}
