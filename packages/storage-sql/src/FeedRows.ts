/**
 * Rows of `access_changes`, the table behind the AccessFeed. Every revocation and account
 * change is written here in the same transaction as the change itself, so an instance that
 * follows the feed can never see the change without its feed row, or the reverse.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Dialect } from "./Dialect.js"
import { chunkRows } from "./Dialect.js"

/** `KeyRetired` rows carry the key's kid in `jti` and an empty `account_id` (no account). */
export type ChangeKind = "TokenRevoked" | "AccountChanged" | "KeyRetired"

export interface ChangeRow {
  readonly kind: ChangeKind
  readonly account_id: string
  readonly jti: string | null
  readonly expires_at_ms: number | null
  readonly at_ms: number
}

const COLUMNS = 5

/**
 * Appends feed rows (multi-row INSERTs under the bind-parameter limit) and notifies listeners.
 * Call inside the change's transaction, after `d.lockFeed` opened it (see `Dialect.lockFeed`).
 */
export const appendChanges = (sql: SqlClient.SqlClient, d: Dialect, rows: ReadonlyArray<ChangeRow>) =>
  rows.length === 0 ? Effect.void : Effect.zipRight(
    Effect.forEach(
      chunkRows(rows, COLUMNS, d.maxBindParameters),
      (chunk) => sql`INSERT INTO access_changes ${sql.insert(chunk.map((row) => ({ ...row })))}`,
      { discard: true }
    ),
    d.notifyFeed
  )
