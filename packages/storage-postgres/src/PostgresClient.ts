/**
 * The PostgreSQL connection pool ridequote runs on: node-postgres through @effect/sql-pg, with
 * the pool size, timeouts and schema set here rather than left to driver defaults.
 *
 * - `statement_timeout`: a statement that runs longer is cancelled by the server, so a stuck
 *   query fails (quotes answer 503) instead of holding a pooled connection for ever.
 * - `connectionTimeoutMillis`: waiting for a connection (pool exhausted, server gone) is bounded too.
 * - `keepAlive`: TCP keepalives notice a peer that vanished without closing the socket.
 * - pool `error` events (an idle connection dropped by the server) are logged, never thrown:
 *   node-postgres would otherwise crash the process on an unhandled `error` event, and the
 *   pool replaces the connection on next use, which is how an instance recovers by itself.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { StorageUnavailable } from "@ridequote/core"
import { migrate } from "@ridequote/storage-sql"
import { Cause, Duration, Effect, Layer, Redacted, Runtime } from "effect"
import type { Scope } from "effect"
import * as Pg from "pg"

/** Pooled query connections per process when `poolSize` is not set (the server sets it from RIDEQUOTE_DB_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 10
/** PostgreSQL cancels a statement running longer than this; the request then fails as `StorageUnavailable` (503). */
export const DEFAULT_STATEMENT_TIMEOUT = Duration.seconds(5)
/** How long to wait for a connection, from the pool or a new one, before failing. */
export const DEFAULT_CONNECT_TIMEOUT = Duration.seconds(5)
export const DEFAULT_IDLE_TIMEOUT = Duration.seconds(30)
const APPLICATION_NAME = "ridequote"

/**
 * Where and how to connect: the URL plus the pool and timeout bounds above (each defaults to its
 * `DEFAULT_*`). Used by the pool, the change-feed listener and `migratePostgres` alike.
 */
export interface PostgresConnection {
  /** `postgres://user:password@host:port/database?…` (a password in it stays redacted). */
  readonly url: Redacted.Redacted<string>
  /** Connections this process may hold for queries (the change-feed listener holds one more). */
  readonly poolSize?: number | undefined
  readonly statementTimeout?: Duration.DurationInput | undefined
  readonly connectTimeout?: Duration.DurationInput | undefined
  /** Tables live in this schema (created if missing), e.g. one per test run; default: the server's search_path. */
  readonly schema?: string | undefined
}

/**
 * node-postgres settings of one connection, shared by the pool and the dedicated listener. The
 * application name (with the schema, when one is set) lets an operator tell ridequote's
 * connections apart in `pg_stat_activity`.
 */
export const clientConfig = (connection: PostgresConnection, role = "pool"): Pg.ClientConfig => ({
  connectionString: Redacted.value(connection.url),
  application_name: `${APPLICATION_NAME} ${role}${connection.schema === undefined ? "" : ` ${connection.schema}`}`.slice(0, 63),
  statement_timeout: Duration.toMillis(connection.statementTimeout ?? DEFAULT_STATEMENT_TIMEOUT),
  connectionTimeoutMillis: Duration.toMillis(connection.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT),
  keepAlive: true,
  ...(connection.schema === undefined ? {} : { options: `-c search_path=${quoteIdentifier(connection.schema)}` })
})

const quoteIdentifier = (name: string): string => `"${name.replaceAll("\"", "\"\"")}"`

/** Never the URL itself in a message: it may carry a password. */
const reasonOf = (error: unknown): string => {
  if (error instanceof SqlError) return reasonOf(error.cause ?? error.message)
  if (error instanceof Error) return error.message
  return String(error)
}

const cannotConnect = (cause: Cause.Cause<unknown>) =>
  Layer.fail(
    new StorageUnavailable({ message: `cannot connect to PostgreSQL: ${reasonOf(Cause.squash(cause))}` })
  )

const isDuplicate = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "code" in error && (error.code === "23505" || error.code === "42P06")

/** Creates the schema when one is named (before the pool, whose connections select it). */
const ensureSchema = (connection: PostgresConnection) =>
  Effect.tryPromise({
    try: async () => {
      if (connection.schema === undefined) return
      const client = new Pg.Client({ ...clientConfig(connection), options: undefined })
      await client.connect()
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(connection.schema)}`)
      } catch (error) {
        // Two processes creating it at once: IF NOT EXISTS is not atomic, the loser sees a duplicate.
        if (!isDuplicate(error)) throw error
      } finally {
        await client.end()
      }
    },
    catch: (cause) => new SqlError({ cause, message: "cannot create the schema" })
  })

/** The pool configured as above, checked with one query, and ended when the scope closes. */
export const openPool = (connection: PostgresConnection): Effect.Effect<Pg.Pool, SqlError, Scope.Scope> =>
  Effect.gen(function*() {
    yield* ensureSchema(connection)
    const runtime = yield* Effect.runtime<never>()
    const pool = new Pg.Pool({
      ...clientConfig(connection),
      max: connection.poolSize ?? DEFAULT_POOL_SIZE,
      idleTimeoutMillis: Duration.toMillis(DEFAULT_IDLE_TIMEOUT)
    })
    pool.on("error", (error) => {
      Runtime.runFork(runtime)(
        Effect.logWarning(`a pooled PostgreSQL connection failed; it will be replaced: ${error.message}`)
      )
    })
    return yield* Effect.acquireRelease(
      Effect.as(
        Effect.tryPromise({
          try: () => pool.query("SELECT 1"),
          catch: (cause) => new SqlError({ cause, message: "cannot connect" })
        }),
        pool
      ),
      () => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(Duration.seconds(2)))
    )
  })

/** The PgClient (also the generic SqlClient) on a pool that `acquire` opens. */
export const clientOnPool = (
  acquire: Effect.Effect<Pg.Pool, SqlError, Scope.Scope>
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, StorageUnavailable> =>
  PgClient.layerFromPool({ applicationName: `${APPLICATION_NAME} pool`, acquire }).pipe(Layer.catchAllCause(cannotConnect))

/** A PgClient (also provided as the generic SqlClient) on a pool configured as above. */
export const PostgresClientLive = (
  connection: PostgresConnection
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, StorageUnavailable> => clientOnPool(openPool(connection))

/** A failure to open the pool, as `PostgresClientLive` reports it. */
export const cannotOpen = (error: SqlError): StorageUnavailable =>
  new StorageUnavailable({ message: `cannot connect to PostgreSQL: ${reasonOf(error)}` })

/** `ridequote migrate` on PostgreSQL: brings the schema up to date and closes the pool. */
export const migratePostgres = (connection: PostgresConnection): Effect.Effect<void, StorageUnavailable> =>
  migrate.pipe(Effect.provide(PostgresClientLive({ ...connection, poolSize: 1 })))
