/**
 * The in-memory view of revocations and account status that token verification consults
 * instead of storage. It applies this instance's own revocations at once, follows the
 * storage's change feed on a schedule, and fails closed when its view is too old.
 */
import { Context, Duration } from "effect"
import type { Effect, Option } from "effect"
import type { Account } from "../Account.js"
import type { AccessViewStale, StorageUnavailable } from "../Errors.js"
import type { AccountId, Jti } from "../Ids.js"

export const DEFAULT_REFRESH_INTERVAL = Duration.seconds(5)
/** Contract §2: a view older than this refuses bearer calls (503) rather than honour a revoked token. */
export const MAX_STALENESS = Duration.seconds(60)

export interface AccessSnapshotConfig {
  /** How often to read the change feed; clamped to (0, 60 s]. */
  readonly refreshInterval: Duration.DurationInput
}

export interface AccessSnapshot {
  /** Fails with AccessViewStale when the last successful refresh is older than MAX_STALENESS. */
  readonly ensureFresh: Effect.Effect<void, AccessViewStale>
  readonly isRevoked: (jti: Jti) => boolean
  /** The account as last seen; loaded from storage the first time it is asked for. */
  readonly account: (id: AccountId) => Effect.Effect<Option.Option<Account>, StorageUnavailable>
  /** Applies a revocation made on this instance, before the feed brings it back. */
  readonly markRevoked: (jti: Jti, expiresAtMs: number) => Effect.Effect<void>
  /** Applies an account change made on this instance. */
  readonly accountChanged: (account: Account) => Effect.Effect<void>
  /** Reads the feed once; the layer runs this on the schedule. */
  readonly refresh: Effect.Effect<void, StorageUnavailable>
}

export const AccessSnapshot = Context.GenericTag<AccessSnapshot>("@ridequote/core/AccessSnapshot")
