/**
 * An @effect/sql `SqlClient` on one SQLite connection opened with the driver of `Driver.ts`.
 * @effect/sql-sqlite-node builds the same thing on better-sqlite3 and cannot take another
 * driver, hence this module: a prepared-statement cache, one connection behind a one-permit
 * semaphore (SQLite connections are not shareable between interleaved transactions), and the
 * statement compiler of @effect/sql's SQLite dialect.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { Cache, Context, Duration, Effect, Layer, Scope } from "effect"
import type { Database, Statement as DriverStatement } from "./Driver.js"
import { openDatabase } from "./Driver.js"

export interface LibsqlClientOptions {
  readonly filename: string
  /** Busy timeout of the connection, in ms (also set as `PRAGMA busy_timeout` by the caller). */
  readonly timeoutMs: number
}

const failed = (message: string) => (cause: unknown) => new SqlError({ cause, message })

/** One connection: every statement goes through the prepared-statement cache. */
const makeConnection = (db: Database) =>
  Effect.gen(function*() {
    const statements = yield* Cache.make({
      capacity: 200,
      timeToLive: Duration.minutes(10),
      lookup: (sql: string) => Effect.try({ try: () => db.prepare(sql), catch: failed("Failed to prepare statement") })
    })

    // Synchronous driver: the statement runs to completion inside this call.
    const runStatement = (statement: DriverStatement, params: ReadonlyArray<unknown>, raw: boolean) =>
      Effect.withFiberRuntime<ReadonlyArray<any>, SqlError>((fiber) => {
        statement.safeIntegers(Context.get(fiber.currentContext, Client.SafeIntegers))
        try {
          if (statement.reader) return Effect.succeed(statement.all(params))
          const result = statement.run(params)
          return Effect.succeed(raw ? (result as unknown as ReadonlyArray<any>) : [])
        } catch (cause) {
          return Effect.fail(new SqlError({ cause, message: "Failed to execute statement" }))
        }
      })

    const run = (sql: string, params: ReadonlyArray<unknown>, raw = false) =>
      Effect.flatMap(statements.get(sql), (statement) => runStatement(statement, params, raw))

    const runValues = (sql: string, params: ReadonlyArray<unknown>) =>
      Effect.acquireUseRelease(
        statements.get(sql),
        (statement) =>
          Effect.try({
            try: () => {
              if (!statement.reader) {
                statement.run(params)
                return []
              }
              statement.raw(true)
              return statement.all(params) as ReadonlyArray<ReadonlyArray<unknown>>
            },
            catch: failed("Failed to execute statement")
          }),
        (statement) => Effect.sync(() => statement.reader && statement.raw(false))
      )

    const connection: Connection = {
      execute: (sql, params, transformRows) =>
        transformRows ? Effect.map(run(sql, params), transformRows) : run(sql, params),
      executeRaw: (sql, params) => run(sql, params, true),
      executeValues: runValues,
      executeUnprepared: (sql, params, transformRows) => {
        const effect = Effect.flatMap(
          Effect.try({ try: () => db.prepare(sql), catch: failed("Failed to prepare statement") }),
          (statement) => runStatement(statement, params ?? [], false)
        )
        return transformRows ? Effect.map(effect, transformRows) : effect
      },
      executeStream: () => Effect.dieMessage("executeStream is not supported by the SQLite client")
    }
    return connection
  })

/** The client, for the life of the scope; the connection closes with it. */
export const make = (options: LibsqlClientOptions): Effect.Effect<Client.SqlClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => openDatabase(options.filename, { timeoutMs: options.timeoutMs }),
        catch: failed(`Failed to open ${options.filename}`)
      }),
      (db) => Effect.sync(() => db.close())
    )
    const connection = yield* makeConnection(db)
    const semaphore = yield* Effect.makeSemaphore(1)
    const acquirer = semaphore.withPermits(1)(Effect.succeed(connection))
    // A transaction holds the connection until its scope closes (COMMIT or ROLLBACK).
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1)))
        ),
        connection
      )
    )
    return yield* Client.make({
      acquirer,
      compiler: Statement.makeCompilerSqlite(),
      transactionAcquirer,
      // IMMEDIATE takes the write lock at BEGIN, waiting for it under busy_timeout. A deferred
      // BEGIN reads a snapshot first; if another process commits before this transaction
      // writes, SQLite refuses the upgrade at once ("database is locked"), with no wait. Two
      // `serve` processes started together on one file failed so (test/transactions.test.ts).
      beginTransaction: "BEGIN IMMEDIATE",
      spanAttributes: [["db.system.name", "sqlite"]]
    })
  })

/** The client as the generic `SqlClient`. */
export const layer = (options: LibsqlClientOptions): Layer.Layer<Client.SqlClient, SqlError> =>
  Layer.scoped(Client.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
