/**
 * In-memory audit log: the AuditLog port without a database, paging exactly like the storage adapters (docs/api.md, "GET /v1/audit/recent")
 * (newest first by receivedAt desc then requestId desc, keyset `after`, from inclusive, to
 * exclusive, `next` when more entries exist). For tests, examples and benchmarks.
 */
import { Context, DateTime, Effect, Layer } from "effect"
import type { AuditCursor, AuditPage, AuditPageJson, AuditQuery, AuditRecord } from "../Audit.js"
import { AuditEntry } from "../Audit.js"
import { trustedEncoder } from "../Encoding.js"
import { StorageUnavailable } from "../Errors.js"
import { AuditLog } from "../ports/AuditLog.js"

/** Read side and fault switch of an in-memory audit log. */
export interface InMemoryAudit {
  /** Every record appended so far, in append order. */
  readonly records: Effect.Effect<ReadonlyArray<AuditRecord>>
  /** While false, `append` and `page` fail with StorageUnavailable (to test the 503 path). */
  readonly setAvailable: (available: boolean) => Effect.Effect<void>
}

export const InMemoryAudit = Context.GenericTag<InMemoryAudit>("@ridequote/core/testing/InMemoryAudit")

const ms = (r: { readonly receivedAt: DateTime.Utc }): number => DateTime.toEpochMillis(r.receivedAt)

/** Order of the audit: receivedAt desc, then requestId desc. Negative when `a` comes first. */
const newestFirst = (a: AuditCursor, b: AuditCursor): number => {
  const byTime = DateTime.toEpochMillis(b.receivedAt) - DateTime.toEpochMillis(a.receivedAt)
  if (byTime !== 0) return byTime
  return a.requestId === b.requestId ? 0 : a.requestId > b.requestId ? -1 : 1
}

const toEntry = ({ accountId: _, ...entry }: AuditRecord): AuditEntry => entry

/** One page of `records` for `query`: pure, so the SQL adapters can be checked against it. */
export const auditPage = (records: ReadonlyArray<AuditRecord>, query: AuditQuery): AuditPage => {
  const fromMs = query.from === undefined ? Number.NEGATIVE_INFINITY : DateTime.toEpochMillis(query.from)
  const toMs = query.to === undefined ? Number.POSITIVE_INFINITY : DateTime.toEpochMillis(query.to)
  const after = query.after
  const matching = records
    .filter((r) =>
      r.accountId === query.accountId && ms(r) >= fromMs && ms(r) < toMs &&
      (after === undefined || newestFirst(r, after) > 0)
    )
    .sort(newestFirst)
  const limit = Math.max(0, Math.floor(query.limit))
  const page = matching.slice(0, limit)
  const last = page[page.length - 1]
  return {
    entries: page.map(toEntry),
    next: matching.length > limit && last !== undefined
      ? { receivedAt: last.receivedAt, requestId: last.requestId }
      : undefined
  }
}

const encodeEntry = trustedEncoder(AuditEntry)

/** `auditPage` in its wire form, as `AuditLog.pageJson` returns it. */
export const auditPageJson = (records: ReadonlyArray<AuditRecord>, query: AuditQuery): AuditPageJson => {
  const page = auditPage(records, query)
  return { entries: page.entries.map((entry) => JSON.stringify(encodeEntry(entry))), next: page.next }
}

/** A fresh in-memory audit log and its read side, sharing one array. */
export const makeInMemoryAuditLog = (): { readonly log: AuditLog; readonly audit: InMemoryAudit } => {
  const records: Array<AuditRecord> = []
  let available = true
  const unavailable = new StorageUnavailable({ message: "in-memory audit log switched off" })
  const log: AuditLog = {
    append: (record) =>
      Effect.suspend(() => {
        if (!available) return Effect.fail(unavailable)
        records.push(record)
        return Effect.void
      }),
    page: (query) => Effect.suspend(() => available ? Effect.succeed(auditPage(records, query)) : Effect.fail(unavailable)),
    pageJson: (query) =>
      Effect.suspend(() => available ? Effect.succeed(auditPageJson(records, query)) : Effect.fail(unavailable))
  }
  const audit: InMemoryAudit = {
    records: Effect.sync(() => records.slice()),
    setAvailable: (value) => Effect.sync(() => { available = value })
  }
  return { log, audit }
}

/** AuditLog in memory, plus `InMemoryAudit` to read what was recorded. A fresh log per build. */
export const InMemoryAuditLog: Layer.Layer<AuditLog | InMemoryAudit> = Layer.effectContext(
  Effect.sync(() => {
    const { audit, log } = makeInMemoryAuditLog()
    return Context.make(AuditLog, log).pipe(Context.add(InMemoryAudit, audit))
  })
)
