/**
 * The machine's PostgreSQL for a bench section, through `psql` (no driver needed here): fresh
 * databases made per run and dropped at the end. BENCH_POSTGRES_URL names the server
 * (default postgres://postgres@127.0.0.1:5432/test, trust auth).
 */
import { execFileSync } from "node:child_process"
import { log } from "./rounds.js"

export const ADMIN_URL = process.env["BENCH_POSTGRES_URL"]?.trim() || "postgres://postgres@127.0.0.1:5432/test"

/** One statement; the result as unaligned text (`-A -t`). */
export const psql = (url: string, statement: string): string =>
  execFileSync("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  }).trim()

/** True when psql reaches the server. */
export const postgresReachable = (): boolean => {
  try {
    return psql(ADMIN_URL, "SELECT 1") === "1"
  } catch {
    return false
  }
}

const run = `rq_bench_${Date.now().toString(36)}_${process.pid}`
let made = 0
const created: Array<string> = []

/** The URL of database `name` on the server of BENCH_POSTGRES_URL. */
export const databaseUrl = (name: string): string => {
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * A new database (dropped by `dropDatabases`, and at exit): empty, or a copy of the database at
 * `templateUrl` (which nobody may be connected to).
 */
export const createDatabase = (templateUrl?: string): string => {
  const name = `${run}_s${++made}`
  const template = templateUrl === undefined ? "" : ` TEMPLATE ${new URL(templateUrl).pathname.slice(1)}`
  psql(ADMIN_URL, `CREATE DATABASE ${name}${template}`)
  created.push(name)
  return databaseUrl(name)
}

/** Drops one database made by `createDatabase` now. */
export const dropDatabase = (url: string): void => {
  const name = new URL(url).pathname.slice(1)
  psql(ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  created.splice(created.indexOf(name), created.includes(name) ? 1 : 0)
}

export const dropDatabases = (): void => {
  for (const name of created.splice(0)) {
    try {
      psql(ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    } catch (error) {
      log(`could not drop ${name}: ${String(error)}`)
    }
  }
}
process.on("exit", dropDatabases)
