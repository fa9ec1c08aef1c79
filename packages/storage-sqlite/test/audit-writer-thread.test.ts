/**
 * The audit writer thread: commits wait on their own thread, not on the event loop; a failed
 * commit is answered (503 for its quotes), never left hanging; acknowledged rows are on disk.
 */
import { Worker } from "node:worker_threads"
import { AuditLog, StorageUnavailable } from "@ridequote/core"
import type { AuditRecord } from "@ridequote/core"
import { Effect, Exit, Fiber, Layer } from "effect"
import { describe, expect, it } from "vitest"
import type { SqliteStorageOptions } from "../src/index.js"
import { SqliteStorageLive } from "../src/index.js"
import { auditRecord, makeAccount, tempDirectory } from "./fixtures.js"

import type { Database } from "../src/Driver.js"
import { driverPath, openDatabase } from "../src/Driver.js"

const dir = tempDirectory()

/** Runs `body` with an AuditLog on a fresh file, and a second raw connection to that file. */
const withAudit = <A>(
  writer: SqliteStorageOptions["auditWriter"],
  body: (raw: Database, filename: string) => Effect.Effect<A, unknown, AuditLog>
): Promise<A> => {
  const filename = dir.file(`writer-${writer}`)
  const storage = SqliteStorageLive({ filename, auditWriter: writer })
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const context = yield* Layer.build(storage)
        const raw = yield* Effect.acquireRelease(Effect.sync(() => openDatabase(filename, { timeoutMs: 5_000 })), (db) => Effect.sync(() => db.close()))
        return yield* Effect.provide(body(raw, filename), context)
      })
    )
  )
}

/**
 * Holds SQLite's write lock from another thread for `holdMs` (the holder must not share our event
 * loop, or a blocked loop could never release it) and resolves once the lock is taken.
 */
const holdWriteLock = (filename: string, holdMs: number): Promise<Worker> =>
  new Promise((resolve, reject) => {
    const holder = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads")
      const db = new (require(workerData.driver))(workerData.filename)
      db.exec("BEGIN IMMEDIATE")
      parentPort.postMessage("locked")
      setTimeout(() => { db.exec("COMMIT"); db.close() }, workerData.holdMs)`,
      { eval: true, workerData: { driver: driverPath(), filename, holdMs } }
    )
    holder.once("message", () => resolve(holder))
    holder.once("error", reject)
  })

/** How late a 20 ms timer on this event loop fires while an append waits 1 s for the write lock. */
const timerDelayWhileLocked = (writer: SqliteStorageOptions["auditWriter"]) =>
  withAudit(writer, (raw, filename) =>
    Effect.gen(function*() {
      const audit = yield* AuditLog
      const record = auditRecord(makeAccount().id, Date.UTC(2026, 10, 23))
      const holder = yield* Effect.promise(() => holdWriteLock(filename, 1_000))
      const append = yield* Effect.fork(audit.append(record))
      const started = performance.now()
      const firedAfter = yield* Effect.promise(() =>
        new Promise<number>((resolve) => setTimeout(() => resolve(performance.now() - started), 20))
      )
      yield* Fiber.join(append)
      yield* Effect.promise(() => holder.terminate())
      const stored = raw.prepare("SELECT count(*) AS n FROM audit WHERE request_id = ?").all([record.requestId])[0] as { n: number }
      return { firedAfter, stored: stored.n }
    }))

describe("audit writer thread", () => {
  it("an append waiting for the write lock does not hold the event loop (it does on the main connection)", async () => {
    const thread = await timerDelayWhileLocked("thread")
    expect(thread.stored).toBe(1)
    expect(thread.firedAfter).toBeLessThan(500)
    // The contrast that shows the test measures the thread: on the main connection the busy
    // wait blocks this thread, so the timer fires only once the lock is released.
    const connection = await timerDelayWhileLocked("connection")
    expect(connection.stored).toBe(1)
    expect(connection.firedAfter).toBeGreaterThan(800)
  }, 30_000)

  it("a commit that fails is answered with StorageUnavailable, and the next one succeeds", async () => {
    const outcome = await withAudit("thread", (raw) =>
      Effect.gen(function*() {
        const audit = yield* AuditLog
        const account = makeAccount().id
        raw.exec("ALTER TABLE audit RENAME TO audit_away")
        const failed = yield* Effect.exit(audit.append(auditRecord(account, Date.UTC(2026, 10, 23))))
        raw.exec("ALTER TABLE audit_away RENAME TO audit")
        const record = auditRecord(account, Date.UTC(2026, 10, 23, 1))
        yield* audit.append(record)
        const page = yield* audit.page({ accountId: account, limit: 10 })
        return { failed, ids: page.entries.map((e) => e.requestId), expected: record.requestId }
      }))
    expect(Exit.isFailure(outcome.failed)).toBe(true)
    if (Exit.isFailure(outcome.failed)) {
      const error = outcome.failed.cause._tag === "Fail" ? outcome.failed.cause.error : undefined
      expect(error).toBeInstanceOf(StorageUnavailable)
      expect((error as StorageUnavailable).message).toMatch(/storage failed during audit append: no such table: audit/)
    }
    expect(outcome.ids).toEqual([outcome.expected])
  }, 30_000)

  it("submit answers by callback once the row is on disk, and reports a failed commit", async () => {
    const outcome = await withAudit("thread", (raw) =>
      Effect.gen(function*() {
        const audit = yield* AuditLog
        const submit = audit.submit
        if (submit === undefined) return yield* Effect.die("the SQLite audit log has no submit")
        const submitted = (record: AuditRecord) =>
          Effect.async<StorageUnavailable | undefined>((resume) => submit(record, (failure) => resume(Effect.succeed(failure))))
        const stored = (id: string) =>
          (raw.prepare("SELECT count(*) AS n FROM audit WHERE request_id = ?").all([id])[0] as { n: number }).n
        const account = makeAccount().id
        const record = auditRecord(account, Date.UTC(2026, 10, 23))
        const ok = yield* submitted(record)
        const storedWhenAnswered = stored(record.requestId)
        raw.exec("ALTER TABLE audit RENAME TO audit_away")
        const failure = yield* submitted(auditRecord(account, Date.UTC(2026, 10, 23, 1)))
        raw.exec("ALTER TABLE audit_away RENAME TO audit")
        return { ok, storedWhenAnswered, failure }
      }))
    expect(outcome.ok).toBeUndefined()
    expect(outcome.storedWhenAnswered).toBe(1)
    expect(outcome.failure).toBeInstanceOf(StorageUnavailable)
    expect(outcome.failure?.message).toMatch(/no such table: audit/)
  }, 30_000)

  it("retention deletes on the writer thread: every entry older than the retention goes, in several batches, the others stay", async () => {
    const filename = dir.file("writer-retention")
    const account = makeAccount().id
    const now = Date.now()
    const day = 86_400_000
    // 1,200 entries ten days old (three delete batches of 500, the last one short) and 30 from today
    const old = Array.from({ length: 1_200 }, (_, i) => auditRecord(account, now - 10 * day + i))
    const recent = Array.from({ length: 30 }, (_, i) => auditRecord(account, now - 1_000 + i))
    const count = (raw: Database, sql: string) => (raw.prepare(sql).all([])[0] as { n: number }).n
    await Effect.runPromise(
      Effect.flatMap(AuditLog, (audit) => Effect.forEach([...old, ...recent], audit.append, { concurrency: 50, discard: true })).pipe(
        Effect.provide(SqliteStorageLive({ filename }))
      )
    )
    const left = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          yield* Layer.build(SqliteStorageLive({ filename, auditRetentionDays: 2 }))
          const raw = yield* Effect.acquireRelease(
            Effect.sync(() => openDatabase(filename, { timeoutMs: 5_000 })),
            (db) => Effect.sync(() => db.close())
          )
          // Retention runs at start, in the background: wait until it is done (or give up).
          for (let i = 0; i < 300 && count(raw, `SELECT count(*) AS n FROM audit WHERE received_at_ms < ${now - 2 * day}`) > 0; i++) {
            yield* Effect.sleep("20 millis")
          }
          return {
            old: count(raw, `SELECT count(*) AS n FROM audit WHERE received_at_ms < ${now - 2 * day}`),
            all: count(raw, "SELECT count(*) AS n FROM audit")
          }
        })
      )
    )
    expect(left).toEqual({ old: 0, all: 30 })
  }, 30_000)
})
