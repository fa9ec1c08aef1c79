/**
 * PostgreSQL under test: the machine's server (trust auth, database `test` unless
 * RIDEQUOTE_TEST_POSTGRES_URL says otherwise), one fresh schema per database a test asks for,
 * all dropped when the file's tests end, so runs never see each other's rows.
 * A missing server skips the tests loudly, or fails the run under CI=true (see ../testing).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { DatabaseRef, StorageUnderTest } from "@ridequote/storage-sql/testing"
import { Effect, Redacted } from "effect"
import { adminQuery, POSTGRES_URL, postgresReachable } from "../testing/index.js"
import { afterAll } from "vitest"
import { PostgresClientLive, PostgresStorageLive } from "../src/index.js"

export * from "@ridequote/storage-sql/testing"

export { adminQuery, POSTGRES_URL } from "../testing/index.js"
export const url = Redacted.make(POSTGRES_URL)

/** False when the server is missing (locally only; under CI=true the file has already failed). */
export const postgresAvailable = await postgresReachable("the PostgreSQL tests")

const run = `rq_${Date.now().toString(36)}_${process.pid}`
let schemas = 0
const created: Array<string> = []

/** A schema name unique to this run (lower case, so it needs no quoting anywhere). */
export const newSchema = (label: string): string => {
  const schema = `${run}_${++schemas}_${label.toLowerCase().replace(/[^a-z0-9]/g, "")}`.slice(0, 63)
  created.push(schema)
  return schema
}

afterAll(async () => {
  if (!postgresAvailable || created.length === 0) return
  await adminQuery(created.map((schema) => `DROP SCHEMA IF EXISTS "${schema}" CASCADE`).join("; "))
})

/** Each database is a new schema in the test database. */
export const postgresUnderTest = (): StorageUnderTest => ({
  name: "PostgreSQL",
  newDatabase: (label) => newSchema(label) as DatabaseRef,
  storage: (db, settings) => PostgresStorageLive({ ...settings, url, schema: db }),
  client: (db) => PostgresClientLive({ url, schema: db, poolSize: 2 })
})

/** Backends of this run's schema, by role ("pool", "listen"), for tests that cut connections. */
export const terminateBackends = (schema: string, role: "pool" | "listen") =>
  Effect.promise(() =>
    adminQuery<{ pid: number }>(
      `SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
      [`ridequote ${role} ${schema}`.slice(0, 63)]
    )
  ).pipe(Effect.map((rows) => rows.length))

export const sqlClient = SqlClient.SqlClient
