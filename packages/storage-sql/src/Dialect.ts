/**
 * The only SQL that differs between SQLite and PostgreSQL. Everything else in this package
 * is written once, in the common subset both speak (row values, RETURNING, ON CONFLICT,
 * partial indexes). Chosen from the client with `onDialectOrElse`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * The SQL that differs per database: column types, the bind-parameter limit, and the locks and
 * notifications that keep migrations and the access feed correct under concurrent processes.
 */
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
  /**
   * First statement of every transaction that appends to the change feed: it makes the feed's
   * `seq` order its commit order. SQLite already has one writer at a time. PostgreSQL takes
   * `seq` from the identity sequence at INSERT, so a later value could commit first and a reader
   * that had already passed it would skip the earlier row forever; a transaction-scoped advisory
   * lock, held until COMMIT, makes the next writer draw its `seq` only after this one committed.
   * Feed writes are operator-rate events (revocations, account changes), so serialising them costs nothing.
   */
  readonly lockFeed: Effect.Effect<void, SqlError>
  /**
   * Tells listening instances that the feed moved (delivered at COMMIT, dropped on rollback).
   * A hint only: readers still read the feed from their cursor.
   */
  readonly notifyFeed: Effect.Effect<void, SqlError>
}

/** The LISTEN/NOTIFY channel of the access feed on PostgreSQL. */
export const FEED_CHANNEL = "ridequote_access_changes"

/** The table @effect/sql's Migrator keeps its history in. */
export const MIGRATIONS_TABLE = "effect_sql_migrations"

/**
 * The `Dialect` of the current `SqlClient`: SQLite, PostgreSQL, or a conservative standard-SQL
 * fallback for any other client (no locks, 999 bind parameters).
 */
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
        migrationLock: sql`DELETE FROM ${sql(MIGRATIONS_TABLE)} WHERE migration_id < 0`.pipe(Effect.asVoid),
        lockFeed: Effect.void,
        notifyFeed: Effect.void
      }),
      pg: () => {
        const migrationLock = sql`SELECT pg_advisory_xact_lock(7304170001)`.pipe(Effect.asVoid)
        return {
          name: "pg",
          sequencePrimaryKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
          orderedText: "TEXT COLLATE \"C\"",
          maxBindParameters: 65_535,
          // The Migrator probes the table with a statement that fails when it is missing, which
          // would abort our enclosing transaction: create it first, in a transaction of its own.
          // That one takes the lock too: concurrent CREATE TABLE IF NOT EXISTS in PostgreSQL can
          // still fail on the catalog's unique index (pg_type_typname_nsp_index).
          prepareMigrationLock: sql.withTransaction(Effect.zipRight(
            migrationLock,
            sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
              migration_id integer primary key,
              created_at timestamp with time zone not null default now(),
              name text not null
            )`
          )).pipe(Effect.asVoid),
          migrationLock,
          lockFeed: sql`SELECT pg_advisory_xact_lock(7304170002)`.pipe(Effect.asVoid),
          // NOTIFY takes no bind parameters; pg_notify does (and @effect/sql-pg 0.53's notify() is broken).
          notifyFeed: sql`SELECT pg_notify(${FEED_CHANNEL}, '')`.pipe(Effect.asVoid)
        }
      },
      orElse: () => ({
        name: "standard",
        sequencePrimaryKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        orderedText: "TEXT",
        maxBindParameters: 999,
        prepareMigrationLock: Effect.void,
        migrationLock: Effect.void,
        lockFeed: Effect.void,
        notifyFeed: Effect.void
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
