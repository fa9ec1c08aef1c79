/**
 * The tariff file: a market's published price rules as dated data (`"format": "ridequote-tariff"`).
 *
 * A tariff says what a trip costs in money; it does not say how long the trip is. It lists,
 * per provider and service level, the **versions** of that provider's rule, each with the
 * local date it took effect and its source (authority, rule, address). A version is a meter
 * (initial charge, distance tiers, time charge and when time runs), flat fares between sets of
 * zones, surcharges by local time, day type, holiday and zone, per-trip fees (fixed or a share
 * of the fare), how tolls are passed on, a minimum fare and the currency. A surcharge or fee
 * may carry its own dates (`from`, `until`): a congestion toll that began in 2025 does not
 * need a new version of the 2022 meter.
 *
 * A tariff file either prices providers of a market fitted from records (`market`: its id;
 * the records give the trip) or defines a market of its own (`define`: name, currency, time
 * zone, area) priced on the tariff and the route resolver alone. The layout is documented
 * field by field in docs/tariff-format.md.
 */
import { Currency, MarketId, ServiceLevel } from "@ridequote/core"
import { Either, Schema } from "effect"
import type { ParseResult } from "effect"
import { Area, decodeProblem, LocalDate, parseJson, TimeZone } from "../ModelFile.js"

/** The `format` field every tariff file carries. */
export const TARIFF_FORMAT = "ridequote-tariff" as const
/** The layout version this code reads. */
export const TARIFF_VERSION = 1 as const

const Finite = Schema.Number.pipe(Schema.finite())
const Positive = Finite.pipe(Schema.greaterThan(0))
const NonNegative = Finite.pipe(Schema.nonNegative())

/** A local wall-clock time `HH:MM` (`24:00` closes a window at midnight). */
const ClockTime = Schema.String.pipe(
  Schema.pattern(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, { message: () => "expected HH:MM (00:00–24:00)" })
)

const ZoneName = Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9-]{0,63}$/))

/** A named place the rules refer to: a circle around a point, a box or a polygon. */
export const Zone = Schema.Union(
  Area,
  Schema.Struct({
    kind: Schema.Literal("circle"),
    latitude: Finite.pipe(Schema.between(-90, 90)),
    longitude: Finite.pipe(Schema.between(-180, 180)),
    radiusKm: Positive
  }),
  /** Several shapes: a point in any of them is in the zone (Manhattan and its islands). */
  Schema.Struct({ kind: Schema.Literal("union"), of: Schema.Array(ZoneName).pipe(Schema.minItems(1)) })
).annotations({ identifier: "TariffZone" })
export type Zone = typeof Zone.Type

export const DayName = Schema.Literal("mon", "tue", "wed", "thu", "fri", "sat", "sun")
export type DayName = typeof DayName.Type

/**
 * When a charge applies. Every condition given must hold; an absent condition always holds.
 * `from`–`until` are local dates (until exclusive); `days` and `hours` read the local time the
 * trip starts (`hours.to` before `hours.from` crosses midnight: 20:00–06:00 is a night, and
 * the days name the day the window starts on); `holidays` "excluded" drops the charge on the
 * tariff's holidays, "only" keeps it to them. `pickupIn`, `dropoffIn` need that end in one of
 * the zones; `touches` either end; `between` one end in each set (either way round).
 */
export const Condition = Schema.Struct({
  from: Schema.optional(LocalDate),
  until: Schema.optional(LocalDate),
  days: Schema.optional(Schema.Array(DayName).pipe(Schema.minItems(1))),
  hours: Schema.optional(Schema.Struct({ from: ClockTime, to: ClockTime })),
  holidays: Schema.optional(Schema.Literal("excluded", "only")),
  pickupIn: Schema.optional(Schema.Array(ZoneName).pipe(Schema.minItems(1))),
  dropoffIn: Schema.optional(Schema.Array(ZoneName).pipe(Schema.minItems(1))),
  /** The drop-off is in none of the zones (NYC's MTA tax: not on trips that end in New Jersey). */
  dropoffNotIn: Schema.optional(Schema.Array(ZoneName).pipe(Schema.minItems(1))),
  touches: Schema.optional(Schema.Array(ZoneName).pipe(Schema.minItems(1))),
  between: Schema.optional(Schema.Tuple(
    Schema.Array(ZoneName).pipe(Schema.minItems(1)),
    Schema.Array(ZoneName).pipe(Schema.minItems(1))
  ))
}).annotations({ identifier: "TariffCondition" })
export type Condition = typeof Condition.Type

/**
 * A charge added to a trip: a fixed `amount`, or `percent` of the meter's (or flat fare's)
 * amount. `on` says which fares it applies to (default both). A surcharge with a `percent`
 * scales the fare itself (Tokyo's night +20 %).
 */
export const Surcharge = Schema.Struct({
  name: Schema.String,
  amount: Schema.optional(NonNegative),
  percent: Schema.optional(NonNegative),
  on: Schema.optional(Schema.Literal("meter", "flat", "all")),
  /**
   * The rule's text leaves open whether this item is charged on flat fares (`"flat"`) or on any
   * fare (`"all"`): a trip it would apply to is priced both with and without it, the spread
   * spanning the two (Dallas's airport fees beside its flat rates, which the table lists apart).
   */
  unconfirmed: Schema.optional(Schema.Literal("flat", "all")),
  when: Schema.optional(Condition),
  /** Where the rule states it, if not in the version's own source (a later notice, a statute). */
  source: Schema.optional(Schema.String)
}).pipe(Schema.filter((s) => (s.amount === undefined) !== (s.percent === undefined) || `${s.name}: give amount or percent, not both`))
  .annotations({ identifier: "TariffSurcharge" })
export type Surcharge = typeof Surcharge.Type

/**
 * A per-trip fee collected with the fare (taxes, funds): a fixed `amount` or `percent` of the
 * fare plus the surcharges before it (`of: "fare"`) or of everything before it including the
 * earlier fees (`of: "subtotal"`: a sales tax on top of a fund). Fees apply in file order.
 */
export const Fee = Schema.Struct({
  name: Schema.String,
  amount: Schema.optional(NonNegative),
  percent: Schema.optional(NonNegative),
  of: Schema.optional(Schema.Literal("fare", "subtotal")),
  /**
   * The rule's text leaves open whether this item is charged on flat fares (`"flat"`) or on any
   * fare (`"all"`): a trip it would apply to is priced both with and without it, the spread
   * spanning the two (Dallas's airport fees beside its flat rates, which the table lists apart).
   */
  unconfirmed: Schema.optional(Schema.Literal("flat", "all")),
  when: Schema.optional(Condition),
  source: Schema.optional(Schema.String)
}).pipe(Schema.filter((f) => (f.amount === undefined) !== (f.percent === undefined) || `${f.name}: give amount or percent, not both`))
  .annotations({ identifier: "TariffFee" })
export type Fee = typeof Fee.Type

/** A distance tier: from `fromKm` of the trip on, `price` per `unitKm` travelled. */
export const DistanceTier = Schema.Struct({ fromKm: NonNegative, unitKm: Positive, price: NonNegative })

/**
 * The taximeter. `initial` is charged at the start and covers `initialKm` (and, where the rule
 * says so, `initialSeconds` of slow time). Distance is charged per tier; time per `time.unitSeconds`
 * while `time.runs`: `"below-speed"` (the meter counts time instead of distance while the
 * taxi is slower than `crossoverKmh`: NYC, Tokyo, London), `"always"` (time and distance both:
 * Chicago), or `"never"`. `units`: whether a unit is charged when it begins (`started`, the
 * meter jumps at the start of each unit) or when it is completed (`completed`).
 */
export const Meter = Schema.Struct({
  initial: NonNegative,
  initialKm: NonNegative,
  initialSeconds: Schema.optional(NonNegative),
  distance: Schema.Array(DistanceTier).pipe(
    Schema.minItems(1),
    Schema.filter((ts) => ts.every((t, i) => i === 0 ? t.fromKm === 0 : t.fromKm > (ts[i - 1]?.fromKm ?? 0)) || "tiers start at 0 km and ascend")
  ),
  time: Schema.Struct({
    runs: Schema.Literal("below-speed", "always", "never"),
    unitSeconds: Positive,
    price: NonNegative,
    crossoverKmh: Schema.optional(Positive),
    /**
     * `separate` (default): time units and distance units are counted apart. `shared`: the
     * meter counts one unit per `unitSeconds` of slow time or per distance unit, on one
     * counter, so slow time also uses up the initial distance (Tokyo's 時間距離併用制, Hong
     * Kong's "every 200 metres or every minute of waiting"); a time unit is priced as a
     * distance unit of the tier the counter is in. Every tier then counts the same unit (one
     * `unitKm` for all) and `time.price` is the first tier's price: Hong Kong's lower rate
     * once the chargeable amount reaches $102.50 is a second tier that waiting reaches too.
     * `concurrent`: below the crossover the time units are counted *in addition to* the distance,
     * which keeps counting every metre (Seoul's 시간·거리 동시병산); with `separate` the distance
     * driven in slow time is not charged as distance.
     */
    counter: Schema.optional(Schema.Literal("separate", "shared", "concurrent")),
    /**
     * How the time units are counted where the rule words them apart from the distance's (the
     * meter's `units` otherwise): San Francisco charges "each additional fifth of a mile or
     * fraction thereof" (started) but "each one minute of waiting or traffic delay" (completed).
     * Not with a shared counter (one counter counts both alike).
     */
    units: Schema.optional(Schema.Literal("started", "completed"))
  }).pipe(
    Schema.filter((t) => t.runs !== "below-speed" || t.crossoverKmh !== undefined || "below-speed needs crossoverKmh"),
    // A shared or concurrent counter is a way of counting slow time: there must be some.
    Schema.filter((t) => t.counter === undefined || t.counter === "separate" || t.runs === "below-speed" || `a ${t.counter} counter counts slow time: runs must be below-speed`),
    Schema.filter((t) => t.units === undefined || t.counter !== "shared" || "time.units: a shared counter counts time and distance units alike (the meter's units)")
  ),
  units: Schema.Literal("started", "completed"),
  /**
   * What the meter shows is rounded to a multiple of `step` (in the currency), to the nearest
   * (half up), as a meter that counts units and converts them to money at the end does: Bogotá's
   * tarjeta de control turns a number of units into pesos rounded to the $100 (50 units × $159
   * show $8,000, the published minimum). Absent: the amount is the units' sum as it stands.
   */
  roundTo: Schema.optional(Schema.Struct({ step: Positive, mode: Schema.Literal("nearest") }))
}).pipe(
  Schema.filter((m) =>
    m.time.counter !== "shared" ||
    (m.distance.every((t) => t.unitKm === m.distance[0]?.unitKm) && m.distance[0]?.price === m.time.price) ||
    "a shared counter prices a time unit as a distance unit: every tier counts the first tier's unitKm, and time.price is the first tier's price"
  )
).annotations({ identifier: "TariffMeter" })

/**
 * A meter that replaces the version's own where its condition holds (the first listed that
 * holds): Berlin's airport stage for trips from BER, London's tariffs by time of day.
 */
export const MeterVariant = Schema.Struct({
  name: Schema.String,
  when: Condition,
  meter: Meter,
  source: Schema.optional(Schema.String)
}).annotations({ identifier: "TariffMeterVariant" })
export type MeterVariant = typeof MeterVariant.Type
export type Meter = typeof Meter.Type

/** A fare that replaces the meter between two sets of zones (airport flat fares, forfaits). */
export const FlatFare = Schema.Struct({
  name: Schema.String,
  between: Schema.Tuple(Schema.Array(ZoneName).pipe(Schema.minItems(1)), Schema.Array(ZoneName).pipe(Schema.minItems(1))),
  /** `both-ways` (default) or `outbound` (only from the first set to the second). */
  direction: Schema.optional(Schema.Literal("both-ways", "outbound")),
  amount: NonNegative,
  /**
   * `fixed` (default): the fare is `amount`, whatever the meter says. `cap`: the rider pays the
   * meter, but never more than `amount` (Houston's airport zone rates: "the lower of the zone
   * rate or the meter"); a cap needs the version's meter.
   */
  kind: Schema.optional(Schema.Literal("fixed", "cap")),
  when: Schema.optional(Condition),
  /**
   * A fitted market's special fare (its id in the model file) whose records say what tolls the
   * trips under this fare paid; without it, a flat fare passes on no tolls.
   */
  tollsFrom: Schema.optional(Schema.String),
  source: Schema.optional(Schema.String)
}).annotations({ identifier: "TariffFlatFare" })

/**
 * For a provider that publishes no rule for its base fare (ride-hail): the fitted records'
 * base fare brought to this version's level by `factor`, with `low`–`high` its range (the
 * spread widens by it) and `evidence` what it rests on; `asOf` the date of that evidence.
 */
export const LevelAdjustment = Schema.Struct({
  factor: Positive,
  low: Positive,
  high: Positive,
  asOf: LocalDate,
  evidence: Schema.String
}).pipe(Schema.filter((l) => (l.low <= l.factor && l.factor <= l.high) || "level: low ≤ factor ≤ high"))
  .annotations({ identifier: "TariffLevelAdjustment" })
export type LevelAdjustment = typeof LevelAdjustment.Type
export type FlatFare = typeof FlatFare.Type

/** Where a version's rule is published. */
export const TariffSource = Schema.Struct({
  authority: Schema.String,
  rule: Schema.String,
  url: Schema.String,
  /** The date of the document read (its adoption, publication or last revision). */
  published: Schema.optional(LocalDate),
  /** Whether the figures were read in the authority's own text, or only in a secondary report. */
  reading: Schema.optional(Schema.Literal("primary", "secondary"))
}).annotations({ identifier: "TariffSource" })
export type TariffSource = typeof TariffSource.Type

/** One version of a provider's rule: in force from local midnight of `effectiveFrom` until the next. */
export const TariffVersion = Schema.Struct({
  name: Schema.String,
  effectiveFrom: LocalDate,
  /**
   * A change whose day is not known: the previous version was last seen in force on this local
   * date, this one first seen in force on `effectiveFrom`, and it took effect on a day between
   * (after `changedAfter`, by `effectiveFrom`). Before `effectiveFrom` and not before the previous
   * version's own date; not on a file's first version. A trip dated in [changedAfter,
   * effectiveFrom) is priced on both versions: its distribution spans the two, and its evidence
   * names them and the window. Markets defined by their tariff only.
   */
  changedAfter: Schema.optional(LocalDate),
  /**
   * Why a `changedAfter` window exists: `"unknown-day"` (the default) when the two versions are
   * the rules before and after one change whose day is not known; `"unread-version"` when the
   * days are known but a rule in force between them was not read (its amounts are not known,
   * Paris's forfaits of 2024), so the trip is priced between its neighbours. Only with
   * `changedAfter`.
   */
  between: Schema.optional(Schema.Literal("unknown-day", "unread-version")),
  source: TariffSource,
  meter: Schema.optional(Meter),
  /** Meters that replace `meter` under conditions (markets defined by their tariff only). */
  meterVariants: Schema.optionalWith(Schema.Array(MeterVariant), { default: () => [] }),
  flatFares: Schema.optionalWith(Schema.Array(FlatFare), { default: () => [] }),
  surcharges: Schema.optionalWith(Schema.Array(Surcharge), { default: () => [] }),
  fees: Schema.optionalWith(Schema.Array(Fee), { default: () => [] }),
  /** `passed-on`: the rider pays the tolls on the route on top; `included`: the fare covers them. */
  tolls: Schema.Literal("passed-on", "included"),
  minimumFare: Schema.optional(NonNegative),
  /**
   * Minimum fares that hold only under a condition (Barcelona's minimum for trips from the
   * airport, LAX's minimum from its terminals). A trip pays the largest minimum that applies,
   * `minimumFare` included.
   */
  minimumFares: Schema.optionalWith(Schema.Array(Schema.Struct({
    name: Schema.String,
    amount: NonNegative,
    when: Condition,
    source: Schema.optional(Schema.String)
  })), { default: () => [] }),
  /** Ride-hail: the records' base fare at this version's level (no meter, no flat fares). */
  level: Schema.optional(LevelAdjustment),
  /**
   * What may have replaced this version without being confirmed (a rule adopted in committee,
   * its passage or date not found), and the day that was last checked: every offer priced on
   * the version says so in its `level.evidence`, so the rule is not presented as certainly
   * today's.
   */
  caveat: Schema.optional(Schema.Struct({ checked: LocalDate, note: Schema.String })),
  /**
   * The local date from which this version, a tariff's last, is known to have been replaced by
   * a rule whose amounts were not read (Dublin's maximum fare of 2022, replaced on 2024-12-01):
   * a trip dated on or after it is not priced by this tariff, and where no tariff of the market
   * prices it, it is refused as `no-rule-for-date`. After `effectiveFrom`; on the last version
   * only; markets defined by their tariff only.
   */
  replacedFrom: Schema.optional(LocalDate)
}).annotations({ identifier: "TariffVersion" })
export type TariffVersion = typeof TariffVersion.Type

const ProviderId = Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9-]{0,63}$/))

/** The rule of one provider and service level, version by version (oldest first). */
export const ProviderTariff = Schema.Struct({
  provider: ProviderId,
  serviceLevel: ServiceLevel,
  product: Schema.optional(Schema.String),
  /**
   * Where the tariff prices a fitted market's provider: the surcharges of the records' own
   * era (by name, as its version lists them) that the fitted metered part already holds (NYC:
   * the night and peak surcharges are in the records' `extra`). They are taken out at the
   * trip's moment before the meter is brought to the version in force.
   */
  recordsInclude: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  /**
   * Charges of the rule (by name) that the records' price leaves out (Chicago's `fare` column
   * has no airport departure tax): the rule check on the records prices without them.
   */
  recordsExclude: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  versions: Schema.Array(TariffVersion).pipe(
    Schema.minItems(1),
    Schema.filter((vs) => vs.every((v, i) => i === 0 || v.effectiveFrom > (vs[i - 1]?.effectiveFrom ?? "")) || "versions must be in date order")
  )
}).annotations({ identifier: "ProviderTariff" })
export type ProviderTariff = typeof ProviderTariff.Type

/**
 * Whether a provider's rule prices flat fares only (no version has a meter or a level): a
 * product a fitted market's records lack can be added by its tariff this way (Chicago's shared
 * ride from the airport cab stands), offered on the trips one of its flat fares covers.
 */
export const flatFaresOnly = (tariff: ProviderTariff): boolean =>
  tariff.versions.every((v) => v.meter === undefined && v.level === undefined && v.meterVariants.length === 0 && v.flatFares.length > 0)

/** A market defined by the tariff file itself (no trip records): what the model file would say. */
export const MarketDefinition = Schema.Struct({
  name: Schema.String,
  timeZone: TimeZone,
  area: Area,
  /**
   * Zones of this file outside `area` whose pickups the market also serves: an airport beyond
   * the city limits whose rule the tariff states (SFO's pick-up fee, Berlin's BER stage).
   */
  alsoServes: Schema.optionalWith(Schema.Array(ZoneName), { default: () => [] }),
  /**
   * How far (km) beyond the area and the zones it also serves a trip's destination may lie
   * (default `DEFAULT_REACH_KM`, 150): a destination farther away is refused as not served
   * (docs/airports.md, "Reach").
   */
  reachKm: Schema.optional(Positive),
  /**
   * A trip dated before the earliest version of every tariff: `"price-on-first"` (the default)
   * prices it on that version with a note; `"refuse"` answers `market-not-served`, reason
   * `no-rule-for-date`, for a market whose earlier rule is known to differ and is not known
   * (Dallas: today's figures first seen 2026-01-25; DFW's fares were raised in 2024).
   */
  beforeFirstRule: Schema.optional(Schema.Literal("price-on-first", "refuse")),
  /**
   * Zones of this file where a pick-up is not priced, though the area holds them, and why: a
   * place whose pick-ups another rule governs, not shipped (Mexico City's AICM, where only the
   * airport's authorised taxis load, at fares not found). A trip picked up there is refused as
   * `no-rule-for-trip`, naming the zone and the why; a drop-off there is priced as anywhere.
   */
  pickupsNotServed: Schema.optionalWith(
    Schema.Array(Schema.Struct({ zone: ZoneName, why: Schema.String.pipe(Schema.minLength(1)) })),
    { default: () => [] }
  )
})

/**
 * An airport the market serves, as a caller names it: its IATA code, its name, a reference
 * point among its terminals (what `GET /v1/markets` lists), and the zone of this file that its
 * rules name (flat fares, pick-up fees, airport meters). A trip is "at" the airport when its end
 * lies in that zone: the zone is drawn around the terminals, not the whole airfield.
 */
export const Airport = Schema.Struct({
  iata: Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/, { message: () => "expected a three-letter IATA code" })),
  name: Schema.String,
  latitude: Finite.pipe(Schema.between(-90, 90)),
  longitude: Finite.pipe(Schema.between(-180, 180)),
  zone: ZoneName
}).annotations({ identifier: "TariffAirport" })
export type Airport = typeof Airport.Type

const TariffFields = Schema.Struct({
  format: Schema.Literal(TARIFF_FORMAT),
  version: Schema.Literal(TARIFF_VERSION),
  /** The market whose providers these tariffs price (a fitted model's id, or the one defined here). */
  market: MarketId,
  currency: Currency,
  define: Schema.optional(MarketDefinition),
  zones: Schema.optionalWith(Schema.Record({ key: ZoneName, value: Zone }), { default: () => ({}) }),
  /** The airports of the market, each with the zone its rules name. */
  airports: Schema.optionalWith(Schema.Array(Airport), { default: () => [] }),
  /** Local dates the rules treat as holidays, with their names. */
  holidays: Schema.optionalWith(Schema.Array(Schema.Struct({ date: LocalDate, name: Schema.String })), { default: () => [] }),
  tariffs: Schema.Array(ProviderTariff).pipe(Schema.minItems(1))
})

const conditionZones = (c: Condition | undefined): ReadonlyArray<string> =>
  c === undefined ? [] : [...(c.pickupIn ?? []), ...(c.dropoffIn ?? []), ...(c.dropoffNotIn ?? []), ...(c.touches ?? []), ...(c.between?.[0] ?? []), ...(c.between?.[1] ?? [])]

/**
 * What is wrong with version `i`'s `changedAfter`, if anything: the day the previous version was
 * last seen in force must be before this version's `effectiveFrom` (the day it was first seen)
 * and not before the previous version's own `effectiveFrom`; the first version has none.
 */
const changedAfterProblem = (versions: ReadonlyArray<TariffVersion>, i: number): string | undefined => {
  const v = versions[i]
  const after = v?.changedAfter
  if (v === undefined || after === undefined) return undefined
  const previous = versions[i - 1]
  if (previous === undefined) return `changedAfter ${after}: the first version has no earlier one to change from`
  if (after >= v.effectiveFrom) return `changedAfter ${after} must be before effectiveFrom ${v.effectiveFrom} (the earlier rule was last seen in force before this one was first seen)`
  if (after < previous.effectiveFrom) return `changedAfter ${after} is before the previous version's effectiveFrom ${previous.effectiveFrom}`
  return undefined
}

/** Cross-field checks: every zone named is defined, unions refer to defined zones, a version prices something. */
const tariffProblem = (t: typeof TariffFields.Type): string | undefined => {
  const defined = new Set(Object.keys(t.zones))
  for (const [name, zone] of Object.entries(t.zones)) {
    if (zone.kind === "union") {
      const missing = zone.of.find((z) => !defined.has(z) || t.zones[z]?.kind === "union")
      if (missing !== undefined) return `zone ${name}: union member ${missing} is not a defined zone (unions do not nest)`
    }
  }
  const codes = new Set<string>()
  for (const airport of t.airports) {
    if (!defined.has(airport.zone)) return `airport ${airport.iata}: zone ${airport.zone} is not defined in zones`
    if (codes.has(airport.iata)) return `airport ${airport.iata} appears twice`
    codes.add(airport.iata)
  }
  const served = (t.define?.alsoServes ?? []).find((z) => !defined.has(z))
  if (served !== undefined) return `define.alsoServes: zone ${served} is not defined in zones`
  const notServed = (t.define?.pickupsNotServed ?? []).find((p) => !defined.has(p.zone))
  if (notServed !== undefined) return `define.pickupsNotServed: zone ${notServed.zone} is not defined in zones`
  const seen = new Set<string>()
  for (const p of t.tariffs) {
    const key = `${p.provider}/${p.serviceLevel}`
    if (seen.has(key)) return `tariff ${key} appears twice`
    seen.add(key)
    for (const [i, v] of p.versions.entries()) {
      const at = `${key} ${v.effectiveFrom}`
      if (v.meter === undefined && v.flatFares.length === 0 && v.level === undefined) {
        return `${at}: a version needs a meter, flat fares or a level over the records`
      }
      if (v.level !== undefined && (v.meter !== undefined || v.flatFares.length > 0)) {
        return `${at}: a level prices the records' base fare; it does not go with a meter or flat fares`
      }
      // A defined market without a meter prices only the trips its flat fares cover (an airport's
      // published fixed fares where the city's meter is not known): anything else is not served.
      if (t.define !== undefined && v.meter === undefined && v.flatFares.length === 0) {
        return `${at}: a market defined by its tariff needs a meter, or flat fares for the trips it serves`
      }
      if (v.meter === undefined && v.meterVariants.length > 0) return `${at}: meter variants replace a meter: give the version's own meter too`
      const cap = v.flatFares.find((f) => f.kind === "cap")
      if (v.meter === undefined && cap !== undefined) return `${at}: ${cap.name} caps the meter: give the version's meter`
      if (t.define === undefined && cap !== undefined) return `${at}: ${cap.name}: capped fares are read for markets defined by their tariff only`
      if (t.define === undefined && v.meterVariants.length > 0) return `${at}: meter variants are read for markets defined by their tariff only`
      const windowProblem = changedAfterProblem(p.versions, i)
      if (windowProblem !== undefined) return `${at}: ${windowProblem}`
      if (t.define === undefined && v.changedAfter !== undefined) return `${at}: changedAfter is read for markets defined by their tariff only`
      if (v.between !== undefined && v.changedAfter === undefined) return `${at}: between is read only with changedAfter (it says why the window exists)`
      if (v.replacedFrom !== undefined) {
        if (t.define === undefined) return `${at}: replacedFrom is read for markets defined by their tariff only`
        if (i !== p.versions.length - 1) return `${at}: replacedFrom ends a tariff's last version only (a later version replaces this one)`
        if (v.replacedFrom <= v.effectiveFrom) return `${at}: replacedFrom ${v.replacedFrom} must be after effectiveFrom`
      }
      const named = [
        ...v.meterVariants.flatMap((m) => conditionZones(m.when)),
        ...v.flatFares.flatMap((f) => [...f.between[0], ...f.between[1], ...conditionZones(f.when)]),
        ...v.surcharges.flatMap((s) => conditionZones(s.when)),
        ...v.fees.flatMap((f) => conditionZones(f.when)),
        ...v.minimumFares.flatMap((m) => conditionZones(m.when))
      ]
      const unknown = named.find((z) => !defined.has(z))
      if (unknown !== undefined) return `${at}: zone ${unknown} is not defined in zones`
    }
  }
  return undefined
}

/**
 * What a market defined by a tariff file needs before its rules are read (where it serves,
 * its clock, currency, zones and airports): the file's head, decoded alone (the rest of the
 * file is not looked at). A folder's markets are found by their heads; each one's rules are
 * decoded when a trip first needs them (`MarketsLive`, for the shipped folder, whose files
 * the tests decode in full).
 */
export const TariffHead = Schema.Struct({
  format: Schema.Literal(TARIFF_FORMAT),
  version: Schema.Literal(TARIFF_VERSION),
  market: MarketId,
  currency: Currency,
  define: MarketDefinition,
  zones: Schema.optionalWith(Schema.Record({ key: ZoneName, value: Zone }), { default: () => ({}) }),
  airports: Schema.optionalWith(Schema.Array(Airport), { default: () => [] })
}).annotations({ identifier: "TariffHead" })
export type TariffHead = typeof TariffHead.Type

const decodeHead = Schema.decodeUnknownEither(TariffHead, { errors: "all", onExcessProperty: "ignore" })

/** A file whose structure does not decode, with the report of what was expected where. */
const undecodable = (path: string, error: ParseResult.ParseError): TariffInvalid =>
  new TariffInvalid({ path, message: `tariff ${path}: ${decodeProblem(error)}` })

/** The head of a tariff file with `define` (see `TariffHead`); `path` only labels the error. */
export const decodeTariffHead = (path: string, json: unknown): Either.Either<TariffHead, TariffInvalid> =>
  decodeHead(json).pipe(
    Either.mapLeft((e) => undecodable(path, e))
  )

/** A whole tariff file, decoded and checked. */
export const TariffDocument = TariffFields.pipe(Schema.filter((t) => tariffProblem(t) ?? true))
  .annotations({ identifier: "TariffDocument" })
export type TariffDocument = typeof TariffDocument.Type

/** A tariff file that cannot be read or decoded; the message names the file and says why. */
export class TariffInvalid extends Schema.TaggedError<TariffInvalid>()("TariffInvalid", {
  path: Schema.String,
  message: Schema.String
}) {}

const decodeTariff = Schema.decodeUnknownEither(TariffDocument, { errors: "all", onExcessProperty: "error" })

/** Whether parsed JSON claims to be a tariff file (so a folder can hold models and tariffs). */
export const isTariffJson = (json: unknown): boolean =>
  typeof json === "object" && json !== null && "format" in json && json.format === TARIFF_FORMAT

/** Whether a parsed tariff file defines a market of its own (a `define` block) rather than pricing a fitted one. */
export const definesMarket = (json: unknown): json is { readonly define: unknown } =>
  typeof json === "object" && json !== null && "define" in json

/** Decodes a tariff document from parsed JSON; `path` only labels the error. */
export const decodeTariffJson = (path: string, json: unknown): Either.Either<TariffDocument, TariffInvalid> => {
  if (typeof json === "object" && json !== null && "version" in json && isTariffJson(json) && json.version !== TARIFF_VERSION) {
    return Either.left(new TariffInvalid({ path, message: `tariff ${path}: unsupported version ${String(json.version)} (this program reads ${TARIFF_VERSION})` }))
  }
  return decodeTariff(json).pipe(
    Either.mapLeft((e) => undecodable(path, e))
  )
}

/** Decodes a tariff document from its JSON text. */
export const parseTariff = (path: string, text: string): Either.Either<TariffDocument, TariffInvalid> =>
  parseJson(text, (reason) => new TariffInvalid({ path, message: `tariff ${path}: ${reason}` }))
    .pipe(Either.flatMap((json) => decodeTariffJson(path, json)))
