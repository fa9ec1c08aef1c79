/**
 * Copies a whole ridequote database into another, empty one, across dialects (how an operator
 * moves from the SQLite default to PostgreSQL). Both ends speak the same migrated schema, so a
 * row read from one is a row the other accepts; tables go in foreign-key order, each in
 * keyset-paged chunks, so the audit of any size streams through bounded memory.
 *
 * Run it with the services stopped: rows written to the source during the copy may be missed.
 * The change feed is not copied (instances started on the target read their view from the
 * tables themselves). Signing keys are copied as `resealKey` rewrites them (the caller opens
 * each with the source's key-encryption key and seals it under the target's), else as stored.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { StorageUnavailable } from "@ridequote/core"
import { Context, Effect, Either, Schema } from "effect"
import { DbInt } from "./Columns.js"
import { chunkRows, dialect } from "./Dialect.js"
import { orUnavailable } from "./Unavailable.js"

/**
 * Tables in the order their foreign keys need, with the unique key that pages them. The audit's
 * key, `seq`, is the target's to number (an identity column on PostgreSQL): it is read to page
 * the source in arrival order but not written, so the target numbers the rows in that order.
 */
export const COPIED_TABLES = [
  { table: "accounts", key: "id", generatedKey: false },
  { table: "signing_keys", key: "kid", generatedKey: false },
  { table: "tokens", key: "jti", generatedKey: false },
  { table: "audit", key: "seq", generatedKey: true }
] as const

const PAGE = 1_000

/** Rows copied per table, as `copyDatabase` reports them to the operator. */
export type CopyReport = Readonly<Record<(typeof COPIED_TABLES)[number]["table"], number>>

const decodeCount = Schema.decodeUnknown(Schema.Array(Schema.Struct({ n: DbInt })))

const count = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`SELECT COUNT(*) AS n FROM ${sql(table)}`.pipe(
      Effect.flatMap(decodeCount),
      Effect.map((rows) => rows[0]?.n ?? 0)
    ))

/**
 * Copies every row of `source` into `target`; both migrated. Refuses a target that already
 * holds accounts, tokens or audit entries (its first signing key, made by `migrate`, is replaced).
 */
export const copyDatabase = (
  source: Context.Context<SqlClient.SqlClient>,
  target: Context.Context<SqlClient.SqlClient>,
  /** A signing key's stored secret as the target must store it; Left is a message for the operator. */
  resealKey?: (kid: string, stored: string) => Either.Either<string, string>
): Effect.Effect<CopyReport, StorageUnavailable> =>
  Effect.gen(function*() {
    const onSource = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Effect.provide(effect, source)
    const onTarget = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Effect.provide(effect, target)

    for (const table of ["accounts", "tokens", "audit"]) {
      const held = yield* onTarget(count(table))
      if (held > 0) {
        return yield* new StorageUnavailable({
          message: `the target database is not empty (${held} rows in ${table}): copy only into a new database`
        })
      }
    }
    yield* onTarget(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM signing_keys`))

    const copied: Record<string, number> = {}
    for (const { generatedKey, key, table } of COPIED_TABLES) {
      let after: unknown = undefined
      let n = 0
      for (;;) {
        const read = yield* onSource(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          after === undefined
            ? sql`SELECT * FROM ${sql(table)} ORDER BY ${sql(key)} LIMIT ${PAGE}`
            : sql`SELECT * FROM ${sql(table)} WHERE ${sql(key)} > ${after} ORDER BY ${sql(key)} LIMIT ${PAGE}`))
        const rows = table === "signing_keys" && resealKey !== undefined
          ? yield* Effect.forEach(read, (row) =>
            Either.match(resealKey(String(row["kid"]), String(row["secret"])), {
              onLeft: (message) => Effect.fail(new StorageUnavailable({ message })),
              onRight: (secret) => Effect.succeed({ ...row, secret })
            }))
          : read
        if (rows.length === 0) break
        yield* onTarget(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const d = yield* dialect
          const written = generatedKey
            ? rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => column !== key)))
            : rows
          const columns = Object.keys(written[0] ?? {}).length
          for (const chunk of chunkRows(written, columns, d.maxBindParameters)) {
            yield* sql`INSERT INTO ${sql(table)} ${sql.insert(chunk.map((row) => ({ ...row })))}`
          }
        }).pipe((effect) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(effect))))
        n += rows.length
        after = (rows.at(-1) as Record<string, unknown> | undefined)?.[key]
        if (rows.length < PAGE) break
      }
      copied[table] = n
    }
    return copied as CopyReport
  }).pipe(orUnavailable("database copy"))
