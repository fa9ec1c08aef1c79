/** Port: the durable audit of quote requests. */
import { Cause, Context, Effect, Option } from "effect"
import type { AuditPage, AuditPageJson, AuditQuery, AuditRecord } from "../Audit.js"
import { StorageUnavailable } from "../Errors.js"

/** Called once a submitted record is durable (`undefined`) or could not be written. */
export type AuditDone = (failure: StorageUnavailable | undefined) => void

/** The durable audit of quote requests, which storage adapters implement. */
export interface AuditLog {
  /** Succeeds only once the record is durable: a crash right after cannot lose it. */
  readonly append: (record: AuditRecord) => Effect.Effect<void, StorageUnavailable>
  /**
   * Optional: hands the record to the same durable write as `append` at once and calls `done`
   * when it is durable or failed, so that nothing waits inside a fiber. A host that answers from
   * `done` keeps the rule "no answer without its record" while its request fibers finish before
   * the commit: a fiber suspended across the commit keeps the whole request reachable through
   * V8's young-generation collections, which promotes it (docs/performance.md, change 23).
   * Adapters without it are served through `append`, in the caller's fiber (`submitAudit`).
   */
  readonly submit?: ((record: AuditRecord, done: AuditDone) => void) | undefined
  /** Newest first (receivedAt desc, requestId desc), keyset-paged, within [from, to). */
  readonly page: (query: AuditQuery) => Effect.Effect<AuditPage, StorageUnavailable>
  /**
   * The same page with each entry as the JSON of its wire encoding (what `GET /v1/audit/recent`
   * writes out): an adapter that stores that JSON returns it without decoding it.
   */
  readonly pageJson: (query: AuditQuery) => Effect.Effect<AuditPageJson, StorageUnavailable>
}

/** The AuditLog port's tag; an engine provides it, so embedders read the audit back through it. */
export const AuditLog = Context.GenericTag<AuditLog>("@ridequote/core/AuditLog")

const appendDefect = new StorageUnavailable({ message: "storage failed while appending the audit" })

/**
 * Submits `record` to `log` and calls `done` exactly once, when the record is durable or failed.
 * With the adapter's own `submit` the effect returns at once. Without it, `append` runs here, in
 * the caller's fiber, so the record is already durable (or failed) when the effect returns: the
 * fallback never forks. A defect in the adapter reports as StorageUnavailable, so that a waiting
 * answer is never left hanging.
 */
export const submitAudit = (log: AuditLog, record: AuditRecord, done: AuditDone): Effect.Effect<void> => {
  const submit = log.submit
  if (submit !== undefined) return Effect.sync(() => submit(record, done))
  return Effect.matchCause(log.append(record), {
    onFailure: (cause) => done(Option.getOrElse(Cause.failureOption(cause), () => appendDefect)),
    onSuccess: () => done(undefined)
  })
}
