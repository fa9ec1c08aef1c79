/**
 * A tariff applied to a trip: the version in force at its moment, the conditions of every
 * surcharge and fee read at the trip's local time and places, and the price built from a fare.
 *
 * A price is built in the order the rules charge it:
 *   fare (the meter's amount, or a flat fare)
 *   × (1 + Σ percent surcharges)  + Σ fixed surcharges        (the fare as the meter shows it)
 *   at least the minimum fare
 *   + fees, in file order (fixed, a share of the fare, or a share of the subtotal)
 *   + tolls, where the tariff passes them on.
 * Everything that does not depend on the fare is settled once per trip (`chargesFor`); the
 * result is a non-decreasing function of the fare and the tolls, so a distribution of fares
 * stays a distribution of prices whose quantiles never cross.
 */
import type { Condition, DayName, Fee, FlatFare, ProviderTariff, TariffVersion } from "./TariffFile.js"

/** The local moment a trip starts: date, day of week (0 = Sunday) and minute of the day. */
export interface TripMoment {
  readonly localDate: string
  readonly dayOfWeek: number
  readonly minuteOfDay: number
}

/** The zones each end of a trip is in. */
export interface TripPlaces {
  readonly pickup: ReadonlySet<string>
  readonly dropoff: ReadonlySet<string>
}

/** One charge of a priced trip, as a receipt lists it. */
export interface ChargeLine {
  readonly name: string
  readonly amount: number
}

/** A trip priced under a tariff, item by item (`ridequote market check` prints it). */
export interface PricedTrip {
  readonly total: number
  /** The meter's amount or the flat fare, before surcharges. */
  readonly fare: number
  readonly fareKind: "meter" | "flat"
  /** The flat fare's name when one replaced the meter. */
  readonly flatFare?: string
  readonly surcharges: ReadonlyArray<ChargeLine>
  readonly minimumApplied: boolean
  readonly fees: ReadonlyArray<ChargeLine>
  readonly tolls: number
}

const DAY_NAMES: ReadonlyArray<DayName> = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

const minuteOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** A window's minutes of the day, read once per window (conditions are evaluated per quote). */
const windows = new WeakMap<object, readonly [number, number]>()
const windowOf = (hours: { readonly from: string; readonly to: string }): readonly [number, number] => {
  let w = windows.get(hours)
  if (w === undefined) windows.set(hours, w = [minuteOf(hours.from), minuteOf(hours.to)])
  return w
}

const anyIn = (names: ReadonlyArray<string>, zones: ReadonlySet<string>): boolean => names.some((n) => zones.has(n))

/** The local date before `isoDate` (for the part of a night window after midnight). */
const dayBefore = (isoDate: string): string => new Date(Date.parse(`${isoDate}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)

/**
 * Whether a condition holds for a trip. A night window (`hours.to` ≤ `hours.from`) that a trip
 * enters after midnight belongs to the day it began on: its `days` and `holidays` are read on
 * the day before.
 */
export const conditionHolds = (
  c: Condition | undefined,
  moment: TripMoment,
  places: TripPlaces,
  holidays: ReadonlySet<string>
): boolean => {
  if (c === undefined) return true
  if (c.from !== undefined && moment.localDate < c.from) return false
  if (c.until !== undefined && moment.localDate >= c.until) return false
  let dayOfWeek = moment.dayOfWeek
  let date = moment.localDate
  if (c.hours !== undefined) {
    const [from, to] = windowOf(c.hours)
    const m = moment.minuteOfDay
    if (from < to) {
      if (m < from || m >= to) return false
    } else {
      if (!(m >= from || m < to)) return false
      // After midnight: the window opened the day before.
      if (m < to && from !== 0) (dayOfWeek = (dayOfWeek + 6) % 7, date = dayBefore(date))
    }
  }
  if (c.days !== undefined && !c.days.includes(DAY_NAMES[dayOfWeek] ?? "sun")) return false
  if (c.holidays === "excluded" && holidays.has(date)) return false
  if (c.holidays === "only" && !holidays.has(date)) return false
  if (c.pickupIn !== undefined && !anyIn(c.pickupIn, places.pickup)) return false
  if (c.dropoffIn !== undefined && !anyIn(c.dropoffIn, places.dropoff)) return false
  if (c.dropoffNotIn !== undefined && anyIn(c.dropoffNotIn, places.dropoff)) return false
  if (c.touches !== undefined && !anyIn(c.touches, places.pickup) && !anyIn(c.touches, places.dropoff)) return false
  if (c.between !== undefined) {
    const [a, b] = c.between
    if (!((anyIn(a, places.pickup) && anyIn(b, places.dropoff)) || (anyIn(b, places.pickup) && anyIn(a, places.dropoff)))) return false
  }
  return true
}

/**
 * The version in force on a local date: the last that took effect on or before it. A date
 * before the first version gets the first (the oldest rule known); no date, the newest.
 */
export const versionAt = (tariff: ProviderTariff, localDate: string | undefined): TariffVersion => {
  const vs = tariff.versions
  const newest = vs[vs.length - 1] as TariffVersion
  if (localDate === undefined) return newest
  for (let i = vs.length - 1; i > 0; i--) {
    const v = vs[i]
    if (v !== undefined && v.effectiveFrom <= localDate) return v
  }
  return vs[0] ?? newest
}

/**
 * A change whose day is not known (`changedAfter` on the later version): the two versions and
 * the window [`from`, `until`) in which either may have been in force.
 */
export interface ChangeWindow {
  /** The version last seen in force on `from` (what `versionAt` gives inside the window). */
  readonly earlier: TariffVersion
  /** The version first seen in force on `until` (its `effectiveFrom`). */
  readonly later: TariffVersion
  /** The later version's `changedAfter`. */
  readonly from: string
  /** The later version's `effectiveFrom`. */
  readonly until: string
}

/**
 * The change window a local date falls in, if any: a version with `changedAfter` ≤ date <
 * `effectiveFrom`, and the version before it. No date (the newest version prices), none.
 */
export const changeWindowAt = (tariff: ProviderTariff, localDate: string | undefined): ChangeWindow | undefined => {
  if (localDate === undefined) return undefined
  const vs = tariff.versions
  for (let i = 1; i < vs.length; i++) {
    const later = vs[i], earlier = vs[i - 1]
    const from = later?.changedAfter
    if (later === undefined || earlier === undefined || from === undefined) continue
    if (from <= localDate && localDate < later.effectiveFrom) return { earlier, later, from, until: later.effectiveFrom }
  }
  return undefined
}

/** The flat fare of a version that covers a trip, if any (the first listed wins). */
export const flatFareFor = (
  version: TariffVersion,
  moment: TripMoment,
  places: TripPlaces,
  holidays: ReadonlySet<string>
): FlatFare | undefined =>
  version.flatFares.find((f) => {
    const [a, b] = f.between
    const outbound = anyIn(a, places.pickup) && anyIn(b, places.dropoff)
    const inbound = anyIn(b, places.pickup) && anyIn(a, places.dropoff)
    return (outbound || (f.direction !== "outbound" && inbound)) && conditionHolds(f.when, moment, places, holidays)
  })

/** The price of a trip as a function of its fare and tolls, with every condition settled. */
export interface Charges {
  readonly fareKind: "meter" | "flat"
  /** The total a rider pays for a fare and the trip's tolls. Non-decreasing in both. */
  readonly total: (fare: number, tolls: number) => number
  /**
   * The fare behind a total (no tolls): the inverse of `total` where the fare is above the
   * minimum; 0 for a total at or below what the charges alone come to. Reads a record's price
   * (everything paid) back to the fare its era's rule charged.
   */
  readonly fareOf: (total: number) => number
  /** The same, item by item. */
  readonly itemize: (fare: number, tolls: number) => PricedTrip
  /** The names of the surcharges and fees that apply (for an offer's basis). */
  readonly applied: ReadonlyArray<string>
  /** Whether an item that applies is not confirmed on this kind of fare (its `unconfirmed`). */
  readonly unconfirmed: boolean
}

/** Whether a surcharge's or fee's application to a fare of this kind is not confirmed by the rule. */
const unconfirmedOn = (item: Pick<Fee, "unconfirmed">, fareKind: "meter" | "flat"): boolean =>
  item.unconfirmed === "all" || item.unconfirmed === fareKind

/** Rounds to the cent-like minor unit of the amounts (receipts are exact to it). */
const round = (x: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/**
 * The charges of a version for a trip at a moment between places: which surcharges and fees
 * apply (settled once), and the price they make of any fare. `minorDigits` rounds each line
 * as a receipt would (2 for dollars, 0 for yen).
 */
export const chargesFor = (
  version: TariffVersion,
  fareKind: "meter" | "flat",
  moment: TripMoment,
  places: TripPlaces,
  holidays: ReadonlySet<string>,
  minorDigits: number,
  confirmedOnly = false
): Charges => {
  const applies = (on: "meter" | "flat" | "all" | undefined) => on === undefined || on === "all" || on === fareKind
  // With `confirmedOnly`, the items the rule leaves open for this fare are left out: the other
  // end of the trip's spread (see `unconfirmed` in TariffFile.ts).
  const kept = (item: Pick<Fee, "unconfirmed">) => !confirmedOnly || !unconfirmedOn(item, fareKind)
  return buildCharges(
    version,
    fareKind,
    version.surcharges.filter((s) => applies(s.on) && kept(s) && conditionHolds(s.when, moment, places, holidays)),
    version.fees.filter((f) => kept(f) && conditionHolds(f.when, moment, places, holidays)),
    minimumOf(version, moment, places, holidays),
    minorDigits
  )
}

/** The minimum fare of a trip: the largest of the version's `minimumFare` and the conditional minimums that hold. */
const minimumOf = (version: TariffVersion, moment: TripMoment, places: TripPlaces, holidays: ReadonlySet<string>): number => {
  let minimum = version.minimumFare ?? 0
  for (const m of version.minimumFares) if (m.amount > minimum && conditionHolds(m.when, moment, places, holidays)) minimum = m.amount
  return minimum
}

/**
 * `chargesFor` with memory: the charges of a version depend on a trip only through which of its
 * surcharges and fees apply, so trips that pay the same items share one `Charges` (built once,
 * with its receipts and inverse). The quote path asks for it per offer; this keeps it from
 * allocating per quote.
 */
export const chargesCache = (minorDigits: number) => {
  const byVersion = new WeakMap<TariffVersion, Map<number, Charges>>()
  return (
    version: TariffVersion,
    fareKind: "meter" | "flat",
    moment: TripMoment,
    places: TripPlaces,
    holidays: ReadonlySet<string>,
    confirmedOnly = false
  ): Charges => {
    const items = version.surcharges.length + version.fees.length + version.minimumFares.length
    // A bit per item, one for the fare's kind and one for `confirmedOnly`; more than 50 items is not cached.
    if (items > 50) return chargesFor(version, fareKind, moment, places, holidays, minorDigits, confirmedOnly)
    let key = (fareKind === "meter" ? 2 : 0) + (confirmedOnly ? 1 : 0)
    for (const s of version.surcharges) {
      const on = s.on
      key = key * 2 + ((on === undefined || on === "all" || on === fareKind) && conditionHolds(s.when, moment, places, holidays) ? 1 : 0)
    }
    for (const f of version.fees) key = key * 2 + (conditionHolds(f.when, moment, places, holidays) ? 1 : 0)
    for (const m of version.minimumFares) key = key * 2 + (conditionHolds(m.when, moment, places, holidays) ? 1 : 0)
    let cached = byVersion.get(version)
    if (cached === undefined) byVersion.set(version, cached = new Map())
    let charges = cached.get(key)
    if (charges === undefined) {
      charges = chargesFor(version, fareKind, moment, places, holidays, minorDigits, confirmedOnly)
      cached.set(key, charges)
    }
    return charges
  }
}

const buildCharges = (
  version: TariffVersion,
  fareKind: "meter" | "flat",
  surcharges: TariffVersion["surcharges"],
  fees: TariffVersion["fees"],
  minimum: number,
  minorDigits: number
): Charges => {
  const tollsPassed = version.tolls === "passed-on"
  const itemize = (fare: number, tolls: number): PricedTrip => {
    const base = round(fare, minorDigits)
    const lines: Array<ChargeLine> = []
    let fareWithSurcharges = base
    for (const s of surcharges) {
      const amount = round(s.amount ?? (base * (s.percent ?? 0)) / 100, minorDigits)
      lines.push({ name: s.name, amount })
      fareWithSurcharges += amount
    }
    const minimumApplied = fareWithSurcharges < minimum
    let subtotal = Math.max(minimum, fareWithSurcharges)
    const fareForFees = subtotal
    const feeLines: Array<ChargeLine> = []
    for (const f of fees) {
      const amount = round(f.amount ?? ((f.of === "subtotal" ? subtotal : fareForFees) * (f.percent ?? 0)) / 100, minorDigits)
      feeLines.push({ name: f.name, amount })
      subtotal += amount
    }
    const passed = tollsPassed ? round(Math.max(0, tolls), minorDigits) : 0
    return {
      total: round(subtotal + passed, minorDigits),
      fare: base,
      fareKind,
      surcharges: lines,
      minimumApplied,
      fees: feeLines,
      tolls: passed
    }
  }
  // The hot path: the same arithmetic without receipts or rounding of each line (a quantile
  // function is read at several levels per quote).
  const pct = surcharges.reduce((a, s) => a + (s.percent ?? 0), 0) / 100
  const fixed = surcharges.reduce((a, s) => a + (s.amount ?? 0), 0)
  const total = (fare: number, tolls: number): number => {
    const f = Math.max(0, fare)
    let subtotal = Math.max(minimum, f * (1 + pct) + fixed)
    const fareForFees = subtotal
    for (const fee of fees) subtotal += fee.amount ?? ((fee.of === "subtotal" ? subtotal : fareForFees) * (fee.percent ?? 0)) / 100
    return subtotal + (tollsPassed ? Math.max(0, tolls) : 0)
  }
  // total = k × subtotal + c for a subtotal above the minimum, whatever the fees (each is a fixed
  // amount, a share of the subtotal before the fees, or a share of the running subtotal).
  let k = 1, c = 0
  for (const fee of fees) {
    if (fee.amount !== undefined) c += fee.amount
    else if (fee.of === "subtotal") (k *= 1 + (fee.percent ?? 0) / 100, c *= 1 + (fee.percent ?? 0) / 100)
    else k += (fee.percent ?? 0) / 100
  }
  const fareOf = (t: number): number => {
    const subtotal = (t - c) / k
    return subtotal <= minimum ? 0 : Math.max(0, (subtotal - fixed) / (1 + pct))
  }
  return {
    fareKind,
    total,
    fareOf,
    itemize,
    applied: [...surcharges.map((s) => s.name), ...fees.map((f) => f.name)],
    unconfirmed: surcharges.some((s) => unconfirmedOn(s, fareKind)) || fees.some((f) => unconfirmedOn(f, fareKind))
  }
}
