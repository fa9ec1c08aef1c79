/**
 * `market fit --format ride-hail` and `market evaluate --format ride-hail`: ride-hail price
 * records (quotes or trips) → a market of products (provider × service level), and its
 * cross-validated coverage and pinball loss per product. Loaded only when used.
 */
import { Clock, Console, Effect, Either, Option } from "effect"
import type { EvaluateCommandOptions, FitCommandOptions } from "./CommandFiles.js"
import { fitReportFields, fitReportHead, progressTo, readModel, readText, refitBase, writeModel, writePlot } from "./CommandFiles.js"
import { routeName } from "./Evaluation.js"
import { DEFAULT_HOLDOUT } from "./Fit.js"
import {
  crossValidate,
  renderRideHailEvaluation,
  RIDE_HAIL_TARGETS,
  rideHailLineMisses,
  rideHailMisses,
  scoreAsShipped
} from "./RideHailEvaluation.js"
import { fitRideHailMarket } from "./RideHailFit.js"
import type { RideHailFitOptions } from "./RideHailFit.js"
import type { Place } from "./PlacePairsFit.js"
import { productReliabilitySvg } from "./Plot.js"
import { parseZoneCentroids } from "./sources/NycTlc.js"
import { parsePlaces, parseProducts, productTable, readHvfhv, readQuotes } from "./sources/RideHailQuotes.js"
import { TripRecordsInvalid } from "./sources/TripRecords.js"

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** `FROM..TO` → local dates, or a message. */
export const parsePeriod = (text: string): Either.Either<{ from: string; to: string }, TripRecordsInvalid> => {
  const [from = "", to = ""] = text.split("..").map((s) => s.trim())
  return DATE.test(from) && DATE.test(to) && from <= to
    ? Either.right({ from, to })
    : Either.left(new TripRecordsInvalid({ path: "--period", message: `--period must be FROM..TO (YYYY-MM-DD..YYYY-MM-DD), got "${text}"` }))
}

const readQuoteTable = (
  o: Pick<FitCommandOptions, "format" | "inputs" | "places" | "products" | "zones">,
  salt: string,
  progress: (line: string) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    const { inputs, places: placesPath, products: productsPath } = o
    if (inputs.length === 0) return yield* new TripRecordsInvalid({ path: "", message: "give at least one --input file" })
    if (o.format === "nyc-hvfhv") {
      const zones = Option.isSome(o.zones) ? parseZoneCentroids(yield* readText(o.zones.value)) : undefined
      const files = yield* Effect.forEach(inputs, (path) =>
        Effect.tap(Effect.map(readText(path), (text) => ({ path, text })), () => progress(`read ${path}`)))
      const table = yield* readHvfhv(files, salt, zones)
      yield* progress(`${table.rowsRead} rows, ${table.quotes.length} usable trips`)
      return table
    }
    const places = Option.isSome(placesPath) ? yield* parsePlaces(placesPath.value, yield* readText(placesPath.value)) : undefined
    const extra = Option.isSome(productsPath) ? yield* parseProducts(productsPath.value, yield* readText(productsPath.value)) : []
    const files = yield* Effect.forEach(inputs, (path) =>
      Effect.tap(Effect.map(readText(path), (text) => ({ path, text })), () => progress(`read ${path}`)))
    const table = yield* readQuotes(files, salt, places, productTable(extra))
    yield* progress(`${table.rowsRead} rows, ${table.quotes.length} usable prices`)
    return table
  })

/** The named places of `--places`, in the file's order, for the place-pair table; none without the option. */
const placesOf = (o: Pick<FitCommandOptions, "format" | "places">) =>
  Effect.gen(function*() {
    if (o.format === "nyc-hvfhv" || Option.isNone(o.places)) return undefined
    const places = yield* parsePlaces(o.places.value, yield* readText(o.places.value))
    return [...places.entries()].map(([name, c]): Place => [name, c.latitude, c.longitude])
  })

export const runRideHailFit = (o: FitCommandOptions) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const progress = progressTo(o.quiet)
    if (Option.isNone(o.timeZone)) {
      return yield* new TripRecordsInvalid({ path: "--time-zone", message: "--format ride-hail needs --time-zone (the IANA zone of the market)" })
    }
    const period = Option.isSome(o.period) ? yield* parsePeriod(o.period.value) : undefined
    const table = yield* readQuoteTable(o, DEFAULT_HOLDOUT.salt, progress)
    const places = yield* placesOf(o)
    yield* progress("fitting: detour factor, base fare and spread per product")
    const model = yield* fitRideHailMarket(table, {
      id: Option.getOrElse(o.id, () => "ride-hail"),
      name: Option.getOrElse(o.name, () => "Ride-hail market"),
      timeZone: o.timeZone.value,
      currency: o.currency,
      source: o.format,
      ...(Option.isSome(o.joins) ? { joins: o.joins.value } : {}),
      inputs: o.inputs,
      holdoutFraction: o.holdout,
      salt: DEFAULT_HOLDOUT.salt,
      recordKind: o.format === "nyc-hvfhv" ? "trips" : o.records,
      ...(period === undefined ? {} : { period }),
      ...(places === undefined ? {} : { places })
    })
    yield* writeModel(o.out, model)
    const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
    const p = model.provenance
    const products = model.providers.map((x) => `${x.provider}/${x.serviceLevel} (${x.product ?? ""})`)
    if (o.json) return yield* Console.log(JSON.stringify({ ...fitReportFields(model, o.out), providers: model.providers, seconds }))
    yield* Console.log([
      ...fitReportHead(model, o.out),
      `rejected: ${Object.entries(p.rejected).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}`,
      `products: ${products.join(", ")}`,
      `records: ${p.trainingSpan.from} – ${p.trainingSpan.to}; detour factor ${model.routeProfile.detourFactor}`,
      ...(model.placePairs === undefined ? [] : [
        `place pairs: ${Object.values(model.placePairs.pairs).reduce((n, rows) => n + rows.length, 0)} provider × pair levels between ${model.placePairs.places.length} places (within ${model.placePairs.radiusKm * 1000} m); ${
          (model.placePairs.routes ?? []).reduce((n, rows) => n + rows.length, 0)
        } product × route levels`
      ]),
      `fitted in ${seconds.toFixed(1)} s`
    ].join("\n"))
  })

/** The fit options a model was made with (refitted per fold). */
export const rideHailOptionsOf = (model: import("@ridequote/markets/model").MarketModel): RideHailFitOptions => ({
  ...refitBase(model),
  recordKind: model.providers[0]?.records?.kind ?? "quotes",
  period: model.provenance.trainingSpan,
  ...(model.joins === undefined ? {} : { joins: model.joins }),
  buckets: model.buckets,
  levels: model.quantileLevels,
  ...(model.placePairs === undefined ? {} : { places: model.placePairs.places, placeRadiusKm: model.placePairs.radiusKm })
})

export const runRideHailEvaluate = (o: EvaluateCommandOptions) =>
  Effect.gen(function*() {
    const progress = progressTo(o.quiet)
    const model = yield* readModel(o.model)
    if (!(o.folds >= 2 && o.folds <= 20)) {
      return yield* new TripRecordsInvalid({ path: "--folds", message: "--folds must be between 2 and 20" })
    }
    const table = yield* readQuoteTable(o, model.provenance.holdout.salt, progress)
    yield* progress(o.asShipped ? "scoring the model as it is on every row" : `cross-validating over ${o.folds} random folds`)
    const evaluation = o.asShipped ? scoreAsShipped(model, table) : yield* crossValidate(table, rideHailOptionsOf(model), o.folds)
    yield* writePlot(o.plot, () => productReliabilitySvg(evaluation), progress)
    const misses = evaluation.products.flatMap((p) =>
      rideHailMisses(p).map((m) => `${p.provider}/${p.serviceLevel} ${routeName(p.route)}: ${m}`))
    const lineMisses = rideHailLineMisses(evaluation)
    if (o.json) {
      return yield* Console.log(JSON.stringify({ randomSplit: evaluation, targetMisses: misses, lineTargetMisses: lineMisses }, null, 2))
    }
    const split = o.asShipped ? "model as shipped" : `${o.folds}-fold random split`
    yield* Console.log([
      renderRideHailEvaluation(evaluation),
      "",
      misses.length === 0
        ? `targets (every product, ${split}): all met`
        : `targets missed:\n  ${misses.join("\n  ")}`,
      lineMisses.length === 0
        ? `line targets (inferred route: pinball ≥ ${RIDE_HAIL_TARGETS.overLine * 100} % below the line on average; either route: no product worse; ${split}): all met`
        : `line targets missed:\n  ${lineMisses.join("\n  ")}`
    ].join("\n"))
  })
