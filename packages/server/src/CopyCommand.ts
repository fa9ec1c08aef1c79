/**
 * `ridequote copy --from DB --to DB`: moves everything (accounts, signing keys, tokens and
 * their revocations, the audit) into a new database, e.g. from the SQLite default to
 * PostgreSQL when one machine is no longer enough. Run with the services stopped; see
 * docs/scaling.md ("Moving from SQLite").
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Console, Effect, Either, Layer } from "effect"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { StorageUnavailable } from "@ridequote/core"
import { keyEncryptionFor, loadPostgres, loadSql, loadSqlite } from "./Storage.js"
import { printJson } from "./Output.js"
import { type DatabaseLocation, describeDatabase, jsonOption, parseDatabaseLocation, storageSettings } from "./Settings.js"

/** A migrated client on a location: only the tables, none of the services. */
const migratedClient = (location: DatabaseLocation): Layer.Layer<SqlClient.SqlClient, StorageUnavailable> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const { migrate } = yield* loadSql
    const client = location._tag === "Sqlite"
      ? (yield* loadSqlite).SqliteClientLive(location.filename)
      : (yield* loadPostgres).PostgresClientLive({ url: location.url, poolSize: 2 })
    return Layer.effectDiscard(migrate).pipe(Layer.provideMerge(client))
  }))

const fromOption = Options.text("from").pipe(
  Options.withPseudoName("PATH|URL"),
  Options.withDescription("Database to copy from: a SQLite file path or a postgres:// URL (left unchanged).")
)
const toOption = Options.text("to").pipe(
  Options.withPseudoName("PATH|URL"),
  Options.withDescription("Database to copy into: a new SQLite file or an empty PostgreSQL database (migrated first).")
)

export const copyCommand = Command.make(
  "copy",
  { from: fromOption, to: toOption, json: jsonOption },
  ({ from, json, to }) =>
    Effect.gen(function*() {
      const source = yield* parseDatabaseLocation(from)
      const target = yield* parseDatabaseLocation(to)
      // Signing keys move re-sealed: opened with the source's key-encryption key, sealed under
      // the one the target's instances will use (each location's own key file by default).
      const settings = yield* storageSettings
      const sourceKek = yield* keyEncryptionFor(source, settings)
      const targetKek = yield* keyEncryptionFor(target, settings)
      const sql = yield* loadSql
      const resealKey = (kid: string, stored: string) =>
        Either.map(sql.openStoredKey(stored, kid, sourceKek), (bytes) => sql.sealKey(bytes, kid, targetKek.current))
      const copied = yield* Effect.scoped(
        Effect.gen(function*() {
          const sourceContext = yield* Layer.build(migratedClient(source))
          const targetContext = yield* Layer.build(migratedClient(target))
          return yield* sql.copyDatabase(sourceContext, targetContext, resealKey)
        })
      )
      if (json) return yield* printJson({ from: describeDatabase(source), to: describeDatabase(target), copied })
      yield* Console.log(
        `Copied ${describeDatabase(source)} into ${describeDatabase(target)}: ` +
          Object.entries(copied).map(([table, n]) => `${n} ${table}`).join(", ") + "."
      )
    })
).pipe(
  Command.withDescription(
    "Copy a whole database into a new one, e.g. SQLite to PostgreSQL (stop the services first)"
  )
)
