/**
 * PostgreSQL under test: the machine's server (trust auth, database `test` unless
 * RIDEQUOTE_TEST_POSTGRES_URL says otherwise), one fresh schema per database a test asks for,
 * all dropped when the file's tests end, so runs never see each other's rows.
 *
 * When the server is not reachable, the tests are skipped with a loud message; under CI=true the
 * run fails instead, so a CI machine without PostgreSQL can never pass by skipping.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { DatabaseRef, StorageUnderTest } from "@ridequote/storage-sql/testing"
import { Effect, Redacted } from "effect"
import * as Pg from "pg"
import { afterAll } from "vitest"
import { PostgresClientLive, PostgresStorageLive } from "../src/index.js"

export * from "@ridequote/storage-sql/testing"

export const POSTGRES_URL = process.env["RIDEQUOTE_TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
export const url = Redacted.make(POSTGRES_URL)

/** Runs one statement on a short-lived connection outside any pool. */
export const adminQuery = async <R extends Pg.QueryResultRow = Pg.QueryResultRow>(
  text: string,
  values: ReadonlyArray<unknown> = []
): Promise<ReadonlyArray<R>> => {
  const client = new Pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 })
  await client.connect()
  try {
    return (await client.query<R>(text, [...values])).rows
  } finally {
    await client.end()
  }
}

const probe = async (): Promise<string | undefined> => {
  try {
    await adminQuery("SELECT 1")
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

const unreachable = await probe()
if (unreachable !== undefined) {
  const message = `PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ":***@")} is not reachable (${unreachable})`
  if (process.env["CI"] === "true") throw new Error(`${message}: under CI=true the PostgreSQL tests must run`)
  console.warn(`\n${"!".repeat(100)}\n!! SKIPPING the PostgreSQL tests: ${message}\n${"!".repeat(100)}\n`)
}

/** False when the server is missing (locally only; CI has already failed above). */
export const postgresAvailable = unreachable === undefined

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
