/**
 * Reads trip-record CSV text of a known format into observed trips, counting every rejected
 * row by reason. Pure: the commands read the files and hand the text over.
 */
import { Either, Schema } from "effect"
import { chicagoRows } from "./Chicago.js"
import { fnv1a, parseCsvLine } from "./Csv.js"
import { nycNeedsZones, nycTlcRows } from "./NycTlc.js"
import type { SpecialFareTrip, ZoneCentroids } from "./NycTlc.js"
import type { ObservedTrip } from "./ObservedTrip.js"

import type { SourceFormat } from "./Formats.js"
export { SOURCE_FORMATS } from "./Formats.js"
export type { SourceFormat } from "./Formats.js"

/** The trips read from a set of files, with how many rows were read and why the others were left out. */
export interface TripTable {
  readonly trips: ReadonlyArray<ObservedTrip>
  readonly rowsRead: number
  readonly rejected: Readonly<Record<string, number>>
  /** NYC zone files: trips of rate codes 2 and 3 (JFK flat fare, Newark), for the special fares. */
  readonly specialFares?: ReadonlyArray<SpecialFareTrip>
  /** NYC zone files: the borough of each zone (from `--zones`). */
  readonly boroughs?: ReadonlyMap<number, string>
  /** NYC zone files: the zone centroids (from `--zones`). */
  readonly zones?: ZoneCentroids
}

/** A trip-record file's path (for messages) and its text, already read and decompressed. */
export interface TripFile {
  readonly path: string
  readonly text: string
}

/** A trip-record file that cannot be read as the format it was given as. */
export class TripRecordsInvalid extends Schema.TaggedError<TripRecordsInvalid>()("TripRecordsInvalid", {
  path: Schema.String,
  message: Schema.String
}) {}

const REQUIRED: Readonly<Record<SourceFormat, ReadonlyArray<ReadonlyArray<string>>>> = {
  "nyc-tlc": [
    ["vendor_id", "vendorid"],
    ["pickup_datetime", "tpep_pickup_datetime"],
    ["dropoff_datetime", "tpep_dropoff_datetime"],
    ["trip_distance"],
    ["rate_code_id", "ratecodeid"],
    ["fare_amount"]
  ],
  chicago: [["fare"], ["trip_start_timestamp"], ["trip_seconds"], ["trip_miles"], ["company"], ["pickup_latitude"]]
}

/** The split key of a row: the hash of the salt and the raw line, so a duplicated row never straddles the split. */
export const rowKey = (salt: string, line: string): number => fnv1a(`${salt}\u0000${line.trimEnd()}`)

/** Whether a row belongs to the held-out part for a given fraction. */
export const isHeldOut = (key: number, fraction: number): boolean => key % 10_000 < Math.round(fraction * 10_000)

/**
 * Every file's rows as observed trips; `salt` keys each row for the held-out split, `zones` is
 * needed for zone-level NYC files. Left when a file lacks the format's columns or needs zones.
 */
export const readTrips = (
  format: SourceFormat,
  files: ReadonlyArray<TripFile>,
  salt: string,
  zones: ZoneCentroids | undefined,
  boroughs?: ReadonlyMap<number, string>
): Either.Either<TripTable, TripRecordsInvalid> => {
  const trips: Array<ObservedTrip> = []
  const specialFares: Array<SpecialFareTrip> = []
  const rejected: Record<string, number> = {}
  let rowsRead = 0
  for (const file of files) {
    const lines = file.text.split("\n")
    const header = parseCsvLine(lines[0] ?? "").map((h) => h.trim())
    const lower = new Set(header.map((h) => h.toLowerCase()))
    const missing = REQUIRED[format].filter((names) => !names.some((n) => lower.has(n)))
    if (missing.length > 0) {
      return Either.left(new TripRecordsInvalid({
        path: file.path,
        message: `not a ${format} file: missing column(s) ${missing.map((n) => n[0]).join(", ")}`
      }))
    }
    if (format === "nyc-tlc" && nycNeedsZones(header) && zones === undefined) {
      return Either.left(new TripRecordsInvalid({
        path: file.path,
        message: "zone-level NYC file: pass --zones with the taxi-zone centroids (nyc-taxi-zones-with-centroids.csv)"
      }))
    }
    const row = format === "nyc-tlc" ? nycTlcRows(header, zones, (t) => specialFares.push(t)) : chicagoRows(header)
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] ?? ""
      if (line.trim() === "") continue
      rowsRead++
      const fields = parseCsvLine(line)
      const out = fields.length < header.length ? "malformed-row" : row(fields, rowKey(salt, line))
      if (typeof out === "string") rejected[out] = (rejected[out] ?? 0) + 1
      else trips.push(out)
    }
  }
  return Either.right({
    trips,
    rowsRead,
    rejected,
    ...(specialFares.length > 0 ? { specialFares } : {}),
    ...(boroughs === undefined ? {} : { boroughs }),
    ...(zones === undefined ? {} : { zones })
  })
}
