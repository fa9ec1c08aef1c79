/**
 * What the fit and evaluate commands of every record format share: reading a record file,
 * reading and writing a model file, the fit report's opening lines, the reliability plot, and
 * the commands' options. The taxi handlers (CommandHandlers) and the ride-hail handlers
 * (RideHailCommands) both build on this module, so neither imports the other.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { gunzipSync } from "node:zlib"
import { Console, Effect, Either, Option } from "effect"
import type { ServiceLevel } from "@ridequote/core"
import { invalid, parseModel, renderModel } from "@ridequote/markets/model"
import type { MarketModel } from "@ridequote/markets/model"
import type { RoutesChoice } from "@ridequote/routes"
import type { MarketFitBase } from "./Fit.js"
import type { FitFormat } from "./sources/Formats.js"
import { TripRecordsInvalid } from "./sources/TripRecords.js"

export const progressTo = (quiet: boolean) => (line: string) => (quiet ? Effect.void : Console.error(line))

/** A file's text; `.gz` files are gunzipped (the repository keeps its trip records compressed). */
export const readText = (path: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.readFile(path).pipe(
      Effect.mapError((e) => new TripRecordsInvalid({ path, message: `cannot read ${path}: ${e.message}` })),
      Effect.flatMap((bytes) =>
        Either.try({
          try: () => Buffer.from(path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"),
          catch: (e) => new TripRecordsInvalid({ path, message: `cannot decompress ${path}: ${String(e)}` })
        })
      )
    ))

/**
 * Writes a fitted model to `out`, round-tripped through the decoder first: never ship a file
 * MarketsLive would refuse. Every fit command ends this way, whatever its records.
 */
export const writeModel = (out: string, model: MarketModel) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = renderModel(model)
    yield* parseModel(out, text)
    yield* fs.writeFileString(out, text).pipe(Effect.mapError((e) => invalid(out, `cannot write (${e.message})`)))
  })

/** The JSON fit report's opening fields, the same for every format: the market, its file and what was read. */
export const fitReportFields = (model: MarketModel, out: string) => {
  const p = model.provenance
  return {
    market: model.id,
    out,
    rowsRead: p.rowsRead,
    rowsKept: p.rowsKept,
    trainingRows: p.trainingRows,
    heldOutRows: p.heldOutRows,
    rejected: p.rejected
  }
}

/** The text fit report's first two lines, the same for every format. */
export const fitReportHead = (model: MarketModel, out: string): ReadonlyArray<string> => {
  const p = model.provenance
  return [
    `market ${model.id} (${model.name}) written to ${out}`,
    `rows read ${p.rowsRead}, kept ${p.rowsKept} (training ${p.trainingRows}, held out ${p.heldOutRows})`
  ]
}

/** The model file `--model` names, read and decoded: what both evaluate commands start from. */
export const readModel = (path: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.readFileString(path).pipe(
      Effect.mapError((e) => invalid(path, `cannot read (${e.message})`)),
      Effect.flatMap((text) => parseModel(path, text))
    ))

/** Writes the reliability plot where `--plot` names a file; the SVG is drawn only then. */
export const writePlot = (
  plot: Option.Option<string>,
  svg: () => string,
  progress: (line: string) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    if (Option.isNone(plot)) return
    const fs = yield* FileSystem.FileSystem
    yield* fs.writeFileString(plot.value, svg()).pipe(
      Effect.mapError((e) => invalid(plot.value, `cannot write the plot (${e.message})`))
    )
    yield* progress(`reliability plot written to ${plot.value}`)
  })

export interface FitCommandOptions {
  readonly inputs: ReadonlyArray<string>
  readonly format: FitFormat
  readonly zones: Option.Option<string>
  readonly places: Option.Option<string>
  readonly products: Option.Option<string>
  readonly period: Option.Option<string>
  readonly records: "quotes" | "trips"
  readonly joins: Option.Option<string>
  readonly out: string
  readonly id: Option.Option<string>
  readonly name: Option.Option<string>
  readonly timeZone: Option.Option<string>
  readonly currency: string
  readonly serviceLevel: ServiceLevel
  readonly provider: Option.Option<string>
  readonly product: Option.Option<string>
  readonly holdout: number
  readonly minProviderRows: number
  readonly quiet: boolean
  readonly json: boolean
}

export interface EvaluateCommandOptions {
  readonly model: string
  readonly inputs: ReadonlyArray<string>
  readonly format: FitFormat
  readonly zones: Option.Option<string>
  readonly places: Option.Option<string>
  readonly products: Option.Option<string>
  readonly folds: number
  readonly asShipped: boolean
  readonly cuts: ReadonlyArray<string>
  readonly horizonMonths: number
  readonly plot: Option.Option<string>
  readonly routes: RoutesChoice
  readonly minProviderRows: number
  readonly tariff: Option.Option<string>
  readonly today: Option.Option<string>
  readonly rulesOnly: boolean
  readonly quiet: boolean
  readonly json: boolean
}

/**
 * What every refit of a model keeps of the fit that made it, taxi or ride-hail: the market,
 * its records and the split's salt. Nothing is held out: the evaluation chooses the rows.
 */
export const refitBase = (model: MarketModel): MarketFitBase => ({
  id: model.id,
  name: model.name,
  timeZone: model.timeZone,
  currency: model.currency,
  source: model.provenance.source,
  inputs: model.provenance.inputs,
  holdoutFraction: 0,
  salt: model.provenance.holdout.salt
})
