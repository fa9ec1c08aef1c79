import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import type { TokenRecord } from "@ridequote/core"
import { AccessFeed, AccountStore, TokenStore } from "@ridequote/core"
import { Context, Effect, Layer, Option } from "effect"
import { migrateSqlite, SqliteClientLive, SqliteStorageLive } from "../src/index.js"
import { makeAccount, newCredentials, newJti, tempDirectory } from "./fixtures.js"
import { startProcess } from "./processes/spawn.js"

/** Written by processes/hold-write-lock.ts (not imported: that module runs on import). */
const OTHER_PROCESS_ACCOUNT = "00000000-0000-4000-8000-000000000001"

const dir = tempDirectory()

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0)

describe("several processes on one SQLite file", () => {
  it.scoped("a revocation and an account change made through one appear in the other's feed", () =>
    Effect.gen(function*() {
      const filename = dir.file("shared")
      const one = yield* Layer.build(SqliteStorageLive({ filename }))
      const two = yield* Layer.build(SqliteStorageLive({ filename }))
      const account = makeAccount()
      yield* Context.get(one, AccountStore).insert(account, newCredentials())
      const token: TokenRecord = { jti: newJti(), accountId: account.id, issuedAtMs: NOW, expiresAtMs: NOW + 60_000 }
      yield* Context.get(one, TokenStore).record(token)

      const feedTwo = Context.get(two, AccessFeed)
      const { cursor } = yield* feedTwo.start(NOW)
      yield* Context.get(one, TokenStore).revoke(account.id, token.jti, NOW)
      const blocked = yield* Context.get(one, AccountStore).update(account.id, (a) => ({ ...a, status: "Blocked" as const }))

      expect((yield* feedTwo.since(cursor)).changes).toEqual([
        { _tag: "TokenRevoked", accountId: account.id, jti: token.jti, expiresAtMs: token.expiresAtMs },
        { _tag: "AccountChanged", accountId: account.id }
      ])
      expect((yield* feedTwo.start(NOW)).revoked).toContainEqual({ jti: token.jti, expiresAtMs: token.expiresAtMs })
      expect(yield* Context.get(two, AccountStore).findById(account.id)).toEqual(Option.some(blocked))
    }))

  it.scopedLive("opening a file whose write lock another process holds in rollback-journal mode waits, and switches it to WAL", () =>
    Effect.gen(function*() {
      // What a second `serve` meets when it opens a new file while the first switches it to WAL:
      // SQLite refuses the switch at once (SQLITE_BUSY, no busy wait) rather than risk a deadlock.
      const filename = dir.file("rollback-locked")
      const holder = yield* startProcess("hold-rollback-lock.ts", [filename, "600"], "locked")
      yield* holder.ready
      const started = Date.now()
      const journal = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`
        return rows[0]?.journal_mode
      }).pipe(Effect.provide(SqliteClientLive(filename)))
      expect(journal).toBe("wal")
      // It waited for the holder's commit rather than failing.
      expect(Date.now() - started).toBeGreaterThan(300)
      const result = yield* holder.done
      expect([result.code, result.stdout]).toEqual([0, "locked\ncommitted\n"])
    }), 60_000)

  it.scoped("a write waits (busy_timeout) for another process's write lock instead of failing", () =>
    Effect.gen(function*() {
      const filename = dir.file("busy")
      yield* migrateSqlite(filename)
      const storage = yield* Layer.build(SqliteStorageLive({ filename }))
      const account = makeAccount()
      yield* Context.get(storage, AccountStore).insert(account, newCredentials())

      const holder = yield* startProcess("hold-write-lock.ts", [filename, "1500"], "locked")
      yield* holder.ready

      // The lock is really held: a connection that does not wait is refused at once.
      const impatient = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`PRAGMA busy_timeout = 0`
        return yield* Effect.flip(sql`DELETE FROM access_changes WHERE seq < 0`)
      }).pipe(Effect.provide(SqliteClientLive(filename)))
      expect(String(impatient.cause)).toMatch(/database is locked/)

      // Ours waits for the other process to commit, then succeeds.
      const token: TokenRecord = { jti: newJti(), accountId: account.id, issuedAtMs: NOW, expiresAtMs: NOW + 60_000 }
      yield* Context.get(storage, TokenStore).record(token)
      expect(yield* Context.get(storage, TokenStore).revoke(account.id, token.jti, NOW)).toEqual({ _tag: "Revoked", expiresAtMs: token.expiresAtMs })

      const result = yield* holder.done
      expect([result.code, result.stdout]).toEqual([0, "locked\ncommitted\n"])
      const changes = (yield* Context.get(storage, AccessFeed).since(0)).changes
      expect(changes.map((c) => (c._tag === "KeyRetired" ? c.kid : c.accountId))).toEqual([OTHER_PROCESS_ACCOUNT, account.id])
    }), 60_000)
})
