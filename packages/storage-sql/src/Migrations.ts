/**
 * The schema, as versioned migrations for @effect/sql's Migrator. `migrate` is idempotent and
 * runs on every `serve` start; several processes may run it at once (the dialect's lock
 * serialises them, and the later ones find nothing to do).
 *
 * Times are epoch milliseconds in 64-bit integers: they sort and compare as numbers in both
 * dialects, which the keyset pages and expiry checks rely on.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { StorageUnavailable } from "@ridequote/core"
import { StorageUnavailable as Unavailable } from "@ridequote/core"
import { Clock, Effect, Option } from "effect"
import { dialect } from "./Dialect.js"
import { newSigningKeyRow } from "./SigningKeyRow.js"
import { orUnavailable } from "./Unavailable.js"

const createSchema = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const d = yield* dialect
  yield* sql`CREATE TABLE accounts (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    token_ttl_seconds INTEGER NOT NULL,
    pricing TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    api_key TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX accounts_created ON accounts (created_at_ms, id)`

  yield* sql`CREATE TABLE tokens (
    jti TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    issued_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL,
    revoked_at_ms BIGINT
  )`
  // revoke-all: the account's tokens still in force.
  yield* sql`CREATE INDEX tokens_account_live ON tokens (account_id, expires_at_ms) WHERE revoked_at_ms IS NULL`
  // AccessFeed.start: revocations not yet expired.
  yield* sql`CREATE INDEX tokens_revoked ON tokens (expires_at_ms) WHERE revoked_at_ms IS NOT NULL`
  // Retention: tokens long expired.
  yield* sql`CREATE INDEX tokens_expiry ON tokens (expires_at_ms)`

  yield* sql`CREATE TABLE access_changes (
    seq ${sql.literal(d.sequencePrimaryKey)},
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    jti TEXT,
    expires_at_ms BIGINT,
    at_ms BIGINT NOT NULL
  )`
  yield* sql`CREATE INDEX access_changes_at ON access_changes (at_ms)`

  yield* sql`CREATE TABLE audit (
    request_id ${sql.literal(d.orderedText)} PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL,
    received_at_ms BIGINT NOT NULL,
    entry TEXT NOT NULL
  )`
  // Keyset pages: account first (tenant isolation), then the page order.
  yield* sql`CREATE INDEX audit_account_time ON audit (account_id, received_at_ms DESC, request_id DESC)`

  yield* sql`CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY NOT NULL,
    secret TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    retired_at_ms BIGINT
  )`
})

/** A fresh database gets its first signing key, so every process sharing it signs alike. */
const firstSigningKey = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const now = yield* Clock.currentTimeMillis
  yield* sql`INSERT INTO signing_keys ${sql.insert({ ...newSigningKeyRow(), created_at_ms: now })}`
})

/**
 * Accounts get a version (caches keep the newest they saw; updates compare-and-set it) and the
 * revoke-all cutoff; the audit gets an index on time alone for retention's oldest-first deletes
 * (dropped again by migration 5).
 */
const accountVersionsAndAuditRetention = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN version BIGINT NOT NULL DEFAULT 1`
  yield* sql`ALTER TABLE accounts ADD COLUMN tokens_revoked_before_ms BIGINT`
  yield* sql`CREATE INDEX audit_received ON audit (received_at_ms)`
})

/**
 * The audit stored in arrival order (issue 23). Its primary key was the request id, a random
 * UUID: every append landed on a random leaf of an index that, past a few hundred thousand
 * entries, no longer fits the page cache, and each group commit then wrote (and later
 * checkpointed) one index page per row. Measured here, the audit writer's CPU per row rose from
 * ~37 to ~50 µs and quotes/s fell to ×0.68 over 830,000 quotes (docs/performance.md, "Throughput
 * that holds"). Now rows are keyed by `seq`, an integer that only grows, so the table and every
 * index are appended at their edge; the page index (account, time, request id) is the unique key
 * that makes a retried append a no-op, as the request id was, and still serves keyset pages.
 *
 * SQLite cannot drop a primary key, so its table is rebuilt (in arrival order); PostgreSQL's
 * heap is already in arrival order and only its keys change. Both end with the same columns.
 */
const auditInArrivalOrder = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    sqlite: () =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE audit_in_arrival_order (
          seq INTEGER PRIMARY KEY NOT NULL,
          request_id TEXT NOT NULL,
          account_id TEXT NOT NULL,
          received_at_ms BIGINT NOT NULL,
          entry TEXT NOT NULL
        )`
        yield* sql`INSERT INTO audit_in_arrival_order (request_id, account_id, received_at_ms, entry)
          SELECT request_id, account_id, received_at_ms, entry FROM audit ORDER BY received_at_ms, request_id`
        yield* sql`DROP TABLE audit`
        yield* sql`ALTER TABLE audit_in_arrival_order RENAME TO audit`
        yield* sql`CREATE UNIQUE INDEX audit_account_time ON audit (account_id, received_at_ms DESC, request_id DESC)`
        yield* sql`CREATE INDEX audit_received ON audit (received_at_ms)`
      }),
    orElse: () =>
      Effect.gen(function*() {
        yield* sql`ALTER TABLE audit DROP CONSTRAINT audit_pkey`
        yield* sql`DROP INDEX audit_account_time`
        yield* sql`CREATE UNIQUE INDEX audit_account_time ON audit (account_id, received_at_ms DESC, request_id DESC)`
        yield* sql`ALTER TABLE audit ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY`
      })
  })
})

/**
 * The audit's time index goes (issue 23). Retention walks the primary key now (`pruneAudit`), and
 * nothing else reads by time alone; the index cost every append one more index entry (~5 % of
 * PostgreSQL's WAL per entry, 22 bytes on disk), and on PostgreSQL it gave the planner a wrong
 * way to serve an account's page: scan the whole audit backwards by time and filter on the
 * account. Measured on 1,000,000 entries whose newest 400,000 belong to other accounts: a page
 * of the quiet account took 227 ms that way (400,000 rows read and discarded), 0.05 ms through
 * `audit_account_time` (docs/performance.md, "Throughput that holds").
 */
const auditWithoutTimeIndex = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS audit_received`
})

/** The Migrator's loader: id and name come from each key, in id order. */
export const migrations: Migrator.Loader = Migrator.fromRecord({
  "1_create_schema": createSchema,
  "2_first_signing_key": firstSigningKey,
  "3_account_versions_and_audit_retention": accountVersionsAndAuditRetention,
  "4_audit_in_arrival_order": auditInArrivalOrder,
  "5_audit_without_time_index": auditWithoutTimeIndex
})

const runMigrations = Migrator.make({})

const migrationFailed = (error: Migrator.MigrationError): StorageUnavailable =>
  new Unavailable({ message: `migration failed: ${error.message}` })

/** Brings the schema up to date; safe to run on every start and from several processes at once. */
export const migrate: Effect.Effect<void, StorageUnavailable, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const d = yield* dialect
  yield* d.prepareMigrationLock
  // The Migrator's own transaction nests as a savepoint inside ours, behind the lock.
  yield* sql.withTransaction(Effect.zipRight(d.migrationLock, runMigrations({ loader: migrations })))
}).pipe(
  Effect.catchTag("MigrationError", (e) => Effect.fail(migrationFailed(e))),
  // The Migrator raises a failing migration as a defect carrying a MigrationError.
  Effect.catchSomeDefect((defect) =>
    defect instanceof Migrator.MigrationError ? Option.some(Effect.fail(migrationFailed(defect))) : Option.none()
  ),
  orUnavailable("migrate")
)
