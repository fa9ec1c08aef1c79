/**
 * The machine's PostgreSQL for tests (trust auth, database `test`, or the admin URL in
 * RIDEQUOTE_TEST_POSTGRES_URL): a one-statement admin query, and the availability check every
 * PostgreSQL test file starts with. When the server is not reachable a file is skipped with a
 * loud message; under CI=true the run fails instead, so a CI machine without PostgreSQL can
 * never pass by skipping.
 */
import * as Pg from "pg"

/** Admin URL of the test server; tests create their own uniquely named databases or schemas under it. */
export const POSTGRES_URL = process.env["RIDEQUOTE_TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

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

/**
 * True when the server answers. Otherwise: under CI=true throws; locally warns that `what`
 * (e.g. "the PostgreSQL tests") is skipped, and returns false.
 */
export const postgresReachable = async (what: string): Promise<boolean> => {
  const unreachable = await adminQuery("SELECT 1").then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error))
  )
  if (unreachable === undefined) return true
  const message = `PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ":***@")} is not reachable (${unreachable})`
  if (process.env["CI"] === "true") throw new Error(`${message}: under CI=true ${what} must run`)
  console.warn(`\n${"!".repeat(100)}\n!! SKIPPING ${what}: ${message}\n${"!".repeat(100)}\n`)
  return false
}
