/**
 * Every storage port on one PostgreSQL database, shared by any number of `serve` processes:
 * the same repositories and migrations as SQLite (`@ridequote/storage-sql`), plus wake-ups
 * over LISTEN/NOTIFY so a revocation or account change reaches every instance at once.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { AccessFeed } from "@ridequote/core"
import type { StorageUnavailable } from "@ridequote/core"
import { makeAccessFeed, migrate, SqlStorageLive } from "@ridequote/storage-sql"
import type { SqlStorageOptions, StoragePorts } from "@ridequote/storage-sql"
import { Effect, Layer } from "effect"
import { makeFeedWakeups } from "./FeedListener.js"
import type { PostgresConnection } from "./PostgresClient.js"
import { postgresAuditCommit } from "./AuditWriter.js"
import { cannotOpen, clientOnPool, openPool } from "./PostgresClient.js"

/**
 * What `PostgresStorageLive` needs: the connection, and the SQL layer's storage settings except
 * the access feed, which is always the LISTEN/NOTIFY one here, and where audit batches commit
 * (always on the pool, see `postgresAuditCommit`).
 */
export interface PostgresStorageOptions
  extends Omit<SqlStorageOptions, "accessFeed" | "auditCommit" | "auditBatchesInFlight">, PostgresConnection
{}

/** The SQL feed reader, with wake-ups from a listener on its own connection. */
export const PostgresAccessFeedLive = (
  connection: PostgresConnection
): Layer.Layer<AccessFeed, never, SqlClient.SqlClient> =>
  Layer.scoped(
    AccessFeed,
    Effect.gen(function*() {
      const feed = yield* makeAccessFeed
      const wakeups = yield* makeFeedWakeups(connection)
      return AccessFeed.of({ ...feed, wakeups })
    })
  )

/** Audit batches committing at once, each on its own pooled connection (see `postgresAuditCommit`). */
export const AUDIT_BATCHES_IN_FLIGHT = 2

/**
 * Connects, applies pending migrations (serialised across processes by an advisory lock), and
 * provides all six ports. Audit batches commit on the pool's connections directly
 * (`postgresAuditCommit`), up to `AUDIT_BATCHES_IN_FLIGHT` at once. Closing the layer commits the
 * queued audit appends, then closes the pool.
 */
export const PostgresStorageLive = (options: PostgresStorageOptions): Layer.Layer<StoragePorts, StorageUnavailable> => {
  const { connectTimeout, poolSize, schema, statementTimeout, url, ...storage } = options
  const connection: PostgresConnection = { url, poolSize, schema, statementTimeout, connectTimeout }
  // One pool for the SqlClient and the audit writer; it is ended after everything built on it.
  return Layer.unwrapScoped(
    Effect.map(Effect.mapError(openPool(connection), cannotOpen), (pool) =>
      SqlStorageLive({
        ...storage,
        accessFeed: PostgresAccessFeedLive(connection),
        auditCommit: Effect.succeed(postgresAuditCommit(pool)),
        auditBatchesInFlight: AUDIT_BATCHES_IN_FLIGHT
      }).pipe(
        Layer.provide(Layer.effectDiscard(migrate).pipe(Layer.provideMerge(clientOnPool(Effect.succeed(pool)))))
      ))
  )
}
