/**
 * What `market check` and `market calibrate-routes` do once they run (./Commands.ts holds
 * their options and loads this module on use). Results go to stdout, progress to stderr.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { Console, Effect, Either } from "effect"
import type { Currency } from "@ridequote/core"
import { minorDigits, toMajor, toMinor } from "@ridequote/core"
import {
  CALIBRATION_BANDS_KM,
  chargesFor,
  decodeTariffJson,
  invalid,
  isTariffJson,
  marketTariffs,
  meterAmount,
  meterFor,
  meterReading,
  parseModelJson,
  priceTrip,
  slowMinutesOf,
  versionAt
} from "@ridequote/markets/model"
import type { MarketTariffs, PricedTrip, ProviderTariff, TariffDocument, TariffTripView } from "@ridequote/markets/model"
import { progressTo, readText } from "./CommandFiles.js"
import { readTrips } from "./sources/TripRecords.js"
import {
  calibrationTable,
  CHICAGO_2012_METER,
  cityQuantiles,
  NYC_2012_METER,
  renderCalibration,
  routeSamples
} from "./TariffCalibration.js"

/** The sample trips `market check` prices: distance, minutes, local start time. */
export const SAMPLE_TRIPS: ReadonlyArray<{ readonly km: number; readonly minutes: number; readonly time: string }> = [
  { km: 2, minutes: 8, time: "11:00" },
  { km: 5, minutes: 15, time: "11:00" },
  { km: 10, minutes: 25, time: "11:00" },
  { km: 20, minutes: 35, time: "11:00" },
  { km: 5, minutes: 12, time: "23:30" }
]

const DAY_MS = 86_400_000

/** The first Tuesday on or after a local date (a working day with no surcharge of its own in most rules). */
export const sampleDate = (isoDate: string): string => {
  const at = Date.parse(`${isoDate}T00:00:00Z`)
  const dow = new Date(at).getUTCDay()
  return new Date(at + (((2 - dow) + 7) % 7) * DAY_MS).toISOString().slice(0, 10)
}

const momentOf = (date: string, time: string) => ({
  localDate: date,
  dayOfWeek: new Date(Date.parse(`${date}T00:00:00Z`)).getUTCDay(),
  minuteOfDay: Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))
})

/** One sample quote of `market check`: the trip, its percentiles and the receipt at the median. */
export interface SampleQuote {
  readonly provider: string
  readonly trip: string
  readonly p5: number
  readonly p50: number
  readonly p95: number
  readonly receipt: PricedTrip
  readonly version: string
}

const money = (x: number, currency: Currency): number => toMajor(toMinor(x, currency), currency)

/**
 * The sample quotes of a tariff document on `date`: every provider's metered trips (supplied
 * route, no zones) where the version in force has a meter, and every flat fare of that version
 * (between its own zones). A version without a meter (a level over a fitted market's records,
 * or flat fares only) has no metered sample: the file alone does not price such a trip.
 */
export const sampleQuotes = (document: TariffDocument, date: string): ReadonlyArray<SampleQuote> => {
  const tariffs: MarketTariffs = marketTariffs(document)
  const currency = document.currency
  const minor = minorDigits(currency)
  const out: Array<SampleQuote> = []
  const none: ReadonlySet<string> = new Set()
  for (const tariff of document.tariffs) {
    const version = versionAt(tariff, date)
    for (const s of version.meter !== undefined || version.meterVariants.length > 0 ? SAMPLE_TRIPS : []) {
      const moment = momentOf(date, s.time)
      const view: TariffTripView = { localDate: date, moment, places: { pickup: none, dropoff: none } }
      out.push(meteredSample(tariffs, tariff, s, view, minor, currency))
    }
    for (const flat of version.flatFares) {
      for (const time of ["11:00", "23:30"]) {
        const moment = momentOf(date, time)
        const view: TariffTripView = { localDate: date, moment, places: { pickup: new Set(flat.between[0]), dropoff: new Set(flat.between[1]) } }
        const priced = priceTrip(tariffs, tariff, { distanceKm: 20, durationMinutes: 35, routeSource: "supplied" }, view, minor)
        if (priced.fare !== flat.name) continue
        const receipt = priced.charges.itemize(flat.amount, 0)
        // A flat fare is one amount, unless an item the rule leaves open spans it (`unconfirmed`).
        const at = (q: number) => money(priced.distribution.quantile(q), currency)
        out.push({ provider: `${tariff.provider}/${tariff.serviceLevel}`, trip: `${flat.name} at ${time}`, p5: at(0.05), p50: at(0.5), p95: at(0.95), receipt, version: version.name })
      }
    }
  }
  return out
}

const meteredSample = (
  tariffs: MarketTariffs,
  tariff: ProviderTariff,
  s: (typeof SAMPLE_TRIPS)[number],
  view: TariffTripView,
  minor: number,
  currency: Currency
): SampleQuote => {
  const priced = priceTrip(tariffs, tariff, { distanceKm: s.km, durationMinutes: s.minutes, routeSource: "supplied" }, view, minor)
  const { meter } = meterFor(priced.version, view, tariffs.holidays)
  const slow = meter === undefined || meter.time.runs !== "below-speed" ? 0 : slowMinutesOf(s.km, s.minutes, meter.time.crossoverKmh ?? 1)
  const fare = meter === undefined ? 0 : meterAmount(meter, meterReading(meter, s.km, s.minutes, slow))
  const charges = chargesFor(priced.version, "meter", view.moment, view.places, tariffs.holidays, minor)
  return {
    provider: `${tariff.provider}/${tariff.serviceLevel}`,
    trip: `${s.km} km in ${s.minutes} min at ${s.time}`,
    p5: money(priced.distribution.quantile(0.05), currency),
    p50: money(priced.distribution.quantile(0.5), currency),
    p95: money(priced.distribution.quantile(0.95), currency),
    receipt: charges.itemize(fare, 0),
    version: priced.version.name
  }
}

const receiptLine = (r: PricedTrip): string =>
  [
    `${r.fareKind === "flat" ? "flat fare" : "meter"} ${r.fare}`,
    ...r.surcharges.map((l) => `+ ${l.name} ${l.amount}`),
    ...(r.minimumApplied ? ["(minimum fare applied)"] : []),
    ...r.fees.map((l) => `+ ${l.name} ${l.amount}`),
    ...(r.tolls > 0 ? [`+ tolls ${r.tolls}`] : []),
    `= ${r.total}`
  ].join("  ")

/** What `market check` says of a version beyond its date: a change whose day is not known, a caveat. */
const versionNotes = (v: TariffDocument["tariffs"][number]["versions"][number]): string =>
  (v.changedAfter === undefined
    ? ""
    : v.between === "unread-version"
    ? `; a rule in force between ${v.changedAfter} (the earlier rule last seen in force) and ${v.effectiveFrom} was not read: trips dated ${v.changedAfter}..${v.effectiveFrom} are priced on both neighbours`
    : `; changed on a day not known after ${v.changedAfter} (the earlier rule last seen in force), in force by ${v.effectiveFrom}: trips dated ${v.changedAfter}..${v.effectiveFrom} are priced on both`) +
  (v.caveat === undefined ? "" : `; caveat (checked ${v.caveat.checked}): ${v.caveat.note}`)

/** `market check FILE`. */
export const runCheck = (o: { readonly file: string; readonly at: string | undefined; readonly json: boolean }) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(o.file).pipe(Effect.mapError((e) => invalid(o.file, `cannot read (${e.message})`)))
    const json = yield* Either.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) => invalid(o.file, `not JSON: ${e instanceof Error ? e.message : String(e)}`)
    })
    if (!isTariffJson(json)) {
      const model = yield* parseModelJson(o.file, json)
      const line = `${o.file}: valid model "${model.id}" (${model.name}), ${model.currency}, ${model.regimes.length} regime(s), providers ${model.providers.map((p) => `${p.provider}/${p.serviceLevel}`).join(", ")}`
      return yield* o.json ? Console.log(JSON.stringify({ file: o.file, kind: "model", market: model.id, valid: true })) : Console.log(line)
    }
    const document = yield* decodeTariffJson(o.file, json).pipe(Either.mapLeft((e) => invalid(o.file, e.message)))
    const newest = document.tariffs.map((t) => t.versions[t.versions.length - 1]?.effectiveFrom ?? "").sort().pop() ?? "2000-01-01"
    const date = sampleDate(o.at ?? newest)
    const samples = sampleQuotes(document, date)
    if (o.json) {
      return yield* Console.log(JSON.stringify({ file: o.file, kind: "tariff", market: document.market, defines: document.define !== undefined, currency: document.currency, date, samples }))
    }
    const lines = [
      `${o.file}: valid tariff for market "${document.market}"${document.define === undefined ? " (prices a fitted market)" : ` (defines "${document.define.name}", ${document.define.timeZone})`}, ${document.currency}`,
      ...document.tariffs.flatMap((t) => t.versions.map((v) => `  ${t.provider}/${t.serviceLevel}: ${v.effectiveFrom} ${v.name} — ${v.source.authority}, ${v.source.reading ?? "reading not stated"}${versionNotes(v)}`)),
      `sample quotes on ${date} (supplied routes; p5 / p50 / p95; receipt at the median slow time):`,
      ...samples.flatMap((s) => [`  ${s.provider} ${s.trip}: ${s.p5} / ${s.p50} / ${s.p95} ${document.currency}`, `    ${receiptLine(s.receipt)}`])
    ]
    return yield* Console.log(lines.join("\n"))
  }).pipe(
    // The whole decoder message (every field that failed), not only its first line.
    Effect.tapError((e) => Console.error(e.message))
  )

/** `market calibrate-routes`. */
export const runCalibrateRoutes = (o: { readonly nyc: ReadonlyArray<string>; readonly chicago: ReadonlyArray<string>; readonly quiet: boolean }) =>
  Effect.gen(function*() {
    const progress = progressTo(o.quiet)
    const read = (paths: ReadonlyArray<string>) => Effect.forEach(paths, (path) => Effect.map(readText(path), (text) => ({ path, text })))
    const nyc = yield* readTrips("nyc-tlc", yield* read(o.nyc), "calibrate-routes", undefined)
    const chicago = yield* readTrips("chicago", yield* read(o.chicago), "calibrate-routes", undefined)
    const byCity = { nyc: routeSamples("nyc", nyc.trips, NYC_2012_METER), chicago: routeSamples("chicago", chicago.trips, CHICAGO_2012_METER) }
    yield* progress(`samples: nyc ${byCity.nyc.length} of ${nyc.trips.length} trips, chicago ${byCity.chicago.length} of ${chicago.trips.length}`)
    const bounds = [0, ...CALIBRATION_BANDS_KM, Number.POSITIVE_INFINITY]
    const perCity = bounds.slice(1).map((upTo, i) => {
      const from = bounds[i] ?? 0
      const [n5, n50, n95] = cityQuantiles(byCity.nyc, from, upTo)
      const [c5, c50, c95] = cityQuantiles(byCity.chicago, from, upTo)
      return `// ${from}–${Number.isFinite(upTo) ? upTo : "∞"} km: nyc p5 ${n5} p50 ${n50} p95 ${n95}; chicago p5 ${c5} p50 ${c50} p95 ${c95}`
    })
    yield* Console.log([...perCity, renderCalibration(calibrationTable(byCity))].join("\n"))
  })
