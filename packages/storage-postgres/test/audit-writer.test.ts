/**
 * The PostgreSQL audit writer (`postgresAuditCommit`) below the storage contract: batches of
 * every size (a named prepared statement, an unnamed one, several INSERTs in one transaction),
 * retried rows skipped, and a batch that fails part way stored not at all.
 */
import { describe, expect, it } from "@effect/vitest"
import type { StorageUnavailable } from "@ridequote/core"
import { migrate } from "@ridequote/storage-sql"
import type { AuditRow } from "@ridequote/storage-sql"
import { Effect, Layer } from "effect"
import type * as Pg from "pg"
import { NAMED_ROWS, postgresAuditCommit } from "../src/AuditWriter.js"
import { clientOnPool, openPool } from "../src/PostgresClient.js"
import { newSchema, postgresAvailable, url } from "./fixtures.js"

const T0 = Date.UTC(2026, 10, 26)

const rows = (label: string, n: number, from = 0): ReadonlyArray<AuditRow> =>
  Array.from({ length: n }, (_, i) => ({
    request_id: `00000000-0000-4000-8000-${String(from + i).padStart(12, "0")}`,
    account_id: `account-${label}`,
    received_at_ms: T0 + from + i,
    entry: JSON.stringify({ label, i: from + i })
  }))

/** A pool on a fresh, migrated schema. */
const withPool = <A>(label: string, body: (pool: Pg.Pool) => Effect.Effect<A, unknown>) =>
  Effect.scoped(
    Effect.gen(function*() {
      const pool = yield* openPool({ url, schema: newSchema(label), poolSize: 3 })
      yield* Layer.build(Layer.effectDiscard(migrate).pipe(Layer.provide(clientOnPool(Effect.succeed(pool)))))
      return yield* body(pool)
    })
  )

const commit = (pool: Pg.Pool, batch: ReadonlyArray<AuditRow>) =>
  Effect.async<StorageUnavailable | undefined>((resume) =>
    postgresAuditCommit(pool).withCallback(batch, (failure) => resume(Effect.succeed(failure)))
  )

const count = (pool: Pg.Pool, account: string) =>
  Effect.promise(() => pool.query<{ n: string }>("SELECT count(*) AS n FROM audit WHERE account_id = $1", [account])).pipe(
    Effect.map((result) => Number(result.rows[0]?.n ?? -1))
  )

describe.runIf(postgresAvailable)("the PostgreSQL audit writer", () => {
  it.live("stores batches of every size: named (small), unnamed (up to 500), and several INSERTs in one transaction", () =>
    withPool("writer-sizes", (pool) =>
      Effect.gen(function*() {
        for (const [label, n] of [["one", 1], ["named", NAMED_ROWS], ["unnamed", NAMED_ROWS + 1], ["chunks", 1_234]] as const) {
          expect(yield* commit(pool, rows(label, n))).toBeUndefined()
          expect(yield* count(pool, `account-${label}`)).toBe(n)
        }
        // The same shape again reuses its prepared statement on whichever connection runs it.
        for (let i = 1; i <= 4; i++) expect(yield* commit(pool, rows("named", NAMED_ROWS, i * NAMED_ROWS))).toBeUndefined()
        expect(yield* count(pool, "account-named")).toBe(5 * NAMED_ROWS)
      })))

  it.live("a retried row is skipped, and the rest of its batch stored", () =>
    withPool("writer-retry", (pool) =>
      Effect.gen(function*() {
        expect(yield* commit(pool, rows("retry", 10))).toBeUndefined()
        // five already stored, five new, in one batch; and across the transaction path too
        expect(yield* commit(pool, rows("retry", 10, 5))).toBeUndefined()
        expect(yield* count(pool, "account-retry")).toBe(15)
        expect(yield* commit(pool, rows("retry", 1_100, 10))).toBeUndefined()
        expect(yield* count(pool, "account-retry")).toBe(1_110)
      })))

  it.live("a batch that fails in its third INSERT stores none of its rows, and the next batch is stored", () =>
    withPool("writer-rollback", (pool) =>
      Effect.gen(function*() {
        // PostgreSQL refuses a NUL character in text: row 1,050 (in the third chunk of 500) fails.
        const batch = rows("rollback", 1_100).map((row, i) => (i === 1_050 ? { ...row, entry: "bad \u0000 entry" } : row))
        const failure = yield* commit(pool, batch)
        expect(failure?._tag).toBe("StorageUnavailable")
        expect(failure?.message).toMatch(/^storage failed during audit append: /)
        expect(yield* count(pool, "account-rollback")).toBe(0)
        expect(yield* commit(pool, rows("rollback", 3))).toBeUndefined()
        expect(yield* count(pool, "account-rollback")).toBe(3)
      })))
})
