/**
 * Measures audit appends through the real layer (group commit, one SQLite file) with
 * synchronous FULL and NORMAL: `tsx packages/storage-sqlite/bench/audit-append.ts [appends]`.
 * Prints appends/s with 1 and 50 concurrent appenders. A measurement, not a test.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import type { AuditRecord } from "@ridequote/core"
import { AccountId, AuditLog, RequestId, uuidV4FromBytes } from "@ridequote/core"
import { migrate, SqlStorageLive } from "@ridequote/storage-sql"
import { DateTime, Effect, Layer } from "effect"
import { SqliteClientLive } from "../src/index.js"

const total = Number(process.argv[2] ?? 5000)
const dir = mkdtempSync(join(tmpdir(), "ridequote-bench-"))

const record = (accountId: AccountId, i: number): AuditRecord => ({
  accountId,
  requestId: RequestId.make(uuidV4FromBytes(randomBytes(16))),
  receivedAt: DateTime.unsafeMake(Date.UTC(2026, 0, 1) + i),
  decision: { outcome: "rejected", code: "result:account-blocked", message: "account is Blocked ".repeat(40) }
})

const run = (synchronous: "FULL" | "NORMAL", concurrency: number) =>
  Effect.gen(function*() {
    const filename = join(dir, `${synchronous}-${concurrency}.db`)
    const client = SqliteClientLive(filename)
    const setSync = Layer.effectDiscard(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`PRAGMA synchronous = ${synchronous}`))
    )
    const layer = SqlStorageLive().pipe(
      Layer.provide(Layer.mergeAll(Layer.effectDiscard(migrate), setSync).pipe(Layer.provideMerge(client)))
    )
    const accountId = AccountId.make(uuidV4FromBytes(randomBytes(16)))
    const records = Array.from({ length: total }, (_, i) => record(accountId, i))
    return yield* Effect.gen(function*() {
      const audit = yield* AuditLog
      const started = performance.now()
      yield* Effect.forEach(records, audit.append, { concurrency, discard: true })
      const seconds = (performance.now() - started) / 1000
      return { synchronous, concurrency, appendsPerSecond: Math.round(total / seconds) }
    }).pipe(Effect.provide(layer))
  })

const program = Effect.gen(function*() {
  for (const concurrency of [1, 50]) {
    for (const synchronous of ["FULL", "NORMAL"] as const) {
      console.log(JSON.stringify(yield* run(synchronous, concurrency)))
    }
  }
})

Effect.runPromise(program).finally(() => rmSync(dir, { recursive: true, force: true }))
