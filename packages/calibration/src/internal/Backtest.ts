/**
 * Backtest: replays trip requests through the quote pipeline as it would have run at each
 * trip's moment, one JSON line in, one JSON line out, streaming (constant memory whatever the
 * file size).
 *
 * Input line: `{"id"?, "pickup": {latitude, longitude}, "destination": {…},
 * "distanceKm"?, "durationMinutes"?, "at": "<ISO time with offset>"}`.
 * Output line, in input order: the quote core's `Quotes` gives at `at` in Realtime mode
 * (`requestId, mode, currency, distanceKm, durationMinutes, recommendations, marketPrices`)
 * plus the input's `id`; or, for a line that is not valid JSON, fails the schema, or is
 * refused by the quote rules, `{"id"?, "line": n, "error": {"code", "message", "details"?}}`.
 * Blank lines are skipped. The run goes on after an error line.
 */
import { createHash } from "node:crypto"
import * as FileSystem from "@effect/platform/FileSystem"
import type { PlatformError } from "@effect/platform/Error"
import { Chunk, Clock, DateTime, Duration, Effect, Either, Layer, ParseResult, Schema, Stream } from "effect"
import {
  AuditLog,
  BehaviorsLive,
  Coordinates,
  DEFAULT_BEHAVIOR,
  DistanceKm,
  DurationMinutes,
  PricingLive,
  Quotes,
  QuotesLive,
  Timestamp
} from "@ridequote/core"
import type { Account, AccountId, MarketData, QuoteResponse, RequestId, RouteResolver } from "@ridequote/core"
import { OfflineRouteResolverLive } from "@ridequote/routes"

/**
 * One line of a backtest's input: a quote request at a past moment `at`, with an optional `id`
 * echoed on its output line. Distance and duration follow the API's route rule (both or neither).
 */
export const BacktestRequest = Schema.Struct({
  id: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
  pickup: Coordinates,
  destination: Coordinates,
  distanceKm: Schema.optional(DistanceKm),
  durationMinutes: Schema.optional(DurationMinutes),
  /** The trip's moment: it is quoted as if requested then, in Realtime mode. */
  at: Timestamp
})
export type BacktestRequest = typeof BacktestRequest.Type

/** Lines read (blank ones skipped), and how many were answered with a quote or with an error. */
export interface BacktestSummary {
  readonly lines: number
  readonly quoted: number
  readonly errors: number
}

/** The account a backtest quotes for: Active, priced by the default behavior. */
const BACKTEST_ACCOUNT: Account = {
  id: "00000000-0000-4000-8000-000000000000" as AccountId,
  name: "backtest",
  status: "Active",
  tokenTtlSeconds: 86_400,
  pricing: { defaultBehavior: DEFAULT_BEHAVIOR, enabledBehaviors: [] },
  createdAt: DateTime.unsafeMake(0)
}

/** A backtest has nothing to audit: the records would describe quotes no one asked for. */
const UnrecordedAudit = Layer.succeed(AuditLog, {
  append: () => Effect.void,
  page: () => Effect.succeed({ entries: [], next: undefined }),
  pageJson: () => Effect.succeed({ entries: [], next: undefined })
})

/** A clock stopped at the trip's moment: Quotes reads "now" from it. */
const clockAt = (epochMillis: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => epochMillis,
  currentTimeMillis: Effect.succeed(epochMillis),
  unsafeCurrentTimeNanos: () => BigInt(epochMillis) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(epochMillis) * 1_000_000n),
  sleep: (d) => Effect.sleep(Duration.decode(d))
})

/** A deterministic request id (UUID v8) from the line's position and text: reruns diff cleanly. */
export const backtestRequestId = (lineNumber: number, line: string): RequestId => {
  const h = createHash("sha256").update(`${lineNumber}\n${line}`).digest("hex")
  const variant = ((parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}` as RequestId
}

const decodeRequest = Schema.decodeUnknownEither(BacktestRequest, { errors: "all", onExcessProperty: "ignore" })

interface ErrorLine {
  readonly id?: string | number
  readonly line: number
  readonly error: { readonly code: string; readonly message: string; readonly details?: ReadonlyArray<unknown> }
}

const idOf = (json: unknown): { id?: string | number } => {
  if (typeof json === "object" && json !== null && "id" in json) {
    const id = json.id
    if (typeof id === "string" || typeof id === "number") return { id }
  }
  return {}
}

const issuesOf = (e: ParseResult.ParseError): ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> =>
  ParseResult.ArrayFormatter.formatErrorSync(e).map((i) => ({ path: i.path, message: i.message }))

interface OutputLine {
  readonly text: string
  readonly quoted: boolean
}

const errorLine = (out: ErrorLine): OutputLine => ({ text: JSON.stringify(out), quoted: false })

/** Quotes one input line; every outcome is an output line. */
const quoteLine = (quotes: Quotes, line: string, lineNumber: number): Effect.Effect<OutputLine> => {
  const json = Either.try(() => JSON.parse(line) as unknown)
  if (Either.isLeft(json)) {
    return Effect.succeed(errorLine({ line: lineNumber, error: { code: "result:invalid-request", message: "line is not valid JSON" } }))
  }
  const id = idOf(json.right)
  const decoded = decodeRequest(json.right)
  if (Either.isLeft(decoded)) {
    return Effect.succeed(errorLine({
      ...id,
      line: lineNumber,
      error: {
        code: "result:invalid-request",
        message: "line does not match the backtest request schema",
        details: issuesOf(decoded.left)
      }
    }))
  }
  const { at, destination, distanceKm, durationMinutes, pickup } = decoded.right
  const request = {
    pickup,
    destination,
    ...(distanceKm !== undefined ? { distanceKm } : {}),
    ...(durationMinutes !== undefined ? { durationMinutes } : {})
  }
  return quotes.quote(BACKTEST_ACCOUNT, request, { requestId: backtestRequestId(lineNumber, line), receivedAt: at }).pipe(
    Effect.withClock(clockAt(DateTime.toEpochMillis(at))),
    Effect.match({
      onSuccess: (quote: QuoteResponse): OutputLine => ({ text: JSON.stringify({ ...id, ...quote }), quoted: true }),
      onFailure: (e) => {
        const details = "details" in e && e.details !== undefined ? { details: e.details } : {}
        return errorLine({ ...id, line: lineNumber, error: { code: e.code, message: e.message, ...details } })
      }
    })
  )
}

/** The quote pipeline a backtest runs: core's Quotes over the given markets and resolver, nothing audited. */
export const makeBacktestQuotesLive = (routes: Layer.Layer<RouteResolver>): Layer.Layer<Quotes, never, MarketData> =>
  QuotesLive.pipe(
    Layer.provide(Layer.mergeAll(routes, PricingLive.pipe(Layer.provide(BehaviorsLive)), UnrecordedAudit))
  )

/** The backtest pipeline with the offline route resolver (what the resolved spreads are calibrated on). */
export const BacktestQuotesLive: Layer.Layer<Quotes, never, MarketData> = makeBacktestQuotesLive(OfflineRouteResolverLive)

/** Optional progress reporting of `runBacktest`, e.g. lines on stderr. */
export interface BacktestProgress {
  /** Report every this many lines (checked once per input chunk). */
  readonly progressEvery: number
  readonly onProgress: (lines: number) => Effect.Effect<void>
}

/** Streams `input` (JSON lines) to `output` (JSON lines), one quote or error per non-blank line. */
export const runBacktest = (
  input: string,
  output: string,
  progress?: BacktestProgress
): Effect.Effect<BacktestSummary, PlatformError, FileSystem.FileSystem | Quotes> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const quotes = yield* Quotes
    let lines = 0, errors = 0, reported = 0
    yield* fs.stream(input, { chunkSize: 64 * 1024 }).pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.zipWithIndex,
      Stream.filter(([line]) => line.trim() !== ""),
      // A whole input chunk (~64 KiB of lines) at a time, written as one string: one write per
      // chunk instead of one per line, and memory bounded by the chunk size.
      Stream.mapChunksEffect((chunk) =>
        Effect.flatMap(
          Effect.forEach(chunk, ([line, index]) => quoteLine(quotes, line, index + 1)),
          (outs) => {
            let text = ""
            for (const out of outs) {
              lines++
              if (!out.quoted) errors++
              text += `${out.text}\n`
            }
            if (progress !== undefined && lines - reported >= progress.progressEvery) {
              reported = lines - (lines % progress.progressEvery)
              return Effect.as(progress.onProgress(lines), Chunk.of(text))
            }
            return Effect.succeed(Chunk.of(text))
          }
        )
      ),
      Stream.encodeText,
      Stream.run(fs.sink(output))
    )
    return { lines, quoted: lines - errors, errors }
  })
