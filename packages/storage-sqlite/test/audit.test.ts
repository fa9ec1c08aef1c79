/**
 * SQLite's own side of the audit: the keyset page's query plan and the table's shape. Everything else the audit
 * promises is in the shared storage contract (contract.test.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { AuditLog } from "@ridequote/core"
import { auditPageStatement } from "@ridequote/storage-sql"
import { DateTime, Effect, Layer } from "effect"
import { at, auditRecord, makeAccount, sqliteUnderTest, storageWithClient } from "./fixtures.js"

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0)

describe("AuditLog on SQLite: query plans", () => {
  const accounts = [makeAccount().id, makeAccount().id]
  const records = Array.from({ length: 400 }, (_, i) => auditRecord(at(accounts, i % accounts.length), T0 + Math.floor(i / 7) * 1000))
  const first = at(accounts, 0)
  const appendAll = Effect.flatMap(AuditLog, (audit) =>
    Effect.forEach(records, audit.append, { concurrency: "unbounded", discard: true }))

  layer(Layer.effectDiscard(appendAll).pipe(Layer.provideMerge(storageWithClient(sqliteUnderTest(), "plans"))))((it) => {
    it.effect("a keyset page is an index seek on audit_account_time, with no temp B-tree sort", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const cursor = at(records, 200)
        for (const query of [
          { accountId: first, limit: 50 },
          { accountId: first, limit: 50, after: { receivedAt: cursor.receivedAt, requestId: cursor.requestId } },
          {
            accountId: first,
            limit: 50,
            after: { receivedAt: cursor.receivedAt, requestId: cursor.requestId },
            from: DateTime.unsafeMake(T0),
            to: DateTime.unsafeMake(T0 + 100_000)
          }
        ]) {
          const [text, params] = auditPageStatement(sql, query).compile()
          const plan = yield* sql.unsafe<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params)
          const details = plan.map((row) => row.detail).join(" | ")
          expect(details).toMatch(/SEARCH audit USING INDEX audit_account_time/)
          expect(details).not.toMatch(/TEMP B-TREE/)
        }
      }))

    it.effect("rows are kept in arrival order (seq is the rowid); the page index is the only index (none on the random request id, none on time alone)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const indexes = yield* sql<{ name: string; unique: number }>`SELECT name, "unique" FROM pragma_index_list('audit') ORDER BY name`
        expect(indexes.map((i) => [i.name, i.unique])).toEqual([["audit_account_time", 1]])
        const plan = yield* sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT entry FROM audit WHERE seq = 1`
        expect(plan.map((row) => row.detail).join(" | ")).toMatch(/USING INTEGER PRIMARY KEY/)
      }))
  })
})
