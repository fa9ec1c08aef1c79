/**
 * A market's tariffs ready to price trips: rules for the money, records for the trip.
 *
 * A fitted market's records say what a trip between two places is like (its distance, time,
 * slow time, tolls and how prices scatter) in the money of their own era. The tariff says what
 * the money is now. A provider with a published meter is priced by taking the fitted metered
 * part of the records' era apart with that era's rule and applying the rule in force at the
 * trip's moment:
 *
 *   meter_era(q)  = fitted metered part(q) − the era's surcharges the records hold (at the trip's time)
 *   meter_now(q)  = initial_now + (meter_era(q) − initial_era) × variable_now ÷ variable_era
 *   price(q)      = charges_now(meter_now(q))   (surcharges, minimum, fees, tolls of the rule now)
 *
 * where variable_x is what rule x charges beyond its initial charge for the trip's distance and
 * time (its slow time as the records of NYC show it at that average speed). Where the two rules
 * count the same units (NYC 2012 → 2022: 1/5 mile or 60 s) the ratio is the ratio of the unit
 * prices whatever the trip, so each quantile moves exactly as the meter would. A flat fare in
 * force replaces the meter: its amount, its surcharges and fees, and the tolls the records of
 * that fare paid. A provider without a published base fare (ride-hail) keeps the records' base
 * fare times the version's level factor (its range folded into the spread) plus the fees the
 * rule publishes.
 */
import { normalQuantile } from "@ridequote/core"
import type { LevelBasis, OfferSource, TariffBasis, Trip } from "@ridequote/core"
import type { Charges, TripMoment, TripPlaces } from "./Charges.js"
import { meterAmount, meterReading } from "./Meter.js"
import { slowMinutesOf } from "./SlowTime.js"
import type { LevelAdjustment, Meter, ProviderTariff, TariffDocument, TariffVersion } from "./TariffFile.js"
import { zoneLocator } from "./Zones.js"
import type { ZoneLocator } from "./Zones.js"

/** A tariff document with its zones, holidays and providers indexed. */
export interface MarketTariffs {
  readonly document: TariffDocument
  readonly locate: ZoneLocator
  readonly holidays: ReadonlySet<string>
  /** By `"<provider>/<serviceLevel>"`. */
  readonly byProvider: ReadonlyMap<string, ProviderTariff>
}

/** Indexes a decoded tariff document. */
export const marketTariffs = (document: TariffDocument): MarketTariffs => ({
  document,
  locate: zoneLocator(document.zones),
  holidays: new Set(document.holidays.map((h) => h.date)),
  byProvider: new Map(document.tariffs.map((t) => [`${t.provider}/${t.serviceLevel}`, t]))
})

/** The part of a meter's charge beyond its initial charge, for a trip as its records see it. */
const variableCharge = (meter: Meter, distanceKm: number, durationMinutes: number): number => {
  const slow = meter.time.runs === "below-speed" ? slowMinutesOf(distanceKm, durationMinutes, meter.time.crossoverKmh ?? 1) : 0
  return meterAmount(meter, meterReading(meter, distanceKm, durationMinutes, slow), true) - meter.initial
}

/**
 * How the records' era meter maps onto the meter in force, for one trip: `x` (the era's meter
 * amount) → the amount now. Monotone in `x`.
 */
export const meterRebase = (
  era: Meter,
  now: Meter,
  distanceKm: number,
  durationMinutes: number
): ((x: number) => number) => {
  if (era === now) return (x) => x
  const before = variableCharge(era, distanceKm, durationMinutes)
  const after = variableCharge(now, distanceKm, durationMinutes)
  // A trip too short to show a variable part (under the initial distance): the unit prices' ratio.
  const eraUnit = (era.distance[0]?.price ?? 0) / (era.distance[0]?.unitKm ?? 1)
  const nowUnit = (now.distance[0]?.price ?? 0) / (now.distance[0]?.unitKm ?? 1)
  const ratio = before > 0 ? after / before : eraUnit > 0 ? nowUnit / eraUnit : 1
  return (x) => now.initial + Math.max(0, x - era.initial) * ratio
}

/** 1.645: the 95th percentile of the standard normal; a level's low–high is read as its 90 % range. */
const Z95 = normalQuantile(0.95)

/**
 * A quantile function scaled by an uncertain level: the median moves by `factor` and the
 * spread widens by the range, as the sum of two independent log-normal spreads (the records'
 * own at each level, and the factor's, whose 5th–95th percentiles are `low`–`high`).
 * Non-decreasing in q when `x` is.
 */
export const withLevel = (x: (q: number) => number, level: LevelAdjustment): ((q: number) => number) => {
  const sigma = Math.log(level.high / level.low) / (2 * Z95)
  const median = x(0.5)
  return (q) => {
    const xq = x(q)
    if (!(median > 0) || !(xq > 0) || sigma === 0) return xq * level.factor
    const own = Math.log(xq / median)
    const z = normalQuantile(q) * sigma
    const spread = Math.sqrt(own * own + z * z) * (q < 0.5 ? -1 : 1)
    return median * level.factor * Math.exp(spread)
  }
}

/** The version's `TariffBasis` for an offer, made once per (version, charges): offers share it. */
const tariffBasisCache = (): ((version: TariffVersion, charges: Charges) => TariffBasis) => {
  const cache = new WeakMap<Charges, TariffBasis>()
  return (version, charges) => {
    let basis = cache.get(charges)
    if (basis === undefined) {
      basis = tariffBasis(version, charges)
      cache.set(charges, basis)
    }
    return basis
  }
}

/** What an offer publishes of the version that priced it, with the charges the trip paid. */
const tariffBasis = (version: TariffVersion, charges: Charges): TariffBasis => ({
  name: version.name,
  effectiveFrom: version.effectiveFrom,
  authority: version.source.authority,
  rule: version.source.rule,
  url: version.source.url,
  ...(charges.applied.length === 0 ? {} : { charges: charges.applied })
})

/** A level whose evidence begins with `note` (what the price of this trip rests on), before any it had. */
const noted = (level: LevelBasis, note: string): LevelBasis =>
  ({ ...level, evidence: level.evidence === undefined ? note : `${note}; ${level.evidence}` })

/**
 * The date a version's level is current as of: a level adjustment's evidence date, or the
 * newest of the version's own date and the dates the charges this trip pays took effect; with
 * the version's caveat (a successor not confirmed) as its evidence.
 */
const levelOf = (version: TariffVersion, charges: Charges): LevelBasis => {
  if (version.level !== undefined) {
    const { asOf, evidence, factor, high, low } = version.level
    return { asOf, factor, low, high, evidence }
  }
  let asOf = version.effectiveFrom
  for (const item of [...version.surcharges, ...version.fees]) {
    const from = item.when?.from
    if (from !== undefined && from > asOf && charges.applied.includes(item.name)) asOf = from
  }
  return version.caveat === undefined
    ? { asOf }
    : { asOf, evidence: `${version.caveat.note} (last checked ${version.caveat.checked})` }
}

/**
 * The level of a trip dated before the earliest rule the file knows (`versionAt` prices it on
 * that rule): says so, with both dates, so that an older trip's price is never read as the rule
 * of its own day. What the fare was then, the file does not say.
 */
const beforeEarliestRule = (level: LevelBasis, tripDate: string, version: TariffVersion): LevelBasis => {
  const note = `the trip's date ${tripDate} is before the earliest rule known for this market ` +
    `(${version.name}, in force from ${version.effectiveFrom}): priced on that rule, not on the one in force on ${tripDate}`
  return noted(level, note)
}

/** One side of a change window as a trip's offer saw it: the version, and its price if a fixed fare set it. */
export interface WindowSide {
  readonly version: TariffVersion
  /** Whether the version has a price for the trip (a meter in force, or a fare covering it). */
  readonly covers: boolean
  /** The price when a fixed fare set it (the same at every level), in the market's currency. */
  readonly fixed?: number
}

const sideText = (side: WindowSide, currency: string): string =>
  `${side.version.name}${side.fixed === undefined ? "" : ` (${side.fixed} ${currency})`}`

/**
 * The evidence of a trip dated inside a change window (a version's `changedAfter`): the two
 * versions, their amounts where fixed, the window, why it exists (one change on a day not
 * known, or a rule between the two that was not read: the later version's `between`), and how
 * the price was built from them.
 */
export const changeWindowNote = (
  window: { readonly from: string; readonly until: string; readonly later: Pick<TariffVersion, "between"> },
  earlier: WindowSide,
  later: WindowSide,
  tripDate: string,
  currency: string
): string => {
  const head = window.later.between === "unread-version"
    ? `a rule in force between ${window.from} and ${window.until} was not read (its amounts are not known): ` +
      `${sideText(earlier, currency)} was last seen in force on ${window.from}, ` +
      `${sideText(later, currency)} in force from ${window.until}; the trip's date ${tripDate} falls between`
    : `the rule changed on a day not known between ${window.from} and ${window.until}: ` +
      `${sideText(earlier, currency)} was last seen in force on ${window.from}, ` +
      `${sideText(later, currency)} first seen in force on ${window.until}; the trip's date ${tripDate} falls between`
  if (earlier.covers && later.covers) return `${head}, so its price spans both versions`
  const [covering, other] = earlier.covers ? [earlier, later] : [later, earlier]
  return `${head}; ${other.version.name} has no fare for this trip, so it is priced on ${covering.version.name} alone`
}

/**
 * What an offer priced inside a change window publishes (made per quote: such dates are rare):
 * the rule of `basis` (the earlier version where it has a price for the trip, else the later)
 * and the window's note before any caveat of that version.
 */
export const windowOfferSource = (
  basis: TariffVersion,
  charges: Charges,
  base: OfferSource | undefined,
  fare: string | undefined,
  note: string
): OfferSource => tariffedSource(base ?? NO_SOURCE, tariffBasis(basis, charges), noted(levelOf(basis, charges), note), fare)

/** What a tariffed offer publishes: the fitted offer's product and records, the rule and the level. */
const tariffedSource = (base: OfferSource, tariff: TariffBasis, level: LevelBasis, fare?: string): OfferSource => ({
  ...(base.product === undefined ? {} : { product: base.product }),
  ...(base.records === undefined ? {} : { records: base.records }),
  ...(fare === undefined ? {} : { fare }),
  tariff,
  level
})

const NO_SOURCE: OfferSource = {}

/**
 * What a tariffed offer publishes, made once per (charges, the fitted offer's source, flat
 * fare) and shared by every quote that pays the same charges: the response encoder writes a
 * shared object's JSON once, and a fresh object per quote would cost its serialisation each time.
 */
export const offerSourceCache = (): ((
  version: TariffVersion,
  charges: Charges,
  base: OfferSource | undefined,
  fare?: string,
  /** The trip's local date; one before `version` took effect gets `beforeEarliestRule`'s note. */
  tripDate?: string
) => OfferSource) => {
  const basisOf = tariffBasisCache()
  const published = new WeakMap<Charges, Map<OfferSource, Map<string, OfferSource>>>()
  return (version, charges, base = NO_SOURCE, fare, tripDate) => {
    // Rare (a date older than every rule the file has): made per quote, never cached.
    if (tripDate !== undefined && tripDate < version.effectiveFrom) {
      return tariffedSource(base, basisOf(version, charges), beforeEarliestRule(levelOf(version, charges), tripDate, version), fare)
    }
    let bySource = published.get(charges)
    if (bySource === undefined) published.set(charges, bySource = new Map())
    let byFare = bySource.get(base)
    if (byFare === undefined) bySource.set(base, byFare = new Map())
    let source = byFare.get(fare ?? "")
    if (source === undefined) {
      source = tariffedSource(base, basisOf(version, charges), levelOf(version, charges), fare)
      byFare.set(fare ?? "", source)
    }
    return source
  }
}

/** One trip as the tariff reads it: its local date, moment and the zones of its two ends. */
export interface TariffTripView {
  /** Undefined when the trip has no moment: the newest version prices it. */
  readonly localDate: string | undefined
  readonly moment: TripMoment
  readonly places: TripPlaces
}

/**
 * The tariff's view of a trip, the same for fitted and tariff-defined markets: its local date
 * (`localDateOf` its departure), its local time and the zones of its ends. A trip with no
 * moment is read on the newest version, with every dated charge that has begun.
 */
export const tariffTripView = (
  tariffs: MarketTariffs,
  localDateOf: (epochMillis: number) => string,
  trip: Pick<Trip, "pickup" | "destination" | "localTime">,
  at: number | undefined
): TariffTripView => {
  const localDate = at === undefined ? undefined : localDateOf(at)
  return {
    localDate,
    moment: { localDate: localDate ?? "9999-12-31", dayOfWeek: trip.localTime.dayOfWeek, minuteOfDay: trip.localTime.minuteOfDay },
    places: { pickup: tariffs.locate(trip.pickup), dropoff: tariffs.locate(trip.destination) }
  }
}
