/**
 * The published rules checked on the records: each era's trips priced the way a quote prices
 * them (the fitted trip, the money of the rule in force on the trip's date), against what the
 * riders paid, beside the fitted model alone on the same trips.
 *
 * An era is a version of the provider's tariff: NYC's 2012 meter covers the 2016 and 2019
 * records, Chicago's 2012 and 2016 rules the records before and after 2016-01-01. The scored
 * trips are those the fit never saw: its held-out rows, and every row outside its training
 * span (the 2016 NYC records, for a model fitted on 2018–2019). A rule that prices its own era
 * right covers each percentile within a few points and loses no accuracy against the fit.
 *
 * `todayRatio` prices the same trips at another date (the same weekday and hour in the week of
 * `today`), as a rider would be quoted for them then: the ratio of that median price to what was
 * paid is what the rules in force say a trip costs now relative to then.
 */
import { DateTime } from "effect"
import type { Market, Trip } from "@ridequote/core"
import { minorDigits } from "@ridequote/core"
import {
  calibratedMarket,
  chargesFor,
  flatFareFor,
  localClock,
  localDateClock,
  localMidnight,
  marketTariffs,
  meterRebase,
  pinballLoss,
  versionAt,
  wallClock
} from "@ridequote/markets/model"
import type { MarketModel, MarketTariffs, TariffDocument } from "@ridequote/markets/model"
import { EVALUATION_LEVELS } from "./Evaluation.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"

/** The tariffs as the records saw them, built once per tariffs (the rule check and the cost check both read them). */
const recordedTariffs = (() => {
  const cache = new WeakMap<MarketTariffs, MarketTariffs>()
  return (tariffs: MarketTariffs): MarketTariffs => {
    let recorded = cache.get(tariffs)
    if (recorded === undefined) cache.set(tariffs, recorded = marketTariffs(asRecorded(tariffs.document)))
    return recorded
  }
})()

/** The tariff as the records saw it: each provider's `recordsExclude` charges taken out. */
const asRecorded = (doc: TariffDocument): TariffDocument => ({
  ...doc,
  tariffs: doc.tariffs.map((t) => ({
    ...t,
    versions: t.versions.map((v) => ({
      ...v,
      surcharges: v.surcharges.filter((s) => !t.recordsExclude.includes(s.name)),
      fees: v.fees.filter((f) => !t.recordsExclude.includes(f.name))
    }))
  }))
})

/** One era's scores: the quote (rule + records) and the fitted model alone, on the same trips. */
export interface EraEvaluation {
  readonly provider: string
  readonly era: string
  readonly effectiveFrom: string
  readonly rows: number
  readonly coverage: Readonly<Record<string, number>>
  readonly pinball: number
  readonly fittedCoverage: Readonly<Record<string, number>>
  readonly fittedPinball: number
}

const LEVELS = EVALUATION_LEVELS.map(([, q]) => q)

/** The instant a trip of the records started (its local date and wall time in the market's zone). */
const instantOf = (timeZone: string, t: ObservedTrip): number =>
  localMidnight(timeZone, t.localDate) + (t.hour * 60 + t.minute) * 60_000

const tripOf = (t: ObservedTrip, at: number): Trip => ({
  pickup: t.pickup,
  destination: t.destination,
  distanceKm: t.distanceKm,
  durationMinutes: t.durationMinutes,
  mode: "Realtime",
  routeSource: "supplied",
  localTime: wallClock(t.hour, t.minute, t.dayOfWeek),
  departAt: DateTime.unsafeMake(at)
})

/** The offer of the trip's provider: the model's only one, or the one named like the trip's. */
const offerOf = (market: Market, trip: Trip, provider: string) => {
  const offers = market.offers(trip)
  return offers.length === 1 ? offers[0] : offers.find((o) => o.provider === provider)
}

interface Tally {
  readonly below: Array<number>
  loss: number
  n: number
}
const tally = (): Tally => ({ below: LEVELS.map(() => 0), loss: 0, n: 0 })
const add = (acc: Tally, quantile: (q: number) => number, price: number) => {
  LEVELS.forEach((q, i) => {
    const quoted = quantile(q)
    if (price <= quoted) acc.below[i] = (acc.below[i] ?? 0) + 1
    acc.loss += pinballLoss(price, quoted, q) / LEVELS.length
  })
  acc.n++
}
const coverageOf = (acc: Tally): Record<string, number> =>
  Object.fromEntries(EVALUATION_LEVELS.map(([name], i) => [name, acc.n === 0 ? Number.NaN : (acc.below[i] ?? 0) / acc.n]))

/**
 * Scores `trips` (those `scored` keeps) per tariff era of each provider the tariffs price: the
 * quote of the market with its tariffs and of the fitted model alone. `provider` maps a trip to
 * the model's provider id (the only one for a single-provider model).
 */
export const evaluateRules = (
  model: MarketModel,
  tariffs: MarketTariffs,
  trips: ReadonlyArray<ObservedTrip>,
  scored: (t: ObservedTrip) => boolean,
  provider: (t: ObservedTrip) => string
): ReadonlyArray<EraEvaluation> => {
  // Compare like with like: the charges the records' price leaves out are left out of the quote.
  const ruled = calibratedMarket(model, recordedTariffs(tariffs))
  const fitted = calibratedMarket(model)
  const eras = new Map<string, { provider: string; era: string; effectiveFrom: string; ruled: Tally; fitted: Tally }>()
  for (const t of trips) {
    if (!scored(t)) continue
    const id = provider(t)
    const p = model.providers.find((x) => x.provider === id) ?? (model.providers.length === 1 ? model.providers[0] : undefined)
    const tariff = p === undefined ? undefined : tariffs.byProvider.get(`${p.provider}/${p.serviceLevel}`)
    if (p === undefined || tariff === undefined) continue
    const version = versionAt(tariff, t.localDate)
    const trip = tripOf(t, instantOf(model.timeZone, t))
    const a = offerOf(ruled, trip, p.provider), b = offerOf(fitted, trip, p.provider)
    if (a === undefined || b === undefined) continue
    const key = `${p.provider}\u0000${version.effectiveFrom}`
    let era = eras.get(key)
    if (era === undefined) {
      era = { provider: p.provider, era: version.name, effectiveFrom: version.effectiveFrom, ruled: tally(), fitted: tally() }
      eras.set(key, era)
    }
    add(era.ruled, a.distribution.quantile, t.price)
    add(era.fitted, b.distribution.quantile, t.price)
  }
  return [...eras.values()].sort((x, y) => (x.provider + x.effectiveFrom < y.provider + y.effectiveFrom ? -1 : 1)).map((e) => ({
    provider: e.provider,
    era: e.era,
    effectiveFrom: e.effectiveFrom,
    rows: e.ruled.n,
    coverage: coverageOf(e.ruled),
    pinball: e.ruled.n === 0 ? Number.NaN : e.ruled.loss / e.ruled.n,
    fittedCoverage: coverageOf(e.fitted),
    fittedPinball: e.fitted.n === 0 ? Number.NaN : e.fitted.loss / e.fitted.n
  }))
}

/** Quartiles and median of a ratio over the trips, and how many trips it covers. */
export interface RatioQuartiles {
  readonly rows: number
  readonly p25: number
  readonly median: number
  readonly p75: number
}

const quartilesOf = (xs: ReadonlyArray<number>): RatioQuartiles => {
  const sorted = Float64Array.from(xs).sort()
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? Number.NaN
  return { rows: sorted.length, p25: at(0.25), median: at(0.5), p75: at(0.75) }
}

/**
 * What today's rules make of the records' trips: the median price quoted now ÷ what was paid
 * (its quartiles: of quoted p50 now ÷ price paid then, over the trips).
 */
export interface TodayRatio extends RatioQuartiles {
  readonly today: string
  /** The median of (quoted p50 then ÷ price paid then): the same quote on the trip's own date. */
  readonly thenMedian: number
  /** Each trip's own price under the rule in force now (`ruleCost`), and how the quote holds it. */
  readonly byRule: RuleCostCheck
}

/**
 * The trips' own cost under the rule in force now, trip by trip: the meter amount each rider
 * paid, read back from the price with the rule of its day (surcharges, fees and tolls taken
 * off), moved to today's meter (`meterRebase`: exact where both rules count the same units,
 * NYC 2012 → 2022), with today's surcharges and fees at the trip's weekday, hour and places and
 * its own tolls; or, where a flat fare applies now and applied then, today's flat fare with
 * its charges and the trip's tolls. Against it, the quote of the same trip now. Its quartiles
 * are of (cost now by the rule ÷ price paid then).
 */
export interface RuleCostCheck extends RatioQuartiles {
  /** Σ cost now ÷ Σ paid then: a ratio of sums, as an authority's farebox per trip is. */
  readonly sumRatio: number
  /** The same by the year the trips were made (`YYYY`): against an authority's figures of that year. */
  readonly sumRatioByYear: Readonly<Record<string, number>>
  /** Σ quoted p50 now ÷ Σ paid then, over the same trips. */
  readonly quotedSumRatio: number
  /** Share of the trips whose cost now is at or below each quoted percentile. */
  readonly coverage: Readonly<Record<string, number>>
}

/**
 * Prices every scored trip on its own date and again on the same weekday and hour in the week of
 * `today` (a local date), with the market's tariffs: how the rules in force then and now compare
 * on real trips.
 */
export const todayRatio = (
  model: MarketModel,
  tariffs: MarketTariffs,
  trips: ReadonlyArray<ObservedTrip>,
  scored: (t: ObservedTrip) => boolean,
  today: string
): TodayRatio => {
  const market = calibratedMarket(model, tariffs)
  const clock = localClock(model.timeZone)
  const localDateOf = localDateClock(model.timeZone)
  const monday = localMidnight(model.timeZone, today)
  const todayDow = clock(monday + 12 * 3_600_000).dayOfWeek
  const costOf = ruleCost(model, tariffs)
  const now: Array<number> = [], then: Array<number> = []
  const costRatios: Array<number> = []
  const covered = tally()
  let costSum = 0, paidSum = 0, quotedSum = 0
  const byYear = new Map<string, { cost: number; paid: number }>()
  for (const t of trips) {
    if (!scored(t) || !(t.price > 0)) continue
    const shift = ((t.dayOfWeek - todayDow + 7) % 7) * 86_400_000
    const atNow = monday + shift + (t.hour * 60 + t.minute) * 60_000
    const a = market.offers(tripOf(t, atNow))[0], b = market.offers(tripOf(t, instantOf(model.timeZone, t)))[0]
    if (a === undefined || b === undefined) continue
    now.push(a.distribution.quantile(0.5) / t.price)
    then.push(b.distribution.quantile(0.5) / t.price)
    const cost = costOf(t, localDateOf(atNow))
    if (cost === undefined) continue
    costRatios.push(cost / t.price)
    add(covered, a.distribution.quantile, cost)
    costSum += cost, paidSum += t.price, quotedSum += a.distribution.quantile(0.5)
    const year = byYear.get(t.localDate.slice(0, 4)) ?? { cost: 0, paid: 0 }
    year.cost += cost, year.paid += t.price
    byYear.set(t.localDate.slice(0, 4), year)
  }
  return {
    today,
    ...quartilesOf(now),
    thenMedian: quartilesOf(then).median,
    byRule: {
      ...quartilesOf(costRatios),
      sumRatio: costSum / paidSum,
      sumRatioByYear: Object.fromEntries([...byYear].sort(([a], [b]) => (a < b ? -1 : 1)).map(([y, v]) => [y, v.cost / v.paid])),
      quotedSumRatio: quotedSum / paidSum,
      coverage: coverageOf(covered)
    }
  }
}

/**
 * A trip's price under the rule in force on `nowDate` (local), at the trip's own weekday, time,
 * places and tolls (`RuleCostCheck`); undefined where the rule cannot say (no tariff for the
 * provider, no meter, or a flat fare now for a trip that paid the meter then).
 */
const ruleCost = (model: MarketModel, tariffs: MarketTariffs) => {
  // The price paid holds what the records hold: the era's charges they leave out are not taken off it.
  const recorded = recordedTariffs(tariffs)
  const provider = model.providers.length === 1 ? model.providers[0] : undefined
  const key = provider === undefined ? "" : `${provider.provider}/${provider.serviceLevel}`
  const tariff = tariffs.byProvider.get(key), eraTariff = recorded.byProvider.get(key)
  const digits = minorDigits(model.currency)
  return (t: ObservedTrip, nowDate: string): number | undefined => {
    if (tariff === undefined || eraTariff === undefined) return undefined
    const places = { pickup: tariffs.locate(t.pickup), dropoff: tariffs.locate(t.destination) }
    const minuteOfDay = t.hour * 60 + t.minute
    const then = { localDate: t.localDate, dayOfWeek: t.dayOfWeek, minuteOfDay }
    const nowMoment = { localDate: nowDate, dayOfWeek: t.dayOfWeek, minuteOfDay }
    const era = versionAt(eraTariff, t.localDate), version = versionAt(tariff, nowDate)
    const tolls = t.tolls ?? 0
    const flatThen = flatFareFor(era, then, places, recorded.holidays)
    const flatNow = flatFareFor(version, nowMoment, places, tariffs.holidays)
    if (flatNow !== undefined) {
      return flatThen === undefined ? undefined : chargesFor(version, "flat", nowMoment, places, tariffs.holidays, digits).total(flatNow.amount, tolls)
    }
    if (flatThen !== undefined || era.meter === undefined || version.meter === undefined) return undefined
    const paidMeter = chargesFor(era, "meter", then, places, recorded.holidays, digits).fareOf(t.price - tolls)
    if (!(paidMeter >= era.meter.initial)) return undefined
    const meterNow = meterRebase(era.meter, version.meter, t.distanceKm, t.durationMinutes)(paidMeter)
    return chargesFor(version, "meter", nowMoment, places, tariffs.holidays, digits).total(meterNow, tolls)
  }
}

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : (x * 100).toFixed(1))

/** The rule check as the Markdown table `market evaluate --tariff` prints. */
export const renderRuleEvaluation = (market: string, rows: ReadonlyArray<EraEvaluation>): string =>
  [
    "| market | provider | era (tariff in force) | rows | p5 | p25 | p50 | p75 | p95 | pinball (rule) | pinball (fit alone) |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((e) =>
      `| ${market} | ${e.provider} | ${e.era} (${e.effectiveFrom}) | ${e.rows} | ${
        EVALUATION_LEVELS.map(([name]) => `${pct(e.coverage[name])} (${pct(e.fittedCoverage[name])})`).join(" | ")
      } | ${e.pinball.toFixed(3)} | ${e.fittedPinball.toFixed(3)} |`
    )
  ].join("\n")
