/** Port: the durable audit of quote requests. */
import type { Effect } from "effect"
import { Context } from "effect"
import type { AuditPage, AuditQuery, AuditRecord } from "../Audit.js"
import type { StorageUnavailable } from "../Errors.js"

export interface AuditLog {
  /** Succeeds only once the record is durable: a crash right after cannot lose it. */
  readonly append: (record: AuditRecord) => Effect.Effect<void, StorageUnavailable>
  /** Newest first (receivedAt desc, requestId desc), keyset-paged, within [from, to). */
  readonly page: (query: AuditQuery) => Effect.Effect<AuditPage, StorageUnavailable>
}

export const AuditLog = Context.GenericTag<AuditLog>("@ridequote/core/AuditLog")
