/**
 * The SQLite driver the project runs on (libsql, better-sqlite3's API), typed with the few
 * calls the benchmark makes and a row type per statement (libsql's own types have none).
 */
import Libsql from "libsql"

export interface RunResult {
  changes: number
  lastInsertRowid: number | bigint
}
export interface Statement<Row = unknown> {
  run(...params: ReadonlyArray<unknown>): RunResult
  get(...params: ReadonlyArray<unknown>): Row | undefined
  all(...params: ReadonlyArray<unknown>): Array<Row>
}
export interface Options {
  timeout?: number
}
export interface Database {
  prepare<Row = unknown>(source: string): Statement<Row>
  exec(source: string): void
  pragma(source: string): unknown
  transaction<A extends ReadonlyArray<unknown>, R>(fn: (...args: A) => R): (...args: A) => R
  close(): void
}

const Database = Libsql as unknown as new(filename: string, options?: Options) => Database
export default Database
