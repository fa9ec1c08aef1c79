/**
 * What the city tariff tests share: a shipped tariff file and its market, the meter and charges
 * of the version in force for a trip, and the quoted spread read as quantiles.
 */
import { expect } from "@effect/vitest"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { chargesFor, definedMarket, meterAmount, meterFor, meterReading, parseTariff, priceTrip, SHIPPED_MARKETS_DIR, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import type { Charges, DefinedMarket, TariffDocument, TariffTripView } from "@ridequote/markets"

/** One tariff (service level) of a tariff file, with its dated versions. */
export type Tariff = TariffDocument["tariffs"][number]
/** A place by latitude and longitude. */
export type Point = { readonly latitude: number; readonly longitude: number }
type Meter = NonNullable<ReturnType<typeof meterFor>["meter"]>
type Spread = { readonly distribution: { readonly quantile: (q: number) => number } }

/** Kilometres in a statute mile. */
export const MILE = 1.609344
/** The empty set: no zones, no holidays. */
export const none: ReadonlySet<string> = new Set()

/** The shipped tariff file `<name>-tariff.json`, parsed (throws if it does not decode). */
export const loadTariff = (name: string): TariffDocument =>
  Either.getOrThrow(parseTariff(name, readFileSync(join(SHIPPED_MARKETS_DIR, `${name}-tariff.json`), "utf8")))
/** Tariff `i` of a tariff file (throws if there is none). */
export const tariffOf = (doc: TariffDocument, i = 0): Tariff => {
  const t = doc.tariffs[i]
  if (t === undefined) throw new Error("no tariff")
  return t
}
/** A shipped market: its tariff file, the market it defines (throws if none) and its first tariff. */
export const shippedMarket = (name: string): { doc: TariffDocument; market: DefinedMarket; tariff: Tariff } => {
  const doc = loadTariff(name)
  const market = definedMarket(doc)
  if (market === undefined) throw new Error(`${name} defines no market`)
  return { doc, market, tariff: tariffOf(doc) }
}

/** A trip on a local date at a minute of the day (11:00 unless given), between zones (none unless given); the weekday is the date's. */
export const view = (date: string, minuteOfDay = 660, pickup: ReadonlySet<string> = none, dropoff: ReadonlySet<string> = none): TariffTripView => ({
  localDate: date,
  moment: { localDate: date, dayOfWeek: new Date(`${date}T00:00:00Z`).getUTCDay(), minuteOfDay },
  places: { pickup, dropoff }
})

/** The meter of the version of `tariff` in force on a local date (throws if that version has none). */
export const meterOn = (tariff: Tariff, date: string): Meter => {
  const m = versionAt(tariff, date).meter
  if (m === undefined) throw new Error(`no meter on ${date}`)
  return m
}
/** The meter that prices a trip: the version in force on its date, the variant its moment and places select (throws if none). */
export const meterForView = (tariff: Tariff, v: TariffTripView, holidays: ReadonlySet<string> = none): Meter => {
  const m = meterFor(versionAt(tariff, v.localDate), v, holidays).meter
  if (m === undefined) throw new Error(`no meter on ${v.localDate}`)
  return m
}
/** What a meter reads for a trip of `km` in `minutes`, `slowMinutes` of them below its crossover speed. */
export const meterFare = (meter: Meter, km: number, minutes: number, slowMinutes: number): number =>
  meterAmount(meter, meterReading(meter, km, minutes, slowMinutes))
/** The charges (surcharges, fees, minimum) of the version in force on a metered trip, rounded to `minorDigits`. */
export const meterCharges = (tariff: Tariff, v: TariffTripView, holidays: ReadonlySet<string> = none, minorDigits = 2): Charges =>
  chargesFor(versionAt(tariff, v.localDate), "meter", v.moment, v.places, holidays, minorDigits)

/** The quantiles `qs` of a priced trip's spread (p5, p50, p95 unless given). */
export const quantilesOf = (priced: Spread, qs: ReadonlyArray<number> = [0.05, 0.5, 0.95]): Array<number> =>
  qs.map((q) => priced.distribution.quantile(q))
/** The p5 and p95 of a priced trip's spread. */
export const spreadEnds = (priced: Spread): readonly [number, number] =>
  [priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]
/**
 * A city's trips between two places with a supplied route of `km` in `minutes`, at an ISO
 * moment: the market's offers, and each offer's quoted spread (p5, p95).
 */
export const tripsOf = (market: DefinedMarket, km: number, minutes: number) => {
  const offers = (from: Point, to: Point, iso: string) => market.offers(suppliedTrip(market, from, to, km, minutes)(iso))
  const price = (from: Point, to: Point, iso: string) => offers(from, to, iso).map(spreadEnds)
  return { offers, price }
}
/** A route the caller supplies (`km` in `minutes`) priced on `tariff` for a trip seen as `v`. */
export const priceSupplied = (market: DefinedMarket, tariff: Tariff, km: number, minutes: number, v: TariffTripView, minorDigits = 2) =>
  priceTrip(market.tariffs, tariff, { distanceKm: km, durationMinutes: minutes, routeSource: "supplied" }, v, minorDigits)

/**
 * A market that refuses trips before its earliest rule (`define.beforeFirstRule: "refuse"`):
 * `trip` at each of `refusedAt` (instants in the market's local offset, so their first ten
 * characters are the local date) gets no offer and `no-rule-for-date` naming that date and the
 * day the known rule starts, `firstDayAt`'s date; at `firstDayAt` the same trip is priced.
 */
export const expectRefusedBefore = (
  market: DefinedMarket,
  trip: (at: string) => Parameters<DefinedMarket["offers"]>[0],
  refusedAt: string | ReadonlyArray<string>,
  firstDayAt: string
): void => {
  for (const at of typeof refusedAt === "string" ? [refusedAt] : refusedAt) {
    expect(market.offers(trip(at))).toEqual([])
    const refusal = market.unoffered?.(trip(at))
    expect(refusal?.reason).toBe("no-rule-for-date")
    expect(refusal?.message).toBe(
      `market ${market.id} knows no rule in force on ${at.slice(0, 10)}: its earliest known rule is in force from ${firstDayAt.slice(0, 10)}`
    )
  }
  expect(market.unoffered?.(trip(firstDayAt))).toBeUndefined()
  expect(market.offers(trip(firstDayAt)).length).toBeGreaterThan(0)
}
