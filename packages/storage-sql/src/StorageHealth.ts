/** StorageHealth over SQL: `SELECT 1` answers whether the database is reachable (GET /health/ready). */
import * as SqlClient from "@effect/sql/SqlClient"
import { StorageHealth } from "@ridequote/core"
import { Effect, Layer } from "effect"
import { orUnavailable } from "./Unavailable.js"

export const makeStorageHealth = Effect.map(SqlClient.SqlClient, (sql) =>
  StorageHealth.of({ ping: sql`SELECT 1`.pipe(Effect.asVoid, orUnavailable("health check")) }))

/** `StorageHealth` on a `SqlClient`: the readiness probe's `SELECT 1`. */
export const SqlStorageHealthLive: Layer.Layer<StorageHealth, never, SqlClient.SqlClient> = Layer.effect(
  StorageHealth,
  makeStorageHealth
)
