/** Port: is storage reachable? Backs `GET /health/ready`. */
import type { Effect } from "effect"
import { Context } from "effect"
import type { StorageUnavailable } from "../Errors.js"

/** A cheap round trip to storage, which storage adapters implement. */
export interface StorageHealth {
  readonly ping: Effect.Effect<void, StorageUnavailable>
}

/** The StorageHealth port's tag. */
export const StorageHealth = Context.GenericTag<StorageHealth>("@ridequote/core/StorageHealth")
