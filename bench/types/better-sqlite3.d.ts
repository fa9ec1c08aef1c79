/**
 * The few better-sqlite3 calls the benchmark uses (the package ships no types and
 * @types/better-sqlite3 is not a dependency of the project).
 */
declare module "better-sqlite3" {
  namespace Database {
    interface RunResult {
      changes: number
      lastInsertRowid: number | bigint
    }
    interface Statement<Row = unknown> {
      run(...params: ReadonlyArray<unknown>): RunResult
      get(...params: ReadonlyArray<unknown>): Row | undefined
      all(...params: ReadonlyArray<unknown>): Array<Row>
      pluck(toggle?: boolean): Statement<Row>
    }
    interface Options {
      readonly?: boolean
      fileMustExist?: boolean
      timeout?: number
    }
    interface Database {
      prepare<Row = unknown>(source: string): Statement<Row>
      exec(source: string): Database
      pragma(source: string, options?: { simple?: boolean }): unknown
      transaction<A extends ReadonlyArray<unknown>, R>(fn: (...args: A) => R): (...args: A) => R
      close(): void
    }
  }
  const Database: new(filename: string, options?: Database.Options) => Database.Database
  export = Database
}
