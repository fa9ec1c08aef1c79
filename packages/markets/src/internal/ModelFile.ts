/**
 * The market model file: what `ridequote market fit` writes and `MarketsLive` loads.
 *
 * A versioned JSON document (`"format": "ridequote-market", "version": 3`), decoded with an
 * effect Schema on load so a file from another program, an older layout or a hand edit that
 * breaks an invariant (crossing quantiles, a missing bucket, an unknown time zone, regimes out
 * of date order) is refused with a precise message instead of pricing quotes wrongly.
 *
 * Version 3 (this one): a market is a sequence of tariff regimes, each with the local date it
 * took effect, its flat fees, its own metered base fare (with speed knots: the price per km
 * bends with the trip's average speed), month-of-year factors and spread. Version 2 had no
 * speed knots and no seasons, version 1 one undated tariff; both are refused (refit). The
 * layout is documented field by field in docs/model-format.md.
 */
import { Currency, MarketId, ServiceLevel } from "@ridequote/core"
import { Either, ParseResult, Schema } from "effect"
import { RouteKnowledge } from "@ridequote/routes"

/** The `format` field every model file carries: a JSON file of another program is refused by name. */
export const MODEL_FORMAT = "ridequote-market" as const
/** The layout version this code reads and writes; files of another version are refused (refit them). */
export const MODEL_VERSION = 3 as const

const Finite = Schema.Number.pipe(Schema.finite())
const Positive = Finite.pipe(Schema.greaterThan(0))
const NonNegative = Finite.pipe(Schema.nonNegative())

const isAscending = (xs: ReadonlyArray<number>, strict: boolean): boolean =>
  xs.every((x, i) => i === 0 || (strict ? x > (xs[i - 1] ?? x) : x >= (xs[i - 1] ?? x)))

/**
 * Names this runtime's Intl accepts. Building a formatter to ask (~0.1–0.3 ms each) was 60 % of
 * decoding a folder's tariff heads (fifty cities, thirty-odd zones); the runtime's own list of
 * zones (one call, ~2 ms) answers most names at once. It holds canonical names only, so a name
 * it lacks (an alias such as Asia/Kolkata on some ICU versions) is asked of a formatter, once.
 */
let knownTimeZones: Set<string> | undefined
const isKnownTimeZone = (tz: string): boolean => {
  knownTimeZones ??= new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [])
  if (knownTimeZones.has(tz)) return true
  // Refused names are not kept: a refusal fails the load, so it is not asked twice in a run.
  const accepted = Either.isRight(Either.try(() => new Intl.DateTimeFormat("en-US", { timeZone: tz })))
  if (accepted) knownTimeZones.add(tz)
  return accepted
}

/** An IANA time zone name that this runtime's Intl knows. */
export const TimeZone = Schema.String.pipe(
  Schema.filter((tz) => isKnownTimeZone(tz) || `unknown time zone ${tz}`)
).annotations({ identifier: "TimeZone" })

/** Axis-aligned box in degrees (does not cross the antimeridian). */
export const BoundingBox = Schema.Struct({
  kind: Schema.Literal("bbox"),
  south: Finite.pipe(Schema.between(-90, 90)),
  west: Finite.pipe(Schema.between(-180, 180)),
  north: Finite.pipe(Schema.between(-90, 90)),
  east: Finite.pipe(Schema.between(-180, 180))
}).pipe(Schema.filter((b) => (b.south < b.north && b.west < b.east) || "bbox must have south < north and west < east"))

/** A simple polygon: one outer ring of [longitude, latitude] points (GeoJSON order). */
export const Polygon = Schema.Struct({
  kind: Schema.Literal("polygon"),
  ring: Schema.Array(Schema.Tuple(Finite.pipe(Schema.between(-180, 180)), Finite.pipe(Schema.between(-90, 90))))
    .pipe(Schema.minItems(3))
})

/** Where a market serves pickups: a bounding box or a polygon. Where areas overlap the smaller one wins. */
export const Area = Schema.Union(BoundingBox, Polygon).annotations({ identifier: "MarketArea" })
export type Area = typeof Area.Type

export const RouteProfileJson = Schema.Struct({
  // Core's resolver refuses a road shorter than the great circle.
  detourFactor: Schema.Number.pipe(Schema.finite(), Schema.greaterThanOrEqualTo(1)),
  speedKmhByHour: Schema.Array(Positive).pipe(Schema.itemsCount(24))
})

/**
 * How trips are grouped for the residual quantiles: distance bands (upper bounds in km, the
 * last band is open) × day parts (start hours, the first is 0) × day type (weekday, weekend).
 */
export const Buckets = Schema.Struct({
  distanceBandsKm: Schema.Array(Positive).pipe(Schema.filter((xs) => isAscending(xs, true) || "bands must ascend")),
  dayPartStartHours: Schema.Array(Schema.Int.pipe(Schema.between(0, 23))).pipe(
    Schema.minItems(1),
    Schema.filter((xs) => (xs[0] === 0 && isAscending(xs, true)) || "day parts must start at 0 and ascend")
  )
})
export type Buckets = typeof Buckets.Type

/**
 * Base fare: intercept + perKm·km + perMinute·min + Σ_k perKnotKm[k]·max(km, speedKnotsKmh[k]·min/60)
 * + timeShift[timeBucket], never below floor. A knot term charges a trip faster than its speed
 * by the km and a slower one by the minutes (as the km that speed covers in them), the way a
 * taximeter's "distance or time" tariff does, so the price per km bends with the trip's
 * average speed.
 * The fit keeps perKm, perMinute and perKnotKm ≥ 0 (the base never falls as km or minutes
 * grow); the schema does not insist, a model of your own may do otherwise.
 */
export const BaseFare = Schema.Struct({
  intercept: Finite,
  perKm: Finite,
  perMinute: Finite,
  speedKnotsKmh: Schema.Array(Positive),
  perKnotKm: Schema.Array(Finite),
  timeShift: Schema.Array(Finite),
  floor: Positive
}).pipe(Schema.filter((f) => f.speedKnotsKmh.length === f.perKnotKm.length || "speedKnotsKmh and perKnotKm must have the same length"))
export type BaseFare = typeof BaseFare.Type

/** Residual ratios (price ÷ base fare) at the model's quantile levels, one row per bucket. */
/**
 * A row of residual ratios, checked in one pass: element-wise schemas cost ~0.3 s per shipped
 * model at start-up for tens of thousands of numbers.
 */
const ResidualRow = Schema.declare(
  (u: unknown): u is ReadonlyArray<number> =>
    Array.isArray(u) && u.every((x) => typeof x === "number" && Number.isFinite(x) && x >= 0),
  { identifier: "ResidualRow", description: "an array of finite numbers ≥ 0" }
)
const ResidualTable = Schema.Array(ResidualRow)

const ProviderId = Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9-]{0,63}$/))

/** The records behind a provider's prices: trips or quotes, first and last local date. */
export const RecordsSpan = Schema.Struct({
  kind: Schema.Literal("trips", "quotes"),
  from: Schema.String,
  to: Schema.String
})

/**
 * A provider the market quotes (the same list in every regime, in this order). `product` (the
 * provider's own name, "UberX") and `records` (the period its prices were fitted on) are
 * shown in the quote's `offers`; both optional, added in version 3 without a version bump.
 */
export const ProviderModel = Schema.Struct({
  provider: ProviderId,
  serviceLevel: ServiceLevel,
  product: Schema.optional(Schema.String),
  records: Schema.optional(RecordsSpan)
})
export type ProviderModel = typeof ProviderModel.Type

/** One provider's spread in one regime. */
export const ProviderResiduals = Schema.Struct({
  provider: ProviderId,
  /** Training rows behind this provider's own quantiles (the rest is shrunk toward the market). */
  trainingRows: Schema.Struct({ supplied: Schema.Int, resolved: Schema.Int }),
  residuals: Schema.Struct({ supplied: ResidualTable, resolved: ResidualTable }),
  /**
   * The provider's own base fare, where products of one market are priced on different
   * tariffs (ride-hail products: a black SUV is not a pooled ride); absent = the regime's.
   */
  routes: Schema.optional(Schema.Struct({ supplied: BaseFare, resolved: BaseFare }))
})
export type ProviderResiduals = typeof ProviderResiduals.Type

/** A calendar date `YYYY-MM-DD` (the market's local date). */
export const LocalDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.filter((s) => {
    const d = new Date(`${s}T00:00:00Z`)
    return (!Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s) || `not a calendar date: ${s}`
  })
)

/**
 * A tariff regime: from local midnight of `effectiveFrom` until the next regime begins.
 * Price quantile at q = Σ fees + metered(trip) × R(q), with metered = routes[source] and R the
 * provider's residual ratio quantiles for the trip's bucket.
 */
export const Regime = Schema.Struct({
  effectiveFrom: LocalDate,
  /** Why a regime begins here: the evidence in the trip records (see docs, "Tariff regimes"). */
  detectedBy: Schema.Array(Schema.String),
  /** Flat per-trip fees in force (the typical amount of each fee column of the source). */
  fees: Schema.Record({ key: Schema.String, value: NonNegative }),
  /**
   * Month-of-year multipliers of the metered part, January first, per route source (learned
   * from the training trips; 1 where the records show no season).
   */
  seasonal: Schema.Struct({
    supplied: Schema.Array(Positive).pipe(Schema.itemsCount(12)),
    resolved: Schema.Array(Positive).pipe(Schema.itemsCount(12))
  }),
  trainingRows: Schema.Int,
  /** Local dates of the first and last trip the regime's rates and spread were fitted on (optional). */
  window: Schema.optional(Schema.Struct({ from: LocalDate, to: LocalDate })),
  /** The metered part (price − fees). */
  routes: Schema.Struct({ supplied: BaseFare, resolved: BaseFare }),
  providers: Schema.Array(ProviderResiduals)
})
export type Regime = typeof Regime.Type

export const Provenance = Schema.Struct({
  source: Schema.String,
  inputs: Schema.Array(Schema.String),
  rowsRead: Schema.Int,
  rowsKept: Schema.Int,
  trainingRows: Schema.Int,
  heldOutRows: Schema.Int,
  /** Local dates of the first and last training trip. */
  trainingSpan: Schema.Struct({ from: LocalDate, to: LocalDate }),
  holdout: Schema.Struct({ fraction: Finite.pipe(Schema.between(0, 0.9)), salt: Schema.String }),
  rejected: Schema.Record({ key: Schema.String, value: Schema.Int }),
  notes: Schema.Array(Schema.String)
})
export type Provenance = typeof Provenance.Type

const FiniteRow = Schema.declare(
  (u: unknown): u is ReadonlyArray<number> => Array.isArray(u) && u.every((x) => typeof x === "number" && Number.isFinite(x)),
  { identifier: "FiniteRow", description: "an array of finite numbers" }
)

/**
 * Tariffs that replace the meter between two groups of zones (NYC: the JFK–Manhattan flat
 * fare, rate code 2; Newark, rate code 3: the meter plus a surcharge and tolls). A point
 * belongs to the zone of the nearest centroid within `maxKm`; a trip is covered when one end
 * is in `between[0]` and the other in `between[1]`. Per regime, the quantiles (at the
 * model's levels) of what the records of that rate code show riders paid: the whole price
 * (`flat`) or the price above the metered median of the same trip (`meter-plus`).
 */
export const SpecialFare = Schema.Struct({
  id: Schema.String,
  description: Schema.String,
  kind: Schema.Literal("flat", "meter-plus"),
  /** The records' rate code this tariff was read from. */
  rateCode: Schema.Int,
  between: Schema.Tuple(Schema.Array(Schema.Int), Schema.Array(Schema.Int)),
  /** Providers it applies to (the taxi, not ride-hail). */
  providers: Schema.Array(ProviderId),
  regimes: Schema.Array(Schema.Struct({
    effectiveFrom: LocalDate,
    trainingRows: Schema.Int,
    window: Schema.Struct({ from: LocalDate, to: LocalDate }),
    quantiles: FiniteRow,
    /**
     * Optional: quantiles of the tolls the same trips paid (what a published flat fare passes
     * on: the tariff file prices the fare, the records say what the route's tolls come to).
     */
    tolls: Schema.optional(FiniteRow)
  }))
})
export type SpecialFare = typeof SpecialFare.Type

/** A fitted market's special fares: the zones they name and each fare (ModelFile `specialFares`). */
export const SpecialFares = Schema.Struct({
  /**
   * `[zone id, longitude, latitude, radius km]` of every zone the rules name or compete with:
   * a point is in the zone of the nearest centroid if it is within that zone's radius (the
   * distance to the nearest other centroid, at least 1 km, at most `maxKm`), so a point across
   * a river or beyond the zone system (Jersey City) is in no zone.
   */
  zones: Schema.Array(Schema.Tuple(Schema.Int, Finite, Finite, Positive)),
  maxKm: Positive,
  fares: Schema.Array(SpecialFare)
})
export type SpecialFares = typeof SpecialFares.Type

/**
 * One of a provider's routes between places, `[from, to, km, requests, level]`, checked as one
 * value: Boston's file holds some 2,500 of them, and a tuple of refined numbers per route cost
 * 12 of the 15 ms that decoding every shipped model took at start-up (bench markets).
 */
const RouteRow = Schema.declare(
  (r: unknown): r is readonly [number, number, number, number, number] =>
    Array.isArray(r) && r.length === 5 &&
    Number.isInteger(r[0]) && Number.isInteger(r[1]) && Number.isInteger(r[3]) &&
    typeof r[2] === "number" && Number.isFinite(r[2]) && r[2] > 0 &&
    typeof r[4] === "number" && Number.isFinite(r[4]) && r[4] > 0,
  { identifier: "RouteRow", description: "[from, to, km > 0, requests, level > 0] (from, to and requests integers)" }
)

/**
 * Prices between known places (ride-hail quotes between named places, Boston): what the
 * providers' own route distances and prices between two places say, over the distance model.
 * A trip is between two places when each end is within `radiusKm` of a place (the nearest
 * one) and the two places differ; then, for a provider with a row for that pair (`pairs`, by
 * provider id: `[from, to, rows, median route km, level supplied, level resolved]`, from and to
 * indexing `places`), its price quantile at q is
 *   fees + base_supplied(km) × season × level × spread(q)
 * with km the caller's distance (supplied) or the pair's median route km (resolved: the
 * providers' own route between the places instead of an inferred one), level the pair's
 * price over the distance model's median (a median of ratios shrunk toward 1 by the pair's
 * rows) and spread the product's ratio quantiles of price ÷ (base × level) for trips between
 * places, one row per distance band (`spreads[i]`: the market's providers in order). A pair
 * not listed, an end not near a place, or a provider without a row: the distance model.
 */
export const PlacePairs = Schema.Struct({
  radiusKm: Positive,
  /** `[name, latitude, longitude]`. */
  places: Schema.Array(Schema.Tuple(Schema.String, Finite.pipe(Schema.between(-90, 90)), Finite.pipe(Schema.between(-180, 180)))),
  pairs: Schema.Record({ key: ProviderId, value: Schema.Array(Schema.Tuple(Schema.Int, Schema.Int, Schema.Int, Positive, Positive, Positive)) }),
  /**
   * Optional: per provider in the market's order (as `spreads`), its provider's own routes
   * between two places, by the route distance it reported (`[from, to, km, requests, level
   * supplied]`): a supplied distance on one of them is priced at the route's level, not the pair's.
   */
  routes: Schema.optional(Schema.Array(Schema.Array(RouteRow))),
  spreads: Schema.Array(Schema.Struct({ supplied: ResidualTable, resolved: ResidualTable }))
})
export type PlacePairs = typeof PlacePairs.Type

const ModelFields = Schema.Struct({
  format: Schema.Literal(MODEL_FORMAT),
  version: Schema.Literal(MODEL_VERSION),
  id: MarketId,
  name: Schema.String,
  currency: Currency,
  timeZone: TimeZone,
  area: Area,
  routeProfile: RouteProfileJson,
  /** Area speeds and origin–destination cells for the route resolvers (@ridequote/routes). */
  routing: RouteKnowledge,
  buckets: Buckets,
  quantileLevels: Schema.Array(Finite.pipe(Schema.greaterThan(0), Schema.lessThan(1))).pipe(
    Schema.minItems(2),
    Schema.filter((xs) => isAscending(xs, true) || "quantile levels must ascend")
  ),
  providers: Schema.Array(ProviderModel).pipe(Schema.minItems(1)),
  regimes: Schema.Array(Regime).pipe(Schema.minItems(1)),
  /**
   * Optional: this model's providers join the market of this id (one market: that one's area,
   * time zone and routes; the quote lists both models' providers). Each keeps its own regimes.
   */
  joins: Schema.optional(MarketId),
  /** Optional (added in version 3 without a version bump): flat fares and surcharged meters. */
  specialFares: Schema.optional(SpecialFares),
  /** Optional (added in version 3 without a version bump): prices between known places. */
  placePairs: Schema.optional(PlacePairs),
  provenance: Provenance
})

/** How many residual buckets a grouping has: distance bands × time buckets. */
export const bucketCount = (buckets: Buckets): number =>
  (buckets.distanceBandsKm.length + 1) * timeBucketCount(buckets)

/** How many time buckets a grouping has: day parts × the two day types (weekday, weekend). */
export const timeBucketCount = (buckets: Buckets): number => buckets.dayPartStartHours.length * 2

/** Cross-field invariants: every table has the right shape and every quantile row is non-decreasing. */
const shapeProblem = (m: typeof ModelFields.Type): string | undefined => {
  const nb = bucketCount(m.buckets)
  const nt = timeBucketCount(m.buckets)
  const nl = m.quantileLevels.length
  const seen = new Set<string>()
  for (const p of m.providers) {
    const key = `${p.provider}/${p.serviceLevel}`
    if (seen.has(key)) return `provider ${key} appears twice`
    seen.add(key)
  }
  for (const [i, regime] of m.regimes.entries()) {
    const at = `regimes[${i}] (${regime.effectiveFrom})`
    if (i > 0 && !(regime.effectiveFrom > (m.regimes[i - 1]?.effectiveFrom ?? ""))) {
      return `${at} must start after the regime before it`
    }
    for (const route of ["supplied", "resolved"] as const) {
      if (regime.routes[route].timeShift.length !== nt) return `${at} routes.${route}.timeShift must have ${nt} entries`
      for (const p of regime.providers) {
        const own = p.routes?.[route]
        if (own !== undefined && own.timeShift.length !== nt) {
          return `${at} ${p.provider} routes.${route}.timeShift must have ${nt} entries`
        }
      }
    }
    if (regime.providers.length !== m.providers.length) return `${at} must list the market's ${m.providers.length} providers`
    for (const [j, p] of regime.providers.entries()) {
      const key = `${at} ${p.provider}`
      if (p.provider !== m.providers[j]?.provider) return `${key}: providers must be listed in the market's order`
      for (const route of ["supplied", "resolved"] as const) {
        const table = p.residuals[route]
        if (table.length !== nb) return `${key} residuals.${route} must have ${nb} buckets`
        for (const [b, row] of table.entries()) {
          if (row.length !== nl) return `${key} residuals.${route}[${b}] must have ${nl} quantiles`
          if (!isAscending(row, false)) return `${key} residuals.${route}[${b}] quantiles cross`
        }
      }
    }
  }
  for (const fare of m.specialFares?.fares ?? []) {
    for (const r of fare.regimes) {
      if (r.quantiles.length !== nl) return `specialFares ${fare.id} (${r.effectiveFrom}) must have ${nl} quantiles`
      if (!isAscending(r.quantiles, false)) return `specialFares ${fare.id} (${r.effectiveFrom}) quantiles cross`
    }
  }
  return placePairsProblem(m)
}

/** The place-pair table's shape: known places and providers, a spread per provider, one row per distance band. */
const placePairsProblem = (m: typeof ModelFields.Type): string | undefined => {
  const pp = m.placePairs
  if (pp === undefined) return undefined
  const nBands = m.buckets.distanceBandsKm.length + 1
  const nl = m.quantileLevels.length
  const providers = new Set(m.providers.map((p) => p.provider))
  for (const [provider, rows] of Object.entries(pp.pairs)) {
    if (!providers.has(provider)) return `placePairs.pairs: unknown provider ${provider}`
    for (const [i, [from, to, n]] of rows.entries()) {
      const at = `placePairs.pairs.${provider}[${i}]`
      if (!(from >= 0 && from < pp.places.length && to >= 0 && to < pp.places.length) || from === to) {
        return `${at}: from and to must be two different places`
      }
      if (!(n >= 1)) return `${at}: rows must be at least 1`
    }
  }
  if (pp.routes !== undefined && pp.routes.length !== m.providers.length) {
    return `placePairs.routes must list the market's ${m.providers.length} providers`
  }
  for (const [j, rows] of (pp.routes ?? []).entries()) {
    const provider = m.providers[j]?.provider ?? ""
    const listed = new Set((pp.pairs[provider] ?? []).map(([from, to]) => from * pp.places.length + to))
    for (const [i, [from, to, , requests]] of rows.entries()) {
      const at = `placePairs.routes[${j}][${i}]`
      if (!listed.has(from * pp.places.length + to)) return `${at}: a route of a pair the provider has no row for`
      if (!(requests >= 1)) return `${at}: requests must be at least 1`
    }
  }
  if (pp.spreads.length !== m.providers.length) return `placePairs.spreads must list the market's ${m.providers.length} providers`
  for (const [j, spread] of pp.spreads.entries()) {
    for (const route of ["supplied", "resolved"] as const) {
      const at = `placePairs.spreads[${j}].${route}`
      if (spread[route].length !== nBands) return `${at} must have ${nBands} distance bands`
      for (const [b, row] of spread[route].entries()) {
        if (row.length !== nl) return `${at}[${b}] must have ${nl} quantiles`
        if (!isAscending(row, false)) return `${at}[${b}] quantiles cross`
      }
    }
  }
  return undefined
}

/**
 * A whole market model file, decoded: identity, area, time zone, route profile and knowledge,
 * buckets, providers and the dated tariff regimes. Decoding also checks the invariants across
 * fields (regimes in date order, every bucket and quantile row present, quantiles not crossing).
 */
export const MarketModel = ModelFields.pipe(
  Schema.filter((m) => shapeProblem(m) ?? true)
).annotations({ identifier: "MarketModel" })
export type MarketModel = typeof MarketModel.Type

/** A model file that cannot be read or decoded; the message names the file and says why. */
export class MarketModelInvalid extends Schema.TaggedError<MarketModelInvalid>()("MarketModelInvalid", {
  path: Schema.String,
  message: Schema.String
}) {}

/** The error for a model file at `path` that cannot be used, saying why. */
export const invalid = (path: string, reason: string): MarketModelInvalid =>
  new MarketModelInvalid({ path, message: `market model ${path}: ${reason}` })

const decodeModel = Schema.decodeUnknownEither(MarketModel, { errors: "all", onExcessProperty: "ignore" })

/** Decodes a model from its JSON text; `path` only labels the error. */
export const parseModel = (path: string, text: string): Either.Either<MarketModel, MarketModelInvalid> =>
  parseJson(text, (reason) => invalid(path, reason)).pipe(Either.flatMap((json) => parseModelJson(path, json)))

/** JSON text of a market file (model or tariff), or the error `onError` makes of "not JSON: …". */
export const parseJson = <E>(text: string, onError: (reason: string) => E): Either.Either<unknown, E> =>
  Either.try({
    try: () => JSON.parse(text) as unknown,
    catch: (e) => onError(`not JSON: ${e instanceof Error ? e.message : String(e)}`)
  })

/** Longest line of a decoding report: a value beyond it is cut (see `decodeProblem`). */
const REPORT_LINE_CHARS = 240

/**
 * A decoding failure as the report an operator reads: Effect's tree of what was expected where,
 * each line cut at 240 characters. The tree prints each failing value in full, and a table
 * under an optional field is printed whole (Boston's routes: a 224 KB message for one bad row).
 */
export const decodeProblem = (error: ParseResult.ParseError): string =>
  ParseResult.TreeFormatter.formatErrorSync(error)
    .split("\n")
    .map((line) => (line.length > REPORT_LINE_CHARS ? `${line.slice(0, REPORT_LINE_CHARS - 1)}…` : line))
    .join("\n")

/** Decodes a model from parsed JSON; `path` only labels the error. */
export const parseModelJson = (path: string, json: unknown): Either.Either<MarketModel, MarketModelInvalid> => {
  // A clear message for the most likely mismatch before the full structural report.
  if (typeof json === "object" && json !== null && "format" in json && "version" in json) {
    if (json.format === MODEL_FORMAT && json.version !== MODEL_VERSION) {
      return Either.left(
        invalid(
          path,
          `unsupported model version ${String(json.version)} (this program reads version ${MODEL_VERSION}; refit the market with \`ridequote market fit\`)`
        )
      )
    }
  }
  return decodeModel(json).pipe(
    Either.mapLeft((e) => invalid(path, decodeProblem(e)))
  )
}

const encodeModel = Schema.encodeSync(MarketModel)

/**
 * Pretty JSON with a trailing newline and the schema's key order, so refits diff cleanly;
 * arrays of numbers stay on one line (a residual row reads as one line per bucket).
 */
export const renderModel = (model: MarketModel): string =>
  `${JSON.stringify(encodeModel(model), null, 2).replace(/\[[-\d.e+,\s]*\]/g, (arr) => arr.replace(/\s+/g, ""))}\n`
