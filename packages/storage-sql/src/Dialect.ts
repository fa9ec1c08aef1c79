/**
 * The only SQL that differs between SQLite and PostgreSQL. Everything else in this package
 * is written once, in the common subset both speak (row values, RETURNING, ON CONFLICT,
 * partial indexes). Chosen from the client with `onDialectOrElse`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

export interface Dialect {
  readonly name: string
  /** Column definition of a 64-bit, never-reused, increasing primary key (the feed's `seq`). */
  readonly sequencePrimaryKey: string
  /**
   * Column type for keys compared with `<` in keyset pages: byte order, so the database sorts
   * `requestId`s exactly as JavaScript compares them (PostgreSQL would use the locale).
   */
  readonly orderedText: string
  /** Bind parameters one statement may carry. */
  readonly maxBindParameters: number
  /** Runs outside any transaction before migrating (creates what the lock needs). */
  readonly prepareMigrationLock: Effect.Effect<void, SqlError>
  /**
   * First statement of the migration transaction: it serialises processes that migrate the
   * same database at once, so none starts serving before the schema exists.
   */
  readonly migrationLock: Effect.Effect<void, SqlError>
}

/** The table @effect/sql's Migrator keeps its history in. */
export const MIGRATIONS_TABLE = "effect_sql_migrations"

export const dialect: Effect.Effect<Dialect, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql): Dialect =>
    sql.onDialectOrElse({
      sqlite: () => ({
        name: "sqlite",
        sequencePrimaryKey: "INTEGER PRIMARY KEY AUTOINCREMENT",
        orderedText: "TEXT",
        maxBindParameters: 32_766,
        // Same definition as the Migrator's own, which then finds the table and skips it.
        prepareMigrationLock: sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
          migration_id integer PRIMARY KEY NOT NULL,
          created_at datetime NOT NULL DEFAULT current_timestamp,
          name VARCHAR(255) NOT NULL
        )`.pipe(Effect.asVoid),
        // A write as the first statement takes SQLite's write lock (waiting under busy_timeout).
        // Reading first and writing later would fail at once with SQLITE_BUSY instead of waiting.
        migrationLock: sql`DELETE FROM ${sql(MIGRATIONS_TABLE)} WHERE migration_id < 0`.pipe(Effect.asVoid)
      }),
      pg: () => ({
        name: "pg",
        sequencePrimaryKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        orderedText: "TEXT COLLATE \"C\"",
        maxBindParameters: 65_535,
        // The Migrator probes the table with a statement that fails when it is missing, which
        // would abort our enclosing transaction: create it first, outside.
        prepareMigrationLock: sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
          migration_id integer primary key,
          created_at timestamp with time zone not null default now(),
          name text not null
        )`.pipe(Effect.asVoid),
        migrationLock: sql`SELECT pg_advisory_xact_lock(7304170001)`.pipe(Effect.asVoid)
      }),
      orElse: () => ({
        name: "standard",
        sequencePrimaryKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        orderedText: "TEXT",
        maxBindParameters: 999,
        prepareMigrationLock: Effect.void,
        migrationLock: Effect.void
      })
    })
)

/** Splits rows so one multi-row statement stays under the bind-parameter limit (and a sane size). */
export const chunkRows = <A>(
  rows: ReadonlyArray<A>,
  columns: number,
  maxBindParameters: number,
  maxRows = 500
): ReadonlyArray<ReadonlyArray<A>> => {
  const size = Math.max(1, Math.min(maxRows, Math.floor(maxBindParameters / Math.max(1, columns))))
  const chunks: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size))
  return chunks
}
