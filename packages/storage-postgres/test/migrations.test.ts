/**
 * Several instances starting at once on a new database each run the migrations: they must all
 * succeed, and the schema must be applied once. (Unserialised, PostgreSQL's
 * `CREATE TABLE IF NOT EXISTS` can fail in the loser with a duplicate key on `pg_type`.)
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { migrations } from "@ridequote/storage-sql"
import { migratePostgres } from "../src/index.js"
import { adminQuery, newSchema, postgresAvailable, url } from "./fixtures.js"

const INSTANCES = 8

describe.runIf(postgresAvailable)("migrations on PostgreSQL", () => {
  it(`run by ${INSTANCES} connections at once on a new schema: all succeed, each migration applied once`, async () => {
    for (let round = 0; round < 3; round++) {
      const schema = newSchema(`concurrent migrate ${round}`)
      const outcomes = await Promise.allSettled(
        Array.from({ length: INSTANCES }, () => Effect.runPromise(migratePostgres({ url, schema })))
      )
      expect(outcomes.filter((o) => o.status === "rejected")).toEqual([])
      const applied = await adminQuery<{ migration_id: number }>(
        `SELECT migration_id FROM "${schema}".effect_sql_migrations ORDER BY migration_id`
      )
      expect(applied.map((row) => row.migration_id)).toEqual((await Effect.runPromise(migrations)).map(([id]) => id))
      const keys = await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".signing_keys`)
      expect(Number(keys[0]?.n)).toBe(1)
    }
  }, 60_000)

  it("leave the audit two indexes: its key (seq) and the page index; none on time alone, none on the request id", async () => {
    const schema = newSchema("audit indexes")
    await Effect.runPromise(migratePostgres({ url, schema }))
    const indexes = await adminQuery<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'audit' ORDER BY indexname",
      [schema]
    )
    expect(indexes.map((i) => i.indexname)).toEqual(["audit_account_time", "audit_pkey"])
    expect(indexes.find((i) => i.indexname === "audit_pkey")?.indexdef).toMatch(/\(seq\)/)
  })
})
