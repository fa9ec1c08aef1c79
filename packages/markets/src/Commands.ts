/**
 * The market commands of the `ridequote` program (mounted by @ridequote/server; runnable on
 * their own through ./bin.ts):
 *
 *   ridequote market fit --input FILE [--input FILE…] --format nyc-tlc|chicago [--zones FILE] --out model.json
 *   ridequote market evaluate --model model.json --input FILE [--input FILE…] --format … [--zones FILE] [--json]
 *   ridequote backtest --input trips.jsonl --output quotes.jsonl [--markets DIR] [--sample-fallback on|off]
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FileSystem from "@effect/platform/FileSystem"
import { Clock, Console, Effect, Option } from "effect"
import { SERVICE_LEVELS } from "@ridequote/core"
import type { ServiceLevel } from "@ridequote/core"
import { BacktestQuotesLive, runBacktest } from "./Backtest.js"
import { evaluate, renderEvaluation, targetMisses } from "./Evaluation.js"
import { DEFAULT_HOLDOUT, fitMarket } from "./Fit.js"
import { MarketsLive } from "./MarketsLive.js"
import { invalid, parseModel, renderModel } from "./ModelFile.js"
import { parseZoneCentroids } from "./sources/NycTlc.js"
import type { ZoneCentroids } from "./sources/NycTlc.js"
import { readTrips, SOURCE_FORMATS, TripRecordsInvalid } from "./sources/TripRecords.js"
import type { SourceFormat, TripTable } from "./sources/TripRecords.js"

/** Per-format defaults: the market a source's records describe. */
export const FORMAT_DEFAULTS: Readonly<Record<SourceFormat, { id: string; name: string; timeZone: string }>> = {
  "nyc-tlc": { id: "nyc", name: "New York City (yellow taxi, metered)", timeZone: "America/New_York" },
  chicago: { id: "chicago", name: "Chicago (taxi, metered)", timeZone: "America/Chicago" }
}

const inputs = Options.file("input").pipe(
  Options.repeated,
  Options.withDescription("Trip-record CSV file (repeat for several files of the same format)")
)
const format = Options.choice("format", SOURCE_FORMATS).pipe(Options.withDescription("Column layout of the input files"))
const zones = Options.file("zones").pipe(
  Options.withDescription("NYC taxi-zone centroids CSV (LocationID, centroid_lon, centroid_lat): needed for zone-level NYC files"),
  Options.optional
)

/** Reads the inputs of one format into a trip table (same salt as the model's split). */
const readTable = (
  paths: ReadonlyArray<string>,
  sourceFormat: SourceFormat,
  zonesPath: Option.Option<string>,
  salt: string
) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    if (paths.length === 0) {
      return yield* new TripRecordsInvalid({ path: "", message: "give at least one --input file" })
    }
    const readText = (path: string) =>
      fs.readFileString(path).pipe(
        Effect.mapError((e) => new TripRecordsInvalid({ path, message: `cannot read ${path}: ${e.message}` }))
      )
    const zoneTable: ZoneCentroids | undefined = Option.isSome(zonesPath)
      ? parseZoneCentroids(yield* readText(zonesPath.value))
      : undefined
    const files = yield* Effect.forEach(paths, (path) => Effect.map(readText(path), (text) => ({ path, text })))
    return yield* readTrips(sourceFormat, files, salt, zoneTable)
  })

const describeRejections = (table: TripTable): string =>
  Object.entries(table.rejected)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ")

export const fitCommand = Command.make(
  "fit",
  {
    inputs,
    format,
    zones,
    out: Options.file("out").pipe(Options.withDescription("Where to write the model JSON")),
    id: Options.text("id").pipe(Options.withDescription("Market id (default: nyc / chicago by format)"), Options.optional),
    name: Options.text("name").pipe(Options.withDescription("Market name"), Options.optional),
    timeZone: Options.text("time-zone").pipe(
      Options.withDescription("IANA time zone of the records' local times (default by format)"),
      Options.optional
    ),
    currency: Options.text("currency").pipe(Options.withDefault("USD")),
    serviceLevel: Options.choice("service-level", SERVICE_LEVELS).pipe(Options.withDefault("Standard" as ServiceLevel)),
    holdout: Options.float("holdout").pipe(
      Options.withDescription("Share of rows held out for `market evaluate` (never fitted)"),
      Options.withDefault(DEFAULT_HOLDOUT.fraction)
    ),
    minProviderRows: Options.integer("min-provider-rows").pipe(
      Options.withDescription("Providers with fewer training rows are pooled as \"other\""),
      Options.withDefault(300)
    )
  },
  (o) =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const fs = yield* FileSystem.FileSystem
      const defaults = FORMAT_DEFAULTS[o.format]
      const table = yield* readTable(o.inputs, o.format, o.zones, DEFAULT_HOLDOUT.salt)
      const model = yield* fitMarket(table, {
        id: Option.getOrElse(o.id, () => defaults.id),
        name: Option.getOrElse(o.name, () => defaults.name),
        timeZone: Option.getOrElse(o.timeZone, () => defaults.timeZone),
        currency: o.currency,
        source: o.format,
        inputs: o.inputs,
        holdoutFraction: o.holdout,
        salt: DEFAULT_HOLDOUT.salt,
        minProviderRows: o.minProviderRows,
        serviceLevel: o.serviceLevel
      })
      const text = renderModel(model)
      // Round-trip through the decoder before writing: never ship a file MarketsLive would refuse.
      yield* parseModel(o.out, text)
      yield* fs.writeFileString(o.out, text).pipe(Effect.mapError((e) => invalid(o.out, `cannot write (${e.message})`)))
      const p = model.provenance
      yield* Console.log(
        [
          `market ${model.id} (${model.name}) written to ${o.out}`,
          `rows read ${p.rowsRead}, kept ${p.rowsKept} (training ${p.trainingRows}, held out ${p.heldOutRows})`,
          `rejected: ${describeRejections(table)}`,
          `providers: ${model.providers.map((x) => `${x.provider} (${x.trainingRows.supplied})`).join(", ")}`,
          `route profile: detour factor ${model.routeProfile.detourFactor}, speed ${
            Math.min(...model.routeProfile.speedKmhByHour).toFixed(1)
          }–${Math.max(...model.routeProfile.speedKmhByHour).toFixed(1)} km/h by hour`,
          `fitted in ${(((yield* Clock.currentTimeMillis) - started) / 1000).toFixed(1)} s`
        ].join("\n")
      )
    })
).pipe(Command.withDescription("Fit a market model from trip records (a held-out part is kept aside for evaluate)"))

export const evaluateCommand = Command.make(
  "evaluate",
  {
    model: Options.file("model").pipe(Options.withDescription("Model file written by `market fit`")),
    inputs,
    format,
    zones,
    json: Options.boolean("json").pipe(Options.withDescription("Print the evaluation as JSON"))
  },
  (o) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const text = yield* fs.readFileString(o.model).pipe(Effect.mapError((e) => invalid(o.model, `cannot read (${e.message})`)))
      const model = yield* parseModel(o.model, text)
      const table = yield* readTable(o.inputs, o.format, o.zones, model.provenance.holdout.salt)
      const result = evaluate(model, table)
      if (o.json) return yield* Console.log(JSON.stringify(result, null, 2))
      const misses = targetMisses(result)
      yield* Console.log(
        [
          renderEvaluation([result]),
          "",
          `held-out rows ${result.heldOutRows} (${result.outsideArea} outside the market's area)`,
          misses.length === 0 ? "targets: all met" : `targets missed:\n  ${misses.join("\n  ")}`
        ].join("\n")
      )
    })
).pipe(Command.withDescription("Coverage and pinball loss of a model on the held-out rows the fit never saw"))

export const marketCommand = Command.make("market").pipe(
  Command.withDescription("Fit and evaluate calibrated markets from trip records"),
  Command.withSubcommands([fitCommand, evaluateCommand])
)

export const backtestCommand = Command.make(
  "backtest",
  {
    input: Options.file("input").pipe(Options.withDescription("JSON lines: {id?, pickup, destination, distanceKm?, durationMinutes?, at}")),
    output: Options.file("output").pipe(Options.withDescription("JSON lines: one quote (or error) per input line")),
    markets: Options.directory("markets").pipe(
      Options.withDescription("Folder of market models; without it every trip is priced on the sample market"),
      Options.optional
    ),
    sampleFallback: Options.choice("sample-fallback", ["on", "off"]).pipe(
      Options.withDescription("With --markets: price places no market serves on the sample market (on) or as errors (off)"),
      Options.withDefault("off" as const)
    )
  },
  (o) =>
    Effect.gen(function*() {
      const summary = yield* runBacktest(o.input, o.output).pipe(
        Effect.provide(BacktestQuotesLive),
        Effect.provide(MarketsLive(Option.match(o.markets, {
          onNone: () => ({ fallbackToSample: true }),
          onSome: (dir) => ({ dir, fallbackToSample: o.sampleFallback === "on" })
        })))
      )
      yield* Console.log(`${summary.lines} lines: ${summary.quoted} quoted, ${summary.errors} errors → ${o.output}`)
    })
).pipe(Command.withDescription("Quote every trip of a JSON-lines file as ridequote would have at its moment"))
