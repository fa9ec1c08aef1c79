/**
 * A separate process that takes the database's write lock (a write inside an open
 * transaction), says "locked", holds it for the given milliseconds, then commits.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { SqliteClientLive } from "../../src/index.js"

/** The account its feed row names. */
const OTHER_PROCESS_ACCOUNT = "00000000-0000-4000-8000-000000000001"

const [filename, holdMs] = process.argv.slice(2)
if (filename === undefined || holdMs === undefined) throw new Error("usage: hold-write-lock.ts <file> <ms>")

const program = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`INSERT INTO access_changes ${sql.insert({ kind: "AccountChanged", account_id: OTHER_PROCESS_ACCOUNT, at_ms: 0 })}`
    process.stdout.write("locked\n")
    yield* Effect.sleep(Number(holdMs))
  }))
  process.stdout.write("committed\n")
}).pipe(Effect.provide(SqliteClientLive(filename)))

await Effect.runPromise(program)
