import { writeFileSync } from "node:fs"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { StorageHealth } from "@ridequote/core"
import { migrate, migrations } from "@ridequote/storage-sql"
import { Effect, Exit } from "effect"
import { BUSY_TIMEOUT_MS, migrateSqlite, SqliteClientLive, SqliteStorageLive } from "../src/index.js"
import { tempDirectory } from "./fixtures.js"
import { runProcess } from "./processes/spawn.js"

const dir = tempDirectory()

const tablesAndIndexes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ type: string; name: string }>`
    SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`
  return rows.map((row) => `${row.type}:${row.name}`)
})

describe("migrations", () => {
  it.effect("create every table and index of the schema", () =>
    Effect.gen(function*() {
      const filename = dir.file("schema")
      yield* migrateSqlite(filename)
      const objects = yield* tablesAndIndexes.pipe(Effect.provide(SqliteClientLive(filename)))
      expect(objects).toEqual(expect.arrayContaining([
        "table:accounts",
        "table:tokens",
        "table:access_changes",
        "table:audit",
        "table:signing_keys",
        "table:effect_sql_migrations",
        "index:audit_account_time",
        "index:tokens_account_live",
        "index:tokens_revoked"
      ]))
    }))

  it.effect("are idempotent: a second run changes nothing and keeps the one first signing key", () =>
    Effect.gen(function*() {
      const filename = dir.file("twice")
      yield* migrateSqlite(filename)
      const before = yield* tablesAndIndexes.pipe(Effect.provide(SqliteClientLive(filename)))
      yield* migrateSqlite(filename)
      // and once more through the storage layer, as `serve` does on every start
      yield* Effect.scoped(Effect.asVoid(Effect.provide(StorageHealth, SqliteStorageLive({ filename }))))
      const check = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const applied = yield* sql<{ migration_id: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
        const keys = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM signing_keys`
        return { objects: yield* tablesAndIndexes, applied: applied.map((r) => r.migration_id), keys: keys[0]?.n }
      })
      const after = yield* check.pipe(Effect.provide(SqliteClientLive(filename)))
      const expectedIds = (yield* migrations).map(([id]) => id)
      expect(after).toEqual({ objects: before, applied: expectedIds, keys: 1 })
    }))

  // Separate processes: in one process the driver's synchronous busy wait would block the
  // very event loop the lock holder needs to finish, so only processes show the real behaviour.
  it.live("run by two processes at once: both succeed and the schema is applied once", () =>
    Effect.gen(function*() {
      const filename = dir.file("concurrent")
      const results = yield* Effect.all(
        [runProcess("migrate.ts", [filename]), runProcess("migrate.ts", [filename])],
        { concurrency: 2 }
      )
      expect(results.map((r) => [r.code, r.stdout.trim()])).toEqual([[0, "migrated"], [0, "migrated"]])
      const counts = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const applied = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM effect_sql_migrations`
        const keys = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM signing_keys`
        return [applied[0]?.n, keys[0]?.n]
      }).pipe(Effect.provide(SqliteClientLive(filename)))
      expect(counts).toEqual([(yield* migrations).length, 1])
    }), 60_000)

  it.effect("the file is in WAL mode with synchronous FULL, a busy timeout and foreign keys on", () =>
    Effect.gen(function*() {
      const filename = dir.file("pragmas")
      const pragmas = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate
        const one = <A extends object>(name: string) => Effect.map(sql.unsafe<A>(`PRAGMA ${name}`), (rows) => rows[0])
        return {
          journal: yield* one<{ journal_mode: string }>("journal_mode"),
          synchronous: yield* one<{ synchronous: number }>("synchronous"),
          busy: yield* one<{ timeout: number }>("busy_timeout"),
          foreignKeys: yield* one<{ foreign_keys: number }>("foreign_keys")
        }
      }).pipe(Effect.provide(SqliteClientLive(filename)))
      expect(pragmas).toEqual({
        journal: { journal_mode: "wal" },
        synchronous: { synchronous: 2 }, // FULL
        busy: { timeout: BUSY_TIMEOUT_MS },
        foreignKeys: { foreign_keys: 1 }
      })
    }))

  it.effect("creates the database's missing parent directories", () =>
    Effect.gen(function*() {
      const filename = dir.file("nested").replace(/\.db$/, "/deeper/still/ridequote.db")
      yield* migrateSqlite(filename)
      const ok = yield* Effect.gen(function*() {
        const health = yield* StorageHealth
        return yield* health.ping
      }).pipe(Effect.provide(SqliteStorageLive({ filename })), Effect.exit)
      expect(Exit.isSuccess(ok)).toBe(true)
    }))

  it.effect("a file that is not a database fails with StorageUnavailable, not a defect", () =>
    Effect.gen(function*() {
      const filename = dir.file("garbage")
      writeFileSync(filename, "this is not a database, just text that is long enough to have a header".repeat(20))
      const error = yield* Effect.flip(migrateSqlite(filename))
      expect(error._tag).toBe("StorageUnavailable")
      expect(error.code).toBe("result:unavailable")
    }))
})
