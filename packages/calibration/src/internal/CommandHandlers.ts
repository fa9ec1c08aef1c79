/**
 * What the market commands do once they run (./Commands.ts holds their options and loads
 * this module on use). Progress goes to stderr, results to stdout.
 */
import { Clock, Console, Effect, Either } from "effect"
import type { ServiceLevel } from "@ridequote/core"
import { describeMarkets, invalid, MarketsLive, marketsSelection, marketTariffs, parseTariff } from "@ridequote/markets/model"
import type { MarketModel, MarketTariffs } from "@ridequote/markets/model"
import { makeBacktestQuotesLive, runBacktest } from "./Backtest.js"
import { fitReportFields, fitReportHead, progressTo, readModel, readText, refitBase, writeModel, writePlot } from "./CommandFiles.js"
import type { EvaluateCommandOptions, FitCommandOptions } from "./CommandFiles.js"
import { describeRoutes, RouteResolverLive } from "@ridequote/routes"
import type { RoutesChoice } from "@ridequote/routes"
import { EVALUATION_LEVELS, evaluate, renderEvaluation, targetMisses } from "./Evaluation.js"
import type { Evaluation } from "./Evaluation.js"
import { DEFAULT_HOLDOUT, fitMarket } from "./Fit.js"
import type { FitOptions } from "./Fit.js"
import { forwardEvaluation } from "./Forward.js"
import { evaluateSpecialFares, renderSpecialFareEvaluation } from "./SpecialFares.js"
import { reliabilitySvg } from "./Plot.js"
import { measureOsrm, routeAccuracy, renderRouteAccuracy, scoredTrips } from "./RouteAccuracy.js"

/** Trips per forward split sent to a routing server for its accuracy (a server is slower than the table). */
const OSRM_SAMPLE = 2000
import type { SourceFormat } from "./sources/Formats.js"
import { parseZoneBoroughs, parseZoneCentroids } from "./sources/NycTlc.js"
import type { ZoneCentroids } from "./sources/NycTlc.js"
import { readTrips, TripRecordsInvalid } from "./sources/TripRecords.js"
import type { TripTable } from "./sources/TripRecords.js"
import { Option } from "effect"
import { providerSlug } from "./Fit.js"
import { evaluateRules, renderRuleEvaluation, todayRatio } from "./RuleEvaluation.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import { isHeldOut } from "./sources/TripRecords.js"

/** Per-format defaults: the market a source's records describe. */
export const FORMAT_DEFAULTS: Readonly<Record<SourceFormat, { id: string; name: string; timeZone: string }>> = {
  "nyc-tlc": { id: "nyc", name: "New York City (yellow taxi, metered)", timeZone: "America/New_York" },
  chicago: { id: "chicago", name: "Chicago (taxi, metered)", timeZone: "America/Chicago" }
}

/** Reads the inputs of one format into a trip table (`salt` decides the random split). */
const readTable = (
  paths: ReadonlyArray<string>,
  sourceFormat: SourceFormat,
  zonesPath: Option.Option<string>,
  salt: string,
  progress: (line: string) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    if (paths.length === 0) {
      return yield* new TripRecordsInvalid({ path: "", message: "give at least one --input file" })
    }
    const zonesText = Option.isSome(zonesPath) ? yield* readText(zonesPath.value) : undefined
    const zoneTable: ZoneCentroids | undefined = zonesText === undefined ? undefined : parseZoneCentroids(zonesText)
    const boroughs = zonesText === undefined ? undefined : parseZoneBoroughs(zonesText)
    const files = yield* Effect.forEach(paths, (path) =>
      Effect.tap(Effect.map(readText(path), (text) => ({ path, text })), () => progress(`read ${path}`)))
    const table = yield* readTrips(sourceFormat, files, salt, zoneTable, boroughs)
    yield* progress(`${table.rowsRead} rows, ${table.trips.length} usable trips`)
    return table
  })

const describeRejections = (table: TripTable): string =>
  Object.entries(table.rejected)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ")

export const runFit = (o: FitCommandOptions) =>
  o.format === "ride-hail" || o.format === "nyc-hvfhv"
    ? Effect.flatMap(Effect.promise(() => import("./RideHailCommands.js")), (h) => h.runRideHailFit(o))
    : runTripFit(o, o.format)

const runTripFit = (o: FitCommandOptions, format: SourceFormat) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const progress = progressTo(o.quiet)
    const defaults = FORMAT_DEFAULTS[format]
    const table = yield* readTable(o.inputs, format, o.zones, DEFAULT_HOLDOUT.salt, progress)
    yield* progress("fitting: route profile, tariff regimes, rates and spread per regime")
    const model = yield* fitMarket(table, {
      id: Option.getOrElse(o.id, () => defaults.id),
      name: Option.getOrElse(o.name, () => defaults.name),
      timeZone: Option.getOrElse(o.timeZone, () => defaults.timeZone),
      currency: o.currency,
      source: format,
      inputs: o.inputs,
      holdoutFraction: o.holdout,
      salt: DEFAULT_HOLDOUT.salt,
      minProviderRows: o.minProviderRows,
      serviceLevel: o.serviceLevel,
      ...Option.match(o.provider, {
        onNone: () => ({}),
        onSome: (provider) => ({ pooled: { provider, product: Option.getOrElse(o.product, () => provider) } })
      })
    })
    yield* writeModel(o.out, model)
    const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
    if (o.json) {
      return yield* Console.log(JSON.stringify({
        ...fitReportFields(model, o.out),
        providers: model.providers.map((x) => x.provider),
        regimes: model.regimes.map((r) => ({ effectiveFrom: r.effectiveFrom, detectedBy: r.detectedBy, fees: r.fees, trainingRows: r.trainingRows })),
        seconds
      }))
    }
    yield* Console.log(
      [
        ...fitReportHead(model, o.out),
        `rejected: ${describeRejections(table)}`,
        `providers: ${model.providers.map((x) => x.provider).join(", ")}`,
        ...model.regimes.map((r) =>
          `regime from ${r.effectiveFrom} (${r.detectedBy.join("; ")}): fees ${
            Object.entries(r.fees).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ") || "none"
          }, ${r.trainingRows} training rows`
        ),
        `route profile: detour factor ${model.routeProfile.detourFactor}, speed ${
          Math.min(...model.routeProfile.speedKmhByHour).toFixed(1)
        }–${Math.max(...model.routeProfile.speedKmhByHour).toFixed(1)} km/h by hour`,
        `fitted in ${seconds.toFixed(1)} s`
      ].join("\n")
    )
  })

/** Three cut dates (first of a month) at 1/2, 2/3 and 5/6 of the records' span. */
export const defaultCuts = (table: TripTable): ReadonlyArray<string> => {
  const months = table.trips.map((t) => t.localDate.slice(0, 7))
  const first = months.reduce((a, b) => (b < a ? b : a), months[0] ?? "1970-01")
  const last = months.reduce((a, b) => (b > a ? b : a), months[0] ?? "1970-01")
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1
  const span = index(last) - index(first) + 1
  const cuts = [1 / 2, 2 / 3, 5 / 6].map((f) => {
    const i = index(first) + Math.round(span * f)
    return `${String(Math.floor(i / 12)).padStart(4, "0")}-${String((i % 12) + 1).padStart(2, "0")}-01`
  })
  return [...new Set(cuts)]
}

/** What the fit options of a model were (for refitting it on a forward split's training window). */
export const fitOptionsOf = (model: MarketModel, minProviderRows: number): FitOptions => ({
  ...refitBase(model),
  minProviderRows,
  serviceLevel: (model.providers[0]?.serviceLevel ?? "Standard") as ServiceLevel,
  // A model of one named product was fitted with every row pooled into it.
  ...(model.providers.length === 1 && model.providers[0]?.product !== undefined
    ? { pooled: { provider: model.providers[0].provider, product: model.providers[0].product } }
    : {}),
  buckets: model.buckets,
  levels: model.quantileLevels
})

export const runEvaluate = (o: EvaluateCommandOptions) =>
  o.format === "ride-hail" || o.format === "nyc-hvfhv"
    ? Effect.flatMap(Effect.promise(() => import("./RideHailCommands.js")), (h) => h.runRideHailEvaluate(o))
    : runTripEvaluate(o, o.format)

const runTripEvaluate = (o: EvaluateCommandOptions, format: SourceFormat) =>
  Effect.gen(function*() {
    const progress = progressTo(o.quiet)
    const model = yield* readModel(o.model)
    const table = yield* readTable(o.inputs, format, o.zones, model.provenance.holdout.salt, progress)
    const tariffs = yield* readTariffs(o.tariff)
    const rules = ruleCheck(o, model, table.trips, tariffs)
    if (o.rulesOnly) return yield* Console.log(o.json ? JSON.stringify(rules, null, 2) : rules.text)
    const cuts = o.cuts.length > 0 ? o.cuts : defaultCuts(table)
    const forward: Array<Evaluation> = []
    const accuracy = []
    for (const cut of cuts) {
      yield* progress(`forward split at ${cut}: fitting on the trips before it`)
      const [split] = yield* forwardEvaluation(table, fitOptionsOf(model, o.minProviderRows), [cut], o.horizonMonths, tariffs)
      if (split === undefined) continue
      forward.push(split.evaluation)
      const measured = routeAccuracy(split.model, table, cut, split.end)
      if (o.routes._tag !== "Osrm") {
        accuracy.push(measured)
        continue
      }
      yield* progress(`asking ${o.routes.baseUrl} for up to ${OSRM_SAMPLE} routes of the split`)
      const osrm = yield* measureOsrm(o.routes.baseUrl, scoredTrips(table, cut, split.end), OSRM_SAMPLE)
      accuracy.push({ ...measured, resolvers: [...measured.resolvers, osrm] })
    }
    const random = evaluate(model, table, tariffs)
    const special = evaluateSpecialFares(model, table.specialFares ?? [])
    const all = [...forward, random]
    yield* writePlot(o.plot, () => reliabilitySvg(all), progress)
    const misses = forward.flatMap(targetMisses)
    if (o.json) {
      return yield* Console.log(JSON.stringify({ forward, random, specialFares: special, routeAccuracy: accuracy, targetMisses: misses, rules }, null, 2))
    }
    yield* Console.log(
      [
        renderEvaluation(all),
        "",
        renderRouteAccuracy(accuracy),
        "",
        ...(special.length === 0
          ? []
          : [
            "special fares: share of held-out prices below – at or below each quoted percentile (a flat fare is one price: the nominal level should lie in the range)",
            renderSpecialFareEvaluation(model.id, special),
            ""
          ]),
        misses.length === 0 ? "targets (every forward split): all met" : `targets missed:\n  ${misses.join("\n  ")}`,
        ...targetMisses(random).map((m) => `(random split, for comparison) ${m}`),
        ...(rules.text === "" ? [] : ["", rules.text])
      ].join("\n")
    )
  })

/**
 * `--tariff`: the rules checked on the records (unseen trips: held out by the fit, or outside
 * its training span), and with `--today` what those trips cost under the rules in force then.
 */
const ruleCheck = (
  o: EvaluateCommandOptions,
  model: MarketModel,
  trips: ReadonlyArray<ObservedTrip>,
  tariffs: MarketTariffs | undefined
) => {
  if (tariffs === undefined || Option.isNone(o.tariff)) return { eras: [], today: undefined, text: "" }
  const span = model.provenance.trainingSpan
  const fraction = model.provenance.holdout.fraction
  const unseen = (t: ObservedTrip) => t.localDate < span.from || t.localDate > span.to || isHeldOut(t.key, fraction)
  const eras = evaluateRules(model, tariffs, trips, unseen, (t) => providerSlug(t.provider))
  const today = Option.isSome(o.today) ? todayRatio(model, tariffs, trips, unseen, o.today.value) : undefined
  const lines = [
    `rules of ${o.tariff.value} on the records' unseen trips: share of prices at or below each quoted percentile, the quote with the rule (the fitted model alone in brackets), mean pinball loss`,
    renderRuleEvaluation(model.id, eras),
    ...(today === undefined ? [] : [
      "",
      `the same ${today.rows} trips quoted on their weekday and hour in the week of ${today.today}: quoted p50 ÷ price paid = ${today.median.toFixed(3)} (quartiles ${today.p25.toFixed(3)}–${today.p75.toFixed(3)}); on their own date ${today.thenMedian.toFixed(3)}`,
      ...(today.byRule.rows === 0 ? [] : [
        `each trip's own cost under the rule in force that week (${today.byRule.rows} trips: its meter units at today's prices, today's surcharges and fees, its own tolls): ` +
        `cost ÷ price paid = ${today.byRule.median.toFixed(3)} (quartiles ${today.byRule.p25.toFixed(3)}–${today.byRule.p75.toFixed(3)}), Σ cost ÷ Σ paid ${today.byRule.sumRatio.toFixed(3)} (by the trips' year: ${
          Object.entries(today.byRule.sumRatioByYear).map(([y, r]) => `${y} ${r.toFixed(3)}`).join(", ")
        }; Σ quoted p50 ÷ Σ paid ${today.byRule.quotedSumRatio.toFixed(3)}); ` +
        `share of those costs at or below each quoted percentile: ${EVALUATION_LEVELS.map(([name]) => `${name} ${((today.byRule.coverage[name] ?? Number.NaN) * 100).toFixed(1)} %`).join(", ")}`
      ])
    ])
  ]
  return { eras, today, text: lines.join("\n") }
}

/** `--tariff FILE`, decoded and indexed (absent: the fit alone is scored). */
const readTariffs = (path: Option.Option<string>) =>
  Option.isNone(path)
    ? Effect.succeed(undefined)
    : Effect.flatMap(readText(path.value), (text) =>
      parseTariff(path.value, text).pipe(
        Either.map(marketTariffs),
        Either.mapLeft((e) => invalid(path.value, e.message))
      ))

export interface BacktestCommandOptions {
  readonly input: string
  readonly output: string
  readonly markets: string | undefined
  readonly sampleFallback: "on" | "off" | undefined
  readonly routes: RoutesChoice
  readonly quiet: boolean
  readonly json: boolean
}

/** Lines between two progress lines of a backtest. */
const BACKTEST_PROGRESS_EVERY = 100_000

export const runBacktestCommand = (o: BacktestCommandOptions) =>
  Effect.gen(function*() {
    const selection = marketsSelection(o.markets, o.sampleFallback)
    const progress = progressTo(o.quiet)
    yield* progress(`backtest on ${describeMarkets(selection)} markets, ${describeRoutes(o.routes)} routes`)
    const summary = yield* runBacktest(o.input, o.output, {
      progressEvery: BACKTEST_PROGRESS_EVERY,
      onProgress: (lines) => progress(`backtest: ${lines} lines`)
    }).pipe(
      Effect.provide(makeBacktestQuotesLive(RouteResolverLive(o.routes))),
      Effect.provide(MarketsLive(selection))
    )
    if (o.json) return yield* Console.log(JSON.stringify({ ...summary, output: o.output }))
    const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`
    yield* Console.log(`${count(summary.lines, "line")}: ${summary.quoted} quoted, ${count(summary.errors, "error")} → ${o.output}`)
  })
