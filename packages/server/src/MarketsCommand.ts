/**
 * `ridequote markets list`: the markets `serve` would price on, with the same `--markets` and
 * `--sample-fallback` settings, as an operator checks them before (or without) serving — each
 * market's area, reach, airports, currency, clock and what each offer's prices rest on at a moment. The same
 * listing as `GET /v1/markets` (core's `MarketSummary`); `--json` prints it as one object.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { InvalidRequest, MarketData, marketSummaries, MarketSummary, Timestamp } from "@ridequote/core"
import { marketsSelection, MarketsLive } from "@ridequote/markets"
import { Console, DateTime, Effect, Option, Schema } from "effect"
import { printJson } from "./Output.js"
import { jsonOption, marketsOption, sampleFallbackOption } from "./Settings.js"

const atOption = Options.text("at").pipe(
  Options.withPseudoName("INSTANT"),
  Options.withDescription("ISO 8601 instant whose tariffs and fits to show (e.g. 2024-01-01T00:00:00Z); default now."),
  Options.optional
)

const decodeAt = Schema.decodeUnknown(Timestamp)

/** `--at` as an instant (a zone is required, dates are strict), or now. */
const momentOf = (at: Option.Option<string>): Effect.Effect<DateTime.Utc, InvalidRequest> =>
  Option.match(at, {
    onNone: () => DateTime.now,
    onSome: (text) =>
      Effect.mapError(decodeAt(text), () =>
        new InvalidRequest({ message: "--at must be an ISO 8601 instant with a zone, e.g. 2024-01-01T00:00:00Z" }))
  })

const encodeSummary = Schema.encodeSync(MarketSummary)

const pad = (s: string, width: number): string => s + " ".repeat(Math.max(0, width - s.length))

/** Rows under a header, columns aligned; the last column is not padded. */
const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i] ?? 0))).join("  ")
  return [line(header), ...rows.map(line)].join("\n")
}

const coordinate = (n: number): string => String(Math.round(n * 1e4) / 1e4)

/** What an offer's prices rest on, in a few words: product, records, fare, tariff, level. */
const basisOf = (source: MarketSummary["offers"][number]["source"]): string => {
  const parts: Array<string> = []
  if (source.product !== undefined) parts.push(source.product)
  if (source.records !== undefined) parts.push(`${source.records.kind} ${source.records.from}..${source.records.to}`)
  if (source.fare !== undefined) parts.push(source.fare)
  if (source.tariff !== undefined) parts.push(`tariff: ${source.tariff.name} (from ${source.tariff.effectiveFrom})`)
  if (source.level !== undefined) {
    const { asOf, evidence, factor, high, low } = source.level
    // Without a factor, the evidence is a caveat (a newer rule not confirmed): an operator must see it.
    parts.push(`level as of ${asOf}${factor === undefined ? (evidence === undefined ? "" : ` (caveat: ${evidence})`) : ` ×${factor} (${low ?? "?"}–${high ?? "?"})`}`)
  }
  return parts.length === 0 ? "-" : parts.join("; ")
}

/** One block per market: its head line, then its offers as a table. */
export const marketsText = (summaries: ReadonlyArray<MarketSummary>, at: DateTime.Utc): string => {
  if (summaries.length === 0) return "No market is served (every quote would be refused)."
  const blocks = summaries.map((m) => {
    const { east, north, south, west } = m.area
    const head = `${m.id}  ${m.name}${m.sampleData ? " (SAMPLE DATA: invented prices)" : ""}\n` +
      `  currency ${m.currency}, time zone ${m.timeZone}, area ${coordinate(south)}..${coordinate(north)} lat, ` +
      `${coordinate(west)}..${coordinate(east)} lon` +
      (m.reachKm === undefined ? "" : `, reach ${m.reachKm} km`) +
      (m.airports.length === 0
        ? ""
        : `\n  airports ${m.airports.map((a) => `${a.iata} ${a.name} (${coordinate(a.latitude)}, ${coordinate(a.longitude)})`).join(", ")}`)
    const offers = table(
      ["OFFER", "BASIS"],
      m.offers.map((o) => [o.key, basisOf(o.source)])
    )
    return `${head}\n${offers.split("\n").map((l) => `  ${l}`).join("\n")}`
  })
  return [`Markets served at ${DateTime.formatIso(at)}:`, ...blocks].join("\n\n")
}

const list = Command.make(
  "list",
  { markets: marketsOption, sampleFallback: sampleFallbackOption, at: atOption, json: jsonOption },
  (options) =>
    Effect.gen(function*() {
      const at = yield* momentOf(options.at)
      const selection = marketsSelection(Option.getOrUndefined(options.markets), Option.getOrUndefined(options.sampleFallback))
      const data = yield* Effect.provide(MarketData, MarketsLive(selection))
      const summaries = marketSummaries(data.markets, at)
      if (options.json) {
        return yield* printJson({ at: DateTime.formatIso(at), markets: summaries.map((summary) => encodeSummary(summary)) })
      }
      yield* Console.log(marketsText(summaries, at))
    })
).pipe(Command.withDescription(
  "List the markets serve would price on (same --markets and --sample-fallback): area, currency, time zone, and what each offer's prices rest on"
))

export const marketsCommand = Command.make("markets").pipe(
  Command.withDescription("Inspect the markets the service prices on"),
  Command.withSubcommands([list])
)
