/** Reads the audit of an account straight from a database (file path or postgres:// URL), through the storage port. */
import { Effect, Layer, Option, Schema } from "effect"
import { AccountId, type AuditCursor, AuditLog, type AuditPage } from "@ridequote/core"
import { parseDatabaseLocation } from "../../src/Settings.js"
import { StorageLive } from "../../src/Storage.js"

/** Every requestId audited for the account (all pages). */
export const auditedRequestIds = (database: string, accountId: string): Promise<ReadonlySet<string>> =>
  Effect.gen(function*() {
    const log = yield* AuditLog
    const id = yield* Schema.decodeUnknown(AccountId)(accountId)
    const ids = new Set<string>()
    let after: AuditCursor | undefined = undefined
    for (;;) {
      const page: AuditPage = yield* log.page({ accountId: id, limit: 500, after })
      for (const entry of page.entries) ids.add(entry.requestId)
      if (page.next === undefined) return ids
      after = page.next
    }
  }).pipe(
    Effect.provide(
      Effect.map(parseDatabaseLocation(database), (location) => StorageLive(location, Option.none())).pipe(
        (layer) => Layer.unwrapEffect(layer)
      )
    ),
    Effect.runPromise
  )
