/**
 * The SQLite driver: `libsql`, a better-sqlite3-compatible synchronous API on Node-API, whose
 * native part is a prebuilt binary published as an npm package per platform
 * (`@libsql/linux-x64-gnu`, …). Node-API is stable across Node versions, so one install runs on
 * every supported line (20.19+, 22, 24, 26) with no compiler and no rebuild per line; it also
 * loads in worker threads (the audit writer). Chosen by measurement against better-sqlite3 12
 * (compiled on install; aborts on Node 24.19+), better-sqlite3 13 (segfaults on Node 20) and
 * node:sqlite (absent on Node 20): see docs/performance.md, "SQLite driver".
 *
 * Only the calls this package makes are declared here, so the driver's surface is visible in
 * one place.
 */
import { createRequire } from "node:module"

/** The result of a write statement. */
export interface RunResult {
  readonly changes: number
  readonly lastInsertRowid: number | bigint
}

/** A prepared statement. Parameters are always passed as one positional array. */
export interface Statement {
  /** True when the statement returns rows (SELECT, PRAGMA, … RETURNING). */
  readonly reader: boolean
  all(params: ReadonlyArray<unknown>): Array<unknown>
  run(params: ReadonlyArray<unknown>): RunResult
  raw(on: boolean): this
  safeIntegers(on: boolean): this
}

export interface Database {
  prepare(sql: string): Statement
  exec(sql: string): void
  close(): void
}

export interface OpenOptions {
  /** How long a statement waits for another connection's lock (busy timeout), in ms. */
  readonly timeoutMs: number
}

type Constructor = new(filename: string, options: { readonly timeout: number }) => Database

const requireHere = createRequire(import.meta.url)

/** Absolute path of the driver's entry point (the audit writer thread loads the same one). */
export const driverPath = (): string => requireHere.resolve("libsql")

let driver: Constructor | undefined

/** Opens (creating if missing) a database file, `:memory:` or a `file:` URI. */
export const openDatabase = (filename: string, options: OpenOptions): Database => {
  driver ??= requireHere("libsql") as Constructor
  return new driver(filename, { timeout: options.timeoutMs })
}
