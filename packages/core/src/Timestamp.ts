/**
 * Strict ISO 8601 timestamps for the wire.
 *
 * JavaScript's `Date` parser rolls impossible dates over (30 February becomes 2 March) and
 * accepts many non-ISO shapes; the contract wants both refused. So we parse the fields
 * ourselves, check each against the calendar, and require an explicit zone (`Z` or ±hh:mm).
 * Encoding always writes UTC with milliseconds (`2026-11-22T10:15:30.123Z`).
 */
import { DateTime, Either, ParseResult, Schema } from "effect"
import { TrustedCodecId } from "./Encoding.js"
import type { TrustedCodec } from "./Encoding.js"

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:\d{2})$/

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const daysInMonth = (y: number, m: number): number =>
  m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31

/** Parses a strict ISO 8601 timestamp with a zone; `Left` carries a human-readable reason. */
export const parseIsoTimestamp = (input: string): Either.Either<DateTime.Utc, string> => {
  const m = ISO.exec(input)
  if (m === null) return Either.left("expected an ISO 8601 timestamp with a time zone, e.g. 2026-11-22T10:15:30.123Z")
  const [, ys, mos, ds, hs, mins, ss, frac, zone] = m
  const year = Number(ys), month = Number(mos), day = Number(ds)
  const hour = Number(hs), minute = Number(mins), second = ss === undefined ? 0 : Number(ss)
  if (month < 1 || month > 12) return Either.left(`month ${mos} does not exist`)
  if (day < 1 || day > daysInMonth(year, month)) return Either.left(`day ${ds} does not exist in ${ys}-${mos}`)
  if (hour > 23 || minute > 59 || second > 59) return Either.left("time of day out of range")
  let offsetMinutes = 0
  if (zone !== undefined && zone !== "Z" && zone !== "z") {
    const sign = zone.startsWith("-") ? -1 : 1
    const oh = Number(zone.slice(1, 3)), om = Number(zone.slice(4, 6))
    if (oh > 14 || om > 59 || (oh === 14 && om > 0)) return Either.left(`time zone offset ${zone} out of range`)
    offsetMinutes = sign * (oh * 60 + om)
  }
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000)
  // setUTCFullYear, unlike Date.UTC, takes years 0..99 literally.
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  d.setUTCHours(hour, minute, second, millis)
  return Either.right(DateTime.unsafeMake(d.getTime() - offsetMinutes * 60_000))
}

/**
 * For timestamps we wrote ourselves (`trustedEncoder`/`trustedDecoder`): the same text as
 * `DateTime.formatIso` (its `toISOString()`, without its steps), the same instant.
 */
const trustedTimestamp: TrustedCodec = {
  encode: (dt: DateTime.Utc) => new Date(dt.epochMillis).toISOString(),
  decode: (s: string) => DateTime.unsafeMake(s)
}

/** ISO 8601 string on the wire, `DateTime.Utc` in the domain. */
export const Timestamp = Schema.transformOrFail(
  Schema.String,
  Schema.DateTimeUtcFromSelf,
  {
    strict: true,
    decode: (s, _, ast) =>
      Either.match(parseIsoTimestamp(s), {
        onLeft: (reason) => ParseResult.fail(new ParseResult.Type(ast, s, reason)),
        onRight: ParseResult.succeed
      }),
    encode: (dt) => ParseResult.succeed(DateTime.formatIso(dt))
  }
).annotations({
  identifier: "Timestamp",
  description: "ISO 8601 timestamp with a time zone; responses use UTC with milliseconds",
  examples: [DateTime.unsafeMake("2026-11-22T10:15:30.123Z")],
  jsonSchema: { type: "string", format: "date-time" },
  [TrustedCodecId]: trustedTimestamp
})
