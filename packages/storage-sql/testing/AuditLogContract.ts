import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it, layer } from "@effect/vitest"
import type { AccountId, AuditCursor, AuditEntry, AuditRecord } from "@ridequote/core"
import { AuditEntry as AuditEntrySchema, AuditLog } from "@ridequote/core"
import { Cause, DateTime, Effect, Exit, FastCheck, Layer, Metric, Option, Ref, Runtime, Schema, Scope } from "effect"
import { auditQueueDepth, countAuditBefore, migrations, pruneAudit } from "../src/index.js"
import type { StorageUnderTest } from "./fixtures.js"
import { at, auditRecord, makeAccount, quoted, rejected, storageWithClient } from "./fixtures.js"

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0)

const toEntry = (record: AuditRecord): AuditEntry => ({
  requestId: record.requestId,
  receivedAt: record.receivedAt,
  ...(record.request !== undefined ? { request: record.request } : {}),
  decision: record.decision
})

/** The audit order: receivedAt desc, then requestId desc. */
const newestFirst = (a: AuditRecord, b: AuditRecord) =>
  b.receivedAt.epochMillis - a.receivedAt.epochMillis || (a.requestId < b.requestId ? 1 : a.requestId > b.requestId ? -1 : 0)

const encodeEntry = Schema.encodeSync(AuditEntrySchema)

/**
 * Every page of a query, following `next` until it is absent. Each page is read twice, decoded
 * (`page`) and as wire JSON (`pageJson`): the two must agree entry for entry, the JSON being
 * exactly what core's schema encodes, and carry the same cursor.
 */
const walk = (accountId: AccountId, limit: number, window: { from?: number; to?: number }) =>
  Effect.gen(function*() {
    const audit = yield* AuditLog
    const pages: Array<ReadonlyArray<AuditEntry>> = []
    let after: AuditCursor | undefined
    do {
      const query = {
        accountId,
        limit,
        after,
        from: window.from === undefined ? undefined : DateTime.unsafeMake(window.from),
        to: window.to === undefined ? undefined : DateTime.unsafeMake(window.to)
      }
      const page = yield* audit.page(query)
      const json = yield* audit.pageJson(query)
      expect(json.entries).toEqual(page.entries.map((entry) => JSON.stringify(encodeEntry(entry))))
      expect(json.next).toEqual(page.next)
      pages.push(page.entries)
      after = page.next
    } while (after !== undefined)
    return pages
  })

export const auditLogContract = (h: StorageUnderTest) =>
describe(`AuditLog on ${h.name}`, () => {
  const countRows = (db: ReturnType<StorageUnderTest["newDatabase"]>) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM audit`
      return Number(rows[0]?.n ?? -1)
    }).pipe(Effect.provide(h.client(db)))

  // 1,200 entries over 4 accounts; receivedAt advances every 7 entries, so many collide.
  const accounts = [makeAccount().id, makeAccount().id, makeAccount().id, makeAccount().id]
  const records = Array.from({ length: 1200 }, (_, i) =>
    auditRecord(at(accounts, i % accounts.length), T0 + Math.floor(i / 7) * 1000, i % 5 === 0 ? quoted : rejected))
  const first = at(accounts, 0)
  const appendAll = Effect.flatMap(AuditLog, (audit) =>
    Effect.forEach(records, audit.append, { concurrency: "unbounded", discard: true }))

  layer(Layer.effectDiscard(appendAll).pipe(Layer.provideMerge(storageWithClient(h, "paging"))))((it) => {

    it.effect("walking pages yields every entry of the account exactly once, newest first, within [from, to)", () =>
      Effect.gen(function*() {
        const runtime = yield* Effect.runtime<AuditLog>()
        const span = Math.ceil(records.length / 7) * 1000
        const property = FastCheck.asyncProperty(
          FastCheck.integer({ min: 0, max: accounts.length - 1 }),
          FastCheck.integer({ min: 1, max: 120 }),
          FastCheck.option(FastCheck.integer({ min: -1000, max: span }), { nil: undefined }),
          FastCheck.option(FastCheck.integer({ min: 0, max: span + 1000 }), { nil: undefined }),
          async (a, limit, from, to) => {
            const accountId = at(accounts, a)
            const window = {
              ...(from === undefined ? {} : { from: T0 + from }),
              ...(to === undefined ? {} : { to: T0 + to })
            }
            const pages = await Runtime.runPromise(runtime)(walk(accountId, limit, window))
            const expected = records
              .filter((r) => r.accountId === accountId)
              .filter((r) => window.from === undefined || r.receivedAt.epochMillis >= window.from)
              .filter((r) => window.to === undefined || r.receivedAt.epochMillis < window.to)
              .sort(newestFirst)
              .map(toEntry)
            expect(pages.flat()).toEqual(expected)
            for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit)
            expect(at(pages, pages.length - 1).length).toBeLessThanOrEqual(limit)
          }
        )
        yield* Effect.promise(() => FastCheck.assert(property, { numRuns: 60 }))
      }))

    it.effect("a page never shows another account's entries, even with a cursor taken from one", () =>
      Effect.gen(function*() {
        const audit = yield* AuditLog
        // the newest entry of another account: every entry of `first` but the newest few precede it
        const others = records.filter((r) => r.accountId !== first)
        const other = at(others, others.length - 1)
        const page = yield* audit.page({
          accountId: first,
          limit: 500,
          after: { receivedAt: other.receivedAt, requestId: other.requestId }
        })
        expect(page.entries.length).toBeGreaterThan(0)
        const own = new Set(records.filter((r) => r.accountId === first).map((r) => r.requestId))
        expect(page.entries.every((e) => own.has(e.requestId))).toBe(true)
      }))

    it.effect("next is present exactly when more entries follow", () =>
      Effect.gen(function*() {
        const audit = yield* AuditLog
        const total = records.filter((r) => r.accountId === first).length // 300, under the page maximum
        const exact = yield* audit.page({ accountId: first, limit: total })
        expect(exact.entries).toHaveLength(total)
        expect(exact.next).toBeUndefined()
        const short = yield* audit.page({ accountId: first, limit: total - 1 })
        const last = at(short.entries, total - 2)
        expect(short.next).toEqual({ receivedAt: last.receivedAt, requestId: last.requestId })
      }))
  })

  it.effect("group commit: 500 concurrent appends are all durable and readable", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("group")
      const accountId = makeAccount().id
      const batch = Array.from({ length: 500 }, (_, i) => auditRecord(accountId, T0 + i))
      const page = yield* Effect.gen(function*() {
        const audit = yield* AuditLog
        yield* Effect.forEach(batch, audit.append, { concurrency: "unbounded", discard: true })
        return yield* audit.page({ accountId, limit: 500 })
      }).pipe(Effect.provide(h.storage(filename)))
      expect(page.entries).toEqual([...batch].sort(newestFirst).map(toEntry))
      // durable: a new connection to the file (the layer above is closed) reads them all
      expect(yield* countRows(filename)).toBe(500)
      expect((yield* Metric.value(auditQueueDepth)).value).toBe(0)
    }))

  it.effect("an entry appended again (a retried append) is stored once, and its batch's other entries all are", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("retried")
      const accountId = makeAccount().id
      const first = auditRecord(accountId, T0)
      const others = Array.from({ length: 30 }, (_, i) => auditRecord(accountId, T0 + 1 + i))
      const page = yield* Effect.gen(function*() {
        const audit = yield* AuditLog
        yield* audit.append(first)
        // the retry lands in one group-commit batch with thirty new entries
        yield* Effect.forEach([first, ...others], audit.append, { concurrency: "unbounded", discard: true })
        return yield* audit.page({ accountId, limit: 500 })
      }).pipe(Effect.provide(h.storage(db)))
      expect(yield* countRows(db)).toBe(31)
      expect(page.entries).toEqual([first, ...others].sort(newestFirst).map(toEntry))
    }))

  it.effect("an append that returned is readable from a new connection to the same file", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("durable")
      const record = auditRecord(makeAccount().id, T0, quoted)
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(h.storage(filename))
        yield* Effect.provide(Effect.flatMap(AuditLog, (audit) => audit.append(record)), context)
        // still open: a second, independent connection sees the committed row
        const entries = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ entry: string }>`SELECT entry FROM audit WHERE request_id = ${record.requestId}`
        }).pipe(Effect.provide(h.client(filename)))
        expect(entries).toHaveLength(1)
        expect(JSON.parse(at(entries, 0).entry)).toMatchObject({
          requestId: record.requestId,
          request: { distanceKm: 12.5, scheduledAt: "2026-11-22T12:00:00.000Z" },
          decision: { outcome: "quoted" }
        })
      }))
    }))

  it.effect("a failed flush fails every waiting append with StorageUnavailable; the writer carries on", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("flush-error")
      const accountId = makeAccount().id
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(h.storage(filename))
        const audit = Effect.provide(AuditLog, context)
        const onOtherConnection = (statement: string) =>
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
            Effect.provide(h.client(filename))
          )
        // Another process renames the table away: every INSERT of the next flush fails.
        yield* onOtherConnection("ALTER TABLE audit RENAME TO audit_elsewhere")
        const failed = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => auditRecord(accountId, T0 + i)),
          (record) => Effect.flatMap(audit, (a) => Effect.flip(a.append(record))),
          { concurrency: "unbounded" }
        )
        expect(failed.map((e) => e._tag)).toEqual(Array(20).fill("StorageUnavailable"))
        yield* onOtherConnection("ALTER TABLE audit_elsewhere RENAME TO audit")
        const record = auditRecord(accountId, T0 + 100)
        yield* Effect.flatMap(audit, (a) => a.append(record))
        const page = yield* Effect.flatMap(audit, (a) => a.page({ accountId, limit: 50 }))
        expect(page.entries).toEqual([toEntry(record)])
      }))
      expect((yield* Metric.value(auditQueueDepth)).value).toBe(0)
    }))

  it.effect("closing the layer commits the appends already queued before the connection closes", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("drain")
      const accountId = makeAccount().id
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(h.storage(filename), scope)
      const audit = Effect.provide(AuditLog, context)
      const batch = Array.from({ length: 200 }, (_, i) => auditRecord(accountId, T0 + i))
      const appends = yield* Effect.fork(
        Effect.forEach(batch, (r) => Effect.flatMap(audit, (a) => Effect.exit(a.append(r))), { concurrency: "unbounded" })
      )
      yield* Effect.yieldNow()
      yield* Scope.close(scope, Exit.void)
      const exits = yield* appends.await.pipe(Effect.flatMap((exit) => exit))
      const acked = exits.filter(Exit.isSuccess).length
      // Every append either committed before the close or was refused; none hangs, none is lost.
      expect(acked).toBeGreaterThan(0)
      expect(yield* countRows(filename)).toBe(acked)
      const refused = exits.filter(Exit.isFailure).map((exit) => Cause.failureOption(exit.cause))
      expect(refused.every((e) => Option.isSome(e) && e.value._tag === "StorageUnavailable")).toBe(true)
    }))

  it.effect("audit retention deletes exactly the entries older than the cutoff, in batches", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("retention")
      const accountId = makeAccount().id
      const old = Array.from({ length: 57 }, (_, i) => auditRecord(accountId, T0 + i))
      const kept = Array.from({ length: 13 }, (_, i) => auditRecord(accountId, T0 + 57 + i))
      const cutoff = T0 + 57
      const rests = yield* Ref.make(0)
      const { deleted, left, page } = yield* Effect.gen(function*() {
        const audit = yield* AuditLog
        yield* Effect.forEach([...old, ...kept], audit.append, { concurrency: "unbounded", discard: true })
        // batches of 10: several statements, the last one short; a rest after each full one
        const deleted = yield* pruneAudit(cutoff, { batch: 10, rest: () => Ref.update(rests, (n) => n + 1) }).pipe(
          Effect.provide(h.client(db))
        )
        const left = yield* countAuditBefore(cutoff).pipe(Effect.provide(h.client(db)))
        return { deleted, left, page: yield* audit.page({ accountId, limit: 500 }) }
      }).pipe(Effect.provide(h.storage(db)))
      expect(deleted).toBe(57)
      // 57 rows in windows of 10: five full ones and a sixth with 7 old rows, each followed by a
      // rest; the seventh window (only kept rows) deletes nothing and ends it
      expect(yield* Ref.get(rests)).toBe(6)
      expect(left).toBe(0)
      expect(page.entries).toEqual([...kept].sort(newestFirst).map(toEntry))
      // nothing left to delete: a second pass is a no-op
      expect(yield* pruneAudit(cutoff, { batch: 10 }).pipe(Effect.provide(h.client(db)))).toBe(0)
    }))

  it.effect("audit retention walks arrival order: old entries stored after newer ones go too, newer ones stay", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("retention-order")
      const accountId = makeAccount().id
      const cutoff = T0 + 1_000
      // Stored in this order: 4 old, 3 new, 5 old, 2 new, 6 old (a clock running ahead now and then).
      const runs: ReadonlyArray<readonly [number, boolean]> = [[4, true], [3, false], [5, true], [2, false], [6, true]]
      const records = runs.flatMap(([n, old], r) =>
        Array.from({ length: n }, (_, i) => auditRecord(accountId, old ? T0 + r * 10 + i : cutoff + r * 10 + i)))
      const { deleted, page } = yield* Effect.gen(function*() {
        const audit = yield* AuditLog
        // one at a time, so arrival order is exactly the order above
        yield* Effect.forEach(records, audit.append, { discard: true })
        const deleted = yield* pruneAudit(cutoff, { batch: 4 }).pipe(Effect.provide(h.client(db)))
        return { deleted, page: yield* audit.page({ accountId, limit: 500 }) }
      }).pipe(Effect.provide(h.storage(db)))
      expect(deleted).toBe(15)
      expect(page.entries).toEqual(records.filter((r) => r.receivedAt.epochMillis >= cutoff).sort(newestFirst).map(toEntry))
    }))

  it.effect("an audit written before migration 4 keeps every entry and its page order, and takes appends and retries after it", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("upgrade")
      const accountId = makeAccount().id
      // pairs received in the same millisecond: the request id orders them
      const records = Array.from({ length: 40 }, (_, i) => auditRecord(accountId, T0 + Math.floor(i / 2)))
      const storedJson = Schema.encodeSync(Schema.parseJson(AuditEntrySchema))
      // The schema as migrations 1-3 left it, with rows as its writer stored them.
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({ loader: Effect.map(migrations, (all) => all.filter(([id]) => id < 4)) })
        yield* sql`INSERT INTO audit ${
          sql.insert(records.map((r) => ({
            request_id: r.requestId,
            account_id: r.accountId,
            received_at_ms: r.receivedAt.epochMillis,
            entry: storedJson(toEntry(r))
          })))
        }`
      }).pipe(Effect.provide(h.client(db)))
      // The storage layer migrates on start, as `serve` does.
      const later = auditRecord(accountId, T0 + 100)
      const pages = yield* Effect.gen(function*() {
        const audit = yield* AuditLog
        // a retry of an entry stored before the upgrade is still skipped
        yield* audit.append(records[0] ?? later)
        yield* audit.append(later)
        return yield* walk(accountId, 7, {})
      }).pipe(Effect.provide(h.storage(db)))
      expect(pages.flat()).toEqual([...records, later].sort(newestFirst).map(toEntry))
      expect(yield* countRows(db)).toBe(41)
    }))
})
