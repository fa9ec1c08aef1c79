/**
 * A PostgreSQL database of its own for a test file: created on the machine's server (trust
 * auth; RIDEQUOTE_TEST_POSTGRES_URL names another admin URL) and dropped at the end, so its
 * connections can be cut or refused without touching anybody else's. Missing PostgreSQL skips
 * the file loudly; under CI=true it fails the run.
 */
import * as Pg from "pg"
import { adminQuery, POSTGRES_URL, postgresReachable } from "@ridequote/storage-postgres/testing"

export { adminQuery }
export const postgresAvailable = await postgresReachable("the PostgreSQL end-to-end tests")

export interface TestDatabase {
  readonly name: string
  /** The URL `serve` and the CLI are given. */
  readonly url: string
  /** Refuses new connections and terminates every existing one: the database is "down" for ridequote. */
  readonly takeDown: () => Promise<number>
  readonly bringUp: () => Promise<void>
  /** Terminates every connection once (a blip: new ones are accepted at once). */
  readonly terminateConnections: () => Promise<number>
  readonly drop: () => Promise<void>
}

export const createTestDatabase = async (label: string): Promise<TestDatabase> => {
  const name = `rq_${label}_${Date.now().toString(36)}_${process.pid}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  const terminateConnections = async () =>
    (await adminQuery(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name]
    )).length
  return {
    name,
    url: url.toString(),
    terminateConnections,
    takeDown: async () => {
      await adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
      return terminateConnections()
    },
    bringUp: async () => {
      await adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
    },
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }
}

/** One statement on the test database itself (not the admin database). */
export const queryTestDatabase = async <R extends Pg.QueryResultRow = Pg.QueryResultRow>(
  db: TestDatabase,
  text: string,
  values: ReadonlyArray<unknown> = []
): Promise<ReadonlyArray<R>> => {
  const client = new Pg.Client({ connectionString: db.url, connectionTimeoutMillis: 3_000 })
  await client.connect()
  try {
    return (await client.query<R>(text, [...values])).rows
  } finally {
    await client.end()
  }
}
