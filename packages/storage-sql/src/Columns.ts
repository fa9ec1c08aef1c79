/** Column encodings shared by the repositories. */
import { DateTime, Schema } from "effect"

/** A 64-bit integer column: the SQLite driver returns a number, node-postgres a string for BIGINT. */
export const DbInt = Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.int())

/** Stored times are epoch milliseconds; the wire form core's `Timestamp` decodes is ISO 8601. */
export const isoFromMillis = (ms: number): string => new Date(ms).toISOString()

export const millisOf = (dt: DateTime.DateTime): number => DateTime.toEpochMillis(dt)
