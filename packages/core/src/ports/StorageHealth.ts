/** Port: is storage reachable? Backs `GET /health/ready`. */
import type { Effect } from "effect"
import { Context } from "effect"
import type { StorageUnavailable } from "../Errors.js"

export interface StorageHealth {
  readonly ping: Effect.Effect<void, StorageUnavailable>
}

export const StorageHealth = Context.GenericTag<StorageHealth>("@ridequote/core/StorageHealth")
