/**
 * Every transaction on SQLite begins IMMEDIATE: it takes the write lock at BEGIN, waiting for it
 * under busy_timeout. A deferred BEGIN takes a read snapshot at its first SELECT; if another
 * connection commits a write before this transaction writes, SQLite refuses the upgrade at once
 * ("database is locked", SQLITE_BUSY_SNAPSHOT), with no wait. That is how two `serve` processes
 * started together on one file failed: both re-sealed the signing keys in a transaction that
 * reads them first.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { openDatabase } from "../src/Driver.js"
import { migrateSqlite, SqliteClientLive } from "../src/index.js"
import { tempDirectory } from "./fixtures.js"

const dir = tempDirectory()

describe("transactions on SQLite", () => {
  it.scoped("a transaction that reads before it writes is not refused because another connection wrote in between", () =>
    Effect.gen(function*() {
      const filename = dir.file("read-then-write")
      yield* migrateSqlite(filename)
      const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(yield* Layer.build(SqliteClientLive(filename))))
      // The other writer is a bare driver connection: a second SqlClient would run its statements
      // on our transaction's connection (@effect/sql keeps that connection in the fiber's context).
      // It does not wait for locks (busy_timeout 0): in one process, with a synchronous driver,
      // waiting would block the very transaction it waits for.
      const other = yield* Effect.acquireRelease(
        Effect.sync(() => openDatabase(filename, { timeoutMs: 0 })),
        (db) => Effect.sync(() => db.close())
      )
      const change = (id: string) =>
        `INSERT INTO access_changes (kind, account_id, jti, expires_at_ms, at_ms) VALUES ('AccountChanged', '${id}', NULL, NULL, 1)`

      const intruder = yield* Effect.gen(function*() {
        yield* sql`SELECT COUNT(*) AS n FROM access_changes`
        const intruder = Either.try(() => other.prepare(change("other")).run([]))
        yield* sql.unsafe(change("ours"))
        return intruder
      }).pipe(sql.withTransaction)

      // The other writer was the one kept out (with a busy_timeout it would have waited) ...
      expect(Either.isLeft(intruder) ? String(intruder.left) : "it wrote").toMatch(/database is locked/)
      // ... and this transaction's write, after its read, committed.
      expect(yield* sql`SELECT account_id FROM access_changes ORDER BY seq`).toEqual([{ account_id: "ours" }])
    }))

  it.scoped("a nested transaction (a savepoint) inside an IMMEDIATE one commits with it", () =>
    Effect.gen(function*() {
      const filename = dir.file("nested")
      yield* migrateSqlite(filename)
      const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(yield* Layer.build(SqliteClientLive(filename))))
      const insert = (id: string) =>
        sql`INSERT INTO access_changes (kind, account_id, jti, expires_at_ms, at_ms) VALUES ('AccountChanged', ${id}, NULL, NULL, 1)`
      yield* Effect.zipRight(insert("outer"), Effect.either(Effect.zipRight(insert("inner"), Effect.fail("undo")).pipe(sql.withTransaction)))
        .pipe(sql.withTransaction)
      expect(yield* sql`SELECT account_id FROM access_changes ORDER BY seq`).toEqual([{ account_id: "outer" }])
    }))
})
