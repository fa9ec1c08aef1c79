/**
 * The market commands of the `ridequote` program (mounted by @ridequote/server; runnable on
 * their own through src/bin.ts):
 *
 *   ridequote market fit --input FILE [--input FILE…] --format nyc-tlc|chicago|ride-hail [--zones FILE] [--places FILE] --out model.json
 *   ridequote market evaluate --model model.json --input FILE… --format … [--cut DATE…] [--plot FILE] [--json]
 *   ridequote market check FILE [--at YYYY-MM-DD] [--json]
 *   ridequote market calibrate-routes --nyc FILE… --chicago FILE…
 *   ridequote backtest --input trips.jsonl --output quotes.jsonl [--markets DIR|none] [--sample-fallback on|off]
 *
 * Only the options live here: each command loads its handler (and with it the fitter, the
 * data sources and the quote pipeline) when it runs, so a program that mounts these commands
 * but runs `serve` never loads the fitting tools.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import { Effect, Either, Option } from "effect"
import { parseRoutesChoice } from "@ridequote/routes"
import { SERVICE_LEVELS } from "@ridequote/core"
import type { ServiceLevel } from "@ridequote/core"
import { FIT_FORMATS } from "./sources/Formats.js"

const handlers = Effect.promise(() => import("./CommandHandlers.js"))

/** `--routes offline|empirical|osrm=URL`, parsed (`describe`: what it means for the command). */
const routesWith = (describe: string) =>
  Options.text("routes").pipe(
    Options.withPseudoName("RESOLVER"),
    Options.withDescription(describe),
    Options.withDefault("offline"),
    Options.mapEffect((text) =>
      Either.mapLeft(parseRoutesChoice(text), (message) => ValidationError.invalidValue(HelpDoc.p(`--routes: ${message}`)))
    )
  )

/** How routes are inferred for trips that give neither distance nor duration (as `serve --routes`). */
export const routesOption = routesWith(
  "Route resolver for trips without distance and duration: offline (default; what inferred-route spreads are calibrated on), empirical (observed routes between cells), or osrm=URL (an OSRM-compatible server, offline fallback)"
)

const inputs = Options.text("input").pipe(
  Options.withPseudoName("CSV"),
  Options.repeated,
  Options.withDescription("Trip-record CSV file, plain or gzip-compressed (.gz); repeat for several files of one format")
)
const format = Options.choice("format", FIT_FORMATS).pipe(
  Options.withDescription("Column layout of the input files: nyc-tlc or chicago taxi trips, ride-hail price records (quotes or trips)")
)
const places = Options.text("places").pipe(
  Options.withPseudoName("PLACES_CSV"),
  Options.withDescription("ride-hail: named places CSV (name, latitude, longitude) for rows that name their source and destination"),
  Options.optional
)
const products = Options.text("products").pipe(
  Options.withPseudoName("PRODUCTS_CSV"),
  Options.withDescription("ride-hail: CSV (provider, product, serviceLevel) mapping products the built-in table does not know"),
  Options.optional
)
const zones = Options.text("zones").pipe(
  Options.withPseudoName("ZONES_CSV"),
  Options.withDescription("NYC taxi-zone centroids CSV (LocationID, centroid_lon, centroid_lat): needed for zone-level NYC files"),
  Options.optional
)
const quiet = Options.boolean("quiet").pipe(Options.withDescription("No progress lines on stderr"))
const json = Options.boolean("json").pipe(Options.withDescription("Print the summary as one JSON object on stdout"))
const minProviderRows = Options.integer("min-provider-rows").pipe(
  Options.withPseudoName("ROWS"),
  Options.withDescription("Providers with fewer training rows are pooled as \"other\""),
  Options.withDefault(300)
)

/** `market fit`: reads trip records and writes a model file, with a summary on stdout. Needs a `FileSystem`. */
export const fitCommand = Command.make(
  "fit",
  {
    inputs,
    format,
    zones,
    places,
    products,
    period: Options.text("period").pipe(
      Options.withPseudoName("FROM..TO"),
      Options.withDescription("ride-hail: FROM..TO (local dates) the records' source documents, for timestamps that were rounded or lost"),
      Options.optional
    ),
    joins: Options.text("joins").pipe(
      Options.withPseudoName("MARKET_ID"),
      Options.withDescription("ride-hail, nyc-hvfhv: add these providers to the market of this id (one market, its area and routes): e.g. nyc"),
      Options.optional
    ),
    records: Options.choice("records", ["quotes", "trips"] as const).pipe(
      Options.withDescription("ride-hail: whether the rows are price quotes shown before a ride or completed trips"),
      Options.withDefault("quotes" as const)
    ),
    out: Options.text("out").pipe(Options.withPseudoName("MODEL_JSON"), Options.withDescription("Where to write the model JSON")),
    id: Options.text("id").pipe(
      Options.withPseudoName("MARKET_ID"),
      Options.withDescription("Market id (default: nyc / chicago by format)"),
      Options.optional
    ),
    name: Options.text("name").pipe(Options.withPseudoName("NAME"), Options.withDescription("Market name"), Options.optional),
    timeZone: Options.text("time-zone").pipe(
      Options.withPseudoName("IANA_ZONE"),
      Options.withDescription("IANA time zone of the records' local times (default by format)"),
      Options.optional
    ),
    currency: Options.text("currency").pipe(
      Options.withPseudoName("CODE"),
      Options.withDescription("ISO 4217 currency of the fares"),
      Options.withDefault("USD")
    ),
    serviceLevel: Options.choice("service-level", SERVICE_LEVELS).pipe(Options.withDefault("Standard" as ServiceLevel)),
    provider: Options.text("provider").pipe(
      Options.withDescription("nyc-tlc, chicago: one provider id for every row (e.g. yellow-taxi), where the provider column names meter vendors or affiliations whose prices do not differ"),
      Options.optional
    ),
    product: Options.text("product").pipe(
      Options.withDescription("The product name riders see for --provider (e.g. \"Yellow taxi\")"),
      Options.optional
    ),
    holdout: Options.float("holdout").pipe(
      Options.withPseudoName("SHARE"),
      Options.withDescription("Share of rows held out at random for `market evaluate` (never fitted)"),
      Options.withDefault(0.2)
    ),
    minProviderRows,
    quiet,
    json
  },
  (o) => Effect.flatMap(handlers, (h) => h.runFit(o))
).pipe(Command.withDescription("Fit a market model (tariff regimes, rates, spread) from trip records"))

/**
 * `market evaluate`: forward splits, the random held-out split and route accuracy of a model
 * against its records, optionally with the reliability plot. Needs a `FileSystem`.
 */
export const evaluateCommand = Command.make(
  "evaluate",
  {
    model: Options.text("model").pipe(Options.withPseudoName("MODEL_JSON"), Options.withDescription("Model file written by `market fit`")),
    inputs,
    format,
    zones,
    places,
    products,
    asShipped: Options.boolean("as-shipped").pipe(
      Options.withDescription("ride-hail, nyc-hvfhv: score the model file as it is on every input row (records it never saw) instead of cross-validating a refit")
    ),
    folds: Options.integer("folds").pipe(
      Options.withDescription("ride-hail: random split as k-fold cross-validation by row hash (every row scored once)"),
      Options.withDefault(5)
    ),
    cuts: Options.text("cut").pipe(
      Options.withPseudoName("DATE"),
      Options.repeated,
      Options.withDescription("Forward split: fit before this local date YYYY-MM-DD, score after it (repeat; default: three cuts in the last half of the records)")
    ),
    horizonMonths: Options.integer("horizon-months").pipe(
      Options.withPseudoName("MONTHS"),
      Options.withDescription("Months scored after each cut (ends early where a new tariff regime begins)"),
      Options.withDefault(3)
    ),
    plot: Options.text("plot").pipe(
      Options.withPseudoName("SVG"),
      Options.withDescription("Write the reliability plot (SVG) here"),
      Options.optional
    ),
    routes: routesWith(
      "osrm=URL: also measure an OSRM-compatible server's route accuracy on up to 2,000 trips per forward split (offline and empirical are always measured)"
    ),
    minProviderRows,
    tariff: Options.text("tariff").pipe(
      Options.withPseudoName("TARIFF_JSON"),
      Options.withDescription("Score the quotes as served with this tariff file (the rules for the money), and check its rules on the records: each era's unseen trips priced as a quote prices them, beside the fitted model alone"),
      Options.optional
    ),
    today: Options.text("today").pipe(
      Options.withPseudoName("DATE"),
      Options.withDescription("With --tariff: price the same trips on their weekday and hour in the week of this local date YYYY-MM-DD, and report today's price ÷ what was paid"),
      Options.optional
    ),
    rulesOnly: Options.boolean("rules-only").pipe(Options.withDescription("With --tariff: only the rule check (no forward splits, no refits)")),
    quiet,
    json
  },
  (o) => Effect.flatMap(handlers, (h) => h.runEvaluate(o))
).pipe(
  Command.withDescription(
    "Forward-in-time validation (fit before each cut date, score after it), the random held-out split beside it, and inferred-route accuracy"
  )
)

const tariffHandlers = Effect.promise(() => import("./TariffCommands.js"))

/**
 * `market check FILE`: validates a tariff file (or a model file) and prints sample quotes with
 * itemised receipts. Needs a `FileSystem`.
 */
export const checkCommand = Command.make(
  "check",
  {
    file: Args.text({ name: "FILE" }).pipe(Args.withDescription("A tariff file (ridequote-tariff) or a model file (ridequote-market)")),
    at: Options.text("at").pipe(
      Options.withPseudoName("YYYY-MM-DD"),
      Options.withDescription("Local date the sample trips start on (default: the newest version's effective date)"),
      Options.optional
    ),
    json
  },
  (o) => Effect.flatMap(tariffHandlers, (h) => h.runCheck({ file: o.file, at: Option.getOrUndefined(o.at), json: o.json }))
).pipe(Command.withDescription("Validate a tariff or model file and print sample quotes with itemised receipts"))

/**
 * `market calibrate-routes`: recomputes the resolved-route calibration of markets defined by
 * their tariff (real fare ÷ rule on the resolved route) from NYC and Chicago records.
 */
export const calibrateRoutesCommand = Command.make(
  "calibrate-routes",
  {
    nyc: Options.text("nyc").pipe(
      Options.withPseudoName("CSV"),
      Options.repeated,
      Options.withDescription("NYC yellow-taxi records with coordinates (nyc-tlc format, 2012 meter era)")
    ),
    chicago: Options.text("chicago").pipe(
      Options.withPseudoName("CSV"),
      Options.repeated,
      Options.withDescription("Chicago taxi records (chicago format, 2012–2018 meter era)")
    ),
    quiet
  },
  (o) => Effect.flatMap(tariffHandlers, (h) => h.runCalibrateRoutes(o))
).pipe(Command.withDescription("Recompute the resolved-route spread of tariff-defined markets from NYC and Chicago records"))

/** `market`, the parent of `fit`, `evaluate`, `check` and `calibrate-routes`, for mounting in a program's command tree. */
export const marketCommand = Command.make("market").pipe(
  Command.withDescription("Fit and evaluate calibrated markets from trip records; check tariff files"),
  Command.withSubcommands([fitCommand, evaluateCommand, checkCommand, calibrateRoutesCommand])
)

/**
 * `backtest`: quotes every line of a JSON-lines file as if requested at its moment, on the
 * selected markets, writing one quote or error per line. Nothing is audited. Needs a `FileSystem`.
 */
export const backtestCommand = Command.make(
  "backtest",
  {
    input: Options.text("input").pipe(
      Options.withPseudoName("TRIPS_JSONL"),
      Options.withDescription("JSON lines: {id?, pickup, destination, distanceKm?, durationMinutes?, at}")
    ),
    output: Options.text("output").pipe(
      Options.withPseudoName("QUOTES_JSONL"),
      Options.withDescription("JSON lines: one quote (or error) per input line")
    ),
    markets: Options.text("markets").pipe(
      Options.withPseudoName("DIR|none"),
      Options.withDescription(
        "Folder of market files (fitted models and tariffs), or `none` for the sample market only. Default: the shipped markets (NYC, Chicago and Boston fitted on trip records, and every city priced from its tariff file: `ridequote markets list`, docs/markets.md)."
      ),
      Options.optional
    ),
    sampleFallback: Options.choice("sample-fallback", ["on", "off"]).pipe(
      Options.withDescription("Price places no market serves on the sample market, invented prices (on), or as errors (off, the default)."),
      Options.optional
    ),
    routes: routesOption,
    quiet,
    json
  },
  (o) =>
    Effect.flatMap(handlers, (h) =>
      h.runBacktestCommand({
        ...o,
        markets: Option.getOrUndefined(o.markets),
        sampleFallback: Option.getOrUndefined(o.sampleFallback)
      }))
).pipe(Command.withDescription("Quote every trip of a JSON-lines file as ridequote would have at its moment, on the tariff of that moment"))
