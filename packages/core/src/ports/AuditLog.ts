/** Port: the durable audit of quote requests. */
import type { Effect } from "effect"
import { Context } from "effect"
import type { AuditPage, AuditPageJson, AuditQuery, AuditRecord } from "../Audit.js"
import type { StorageUnavailable } from "../Errors.js"

export interface AuditLog {
  /** Succeeds only once the record is durable: a crash right after cannot lose it. */
  readonly append: (record: AuditRecord) => Effect.Effect<void, StorageUnavailable>
  /** Newest first (receivedAt desc, requestId desc), keyset-paged, within [from, to). */
  readonly page: (query: AuditQuery) => Effect.Effect<AuditPage, StorageUnavailable>
  /**
   * The same page with each entry as the JSON of its wire encoding (what `GET /v1/audit/recent`
   * writes out): an adapter that stores that JSON returns it without decoding it.
   */
  readonly pageJson: (query: AuditQuery) => Effect.Effect<AuditPageJson, StorageUnavailable>
}

export const AuditLog = Context.GenericTag<AuditLog>("@ridequote/core/AuditLog")
