/** InMemoryAuditLog paging, exactly as docs/api.md ("GET /v1/audit/recent") describes it. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import type { AuditRecord } from "../../src/Audit.js"
import type { AccountId, RequestId } from "../../src/Ids.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { InMemoryAudit, InMemoryAuditLog } from "../../src/testing/pricing.js"

const ALICE = "0b5c4a1e-8f3d-4c2a-9e1b-7d6f5a4b3c2d" as AccountId
const BOB = "1b5c4a1e-8f3d-4c2a-9e1b-7d6f5a4b3c2d" as AccountId
const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}` as RequestId
const record = (accountId: AccountId, n: number, ms: number): AuditRecord => ({
  accountId,
  requestId: id(n),
  receivedAt: DateTime.unsafeMake(ms),
  decision: { outcome: "rejected", code: "result:account-blocked", message: "blocked" }
})

// Alice: ids 1..6; 2 and 3 share a timestamp, so requestId breaks the tie. Bob: one entry.
const records = [
  record(ALICE, 1, 1000),
  record(ALICE, 2, 2000),
  record(ALICE, 3, 2000),
  record(BOB, 9, 2500),
  record(ALICE, 4, 3000),
  record(ALICE, 5, 4000),
  record(ALICE, 6, 5000)
]

const withRecords = <A, E, R extends AuditLog | InMemoryAudit>(body: (log: AuditLog) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const log = yield* AuditLog
    for (const r of records) yield* log.append(r)
    return yield* body(log)
  }).pipe(Effect.provide(InMemoryAuditLog))

const ids = (page: { readonly entries: ReadonlyArray<{ readonly requestId: RequestId }> }) =>
  page.entries.map((e) => Number.parseInt(e.requestId.slice(-4), 16))

describe("in-memory audit log (paging as docs/api.md describes it)", () => {
  it.effect("newest first: receivedAt desc, then requestId desc; only the caller's entries", () =>
    withRecords((log) =>
      Effect.gen(function*() {
        const page = yield* log.page({ accountId: ALICE, limit: 50 })
        expect(ids(page)).toEqual([6, 5, 4, 3, 2, 1])
        expect(page.next).toBeUndefined()
        expect(page.entries[0]).not.toHaveProperty("accountId")
      })
    ))

  it.effect("keyset paging: `next` is the last entry when more exist; `after` continues strictly after it", () =>
    withRecords((log) =>
      Effect.gen(function*() {
        const first = yield* log.page({ accountId: ALICE, limit: 3 })
        expect(ids(first)).toEqual([6, 5, 4])
        expect(first.next).toEqual({ receivedAt: DateTime.unsafeMake(3000), requestId: id(4) })
        const second = yield* log.page({ accountId: ALICE, limit: 2, after: first.next })
        expect(ids(second)).toEqual([3, 2])
        const third = yield* log.page({ accountId: ALICE, limit: 2, after: second.next })
        expect(ids(third)).toEqual([1])
        expect(third.next).toBeUndefined()
      })
    ))

  it.effect("an exactly full last page has no `next`", () =>
    withRecords((log) =>
      Effect.gen(function*() {
        const page = yield* log.page({ accountId: ALICE, limit: 6 })
        expect(page.next).toBeUndefined()
      })
    ))

  it.effect("from is inclusive, to is exclusive", () =>
    withRecords((log) =>
      Effect.gen(function*() {
        const page = yield* log.page({
          accountId: ALICE,
          limit: 50,
          from: DateTime.unsafeMake(2000),
          to: DateTime.unsafeMake(4000)
        })
        expect(ids(page)).toEqual([4, 3, 2])
      })
    ))

  it.effect("records are readable through InMemoryAudit; switched off, append and page fail with StorageUnavailable", () =>
    withRecords((log) =>
      Effect.gen(function*() {
        const audit = yield* InMemoryAudit
        expect(yield* audit.records).toEqual(records)
        yield* audit.setAvailable(false)
        const failed = yield* Effect.flip(log.append(record(ALICE, 7, 6000)))
        expect(failed.code).toBe("result:unavailable")
        expect((yield* Effect.flip(log.page({ accountId: ALICE, limit: 1 }))).code).toBe("result:unavailable")
        expect(yield* audit.records).toHaveLength(records.length)
      })
    ))
})
