/**
 * Special fares read off the records of the rate codes that replace the meter (NYC: 2, the
 * JFK–Manhattan flat fare; 3, Newark: the meter plus the Newark surcharge and tolls). The
 * tariff says which trips a rate code covers (the rules below); the records say what riders
 * paid under it, per tariff regime: the quantiles of the whole price (flat) or of the price
 * above the fitted metered median of the same trip (meter-plus), on each regime's window, as
 * for the meter (the regime in force: its last six months; a closed one: all its rows;
 * docs/calibration.md, "Flat fares").
 */
import { interpolateQuantile, monotone, priceQuantile, quantilesAt, wallClock } from "@ridequote/markets/model"
import type { MarketModel, SpecialFare, SpecialFares } from "@ridequote/markets/model"
import { addMonths } from "./Dates.js"
import type { SpecialFareTrip, ZoneCentroids } from "./sources/NycTlc.js"
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { isHeldOut } from "./sources/TripRecords.js"

/**
 * A fare the tariff sets apart from the meter (e.g. NYC rate code 2, JFK–Manhattan): which
 * records it is fitted from and between which zones it applies.
 */
export interface SpecialFareRule {
  readonly id: string
  readonly description: string
  readonly kind: SpecialFare["kind"]
  readonly rateCode: number
  /** One end: these zones; the other: zones of these boroughs. */
  readonly zones: ReadonlyArray<number>
  readonly boroughs: ReadonlyArray<string>
}

/** The TLC's airport tariffs (rate codes 2 and 3) as the yellow-taxi records carry them. */
export const NYC_SPECIAL_FARES: ReadonlyArray<SpecialFareRule> = [
  {
    id: "jfk-manhattan",
    description: "JFK–Manhattan flat fare (TLC rate code 2), with its surcharges and tolls as the records show them",
    kind: "flat",
    rateCode: 2,
    zones: [132],
    boroughs: ["Manhattan"]
  },
  {
    id: "newark",
    description: "Newark Airport: the meter plus the Newark surcharge and tolls (TLC rate code 3)",
    kind: "meter-plus",
    rateCode: 3,
    zones: [1],
    boroughs: ["Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island"]
  }
]

/** A point's zone: the nearest centroid within this distance (a TLC zone is a few km across at most). */
export const ZONE_MAX_KM = 3
/** The smallest reach of a zone around its centroid. */
export const MIN_ZONE_RADIUS_KM = 1
/** Fewest window trips a regime of a special fare needs (fewer: the regime before it prices it). */
export const MIN_SPECIAL_ROWS = 30
const WINDOW_MONTHS = 6

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

/**
 * Fits each rule's fare per tariff period from the training trips that carry its rate code
 * (held-out rows and rows on or after `before` are left out); undefined when no rule has records.
 */
export const fitSpecialFares = (
  model: MarketModel,
  trips: ReadonlyArray<SpecialFareTrip>,
  zones: ZoneCentroids,
  boroughs: ReadonlyMap<number, string>,
  options: { readonly holdoutFraction: number; readonly before?: string | undefined; readonly rules?: ReadonlyArray<SpecialFareRule> }
): SpecialFares | undefined => {
  const rules = options.rules ?? NYC_SPECIAL_FARES
  const training = trips.filter((t) =>
    !isHeldOut(t.key, options.holdoutFraction) && (options.before === undefined || t.localDate < options.before))
  const providers = model.providers.map((p) => p.provider)
  const fares: Array<SpecialFare> = []
  for (const rule of rules) {
    const inA = (z: number) => rule.zones.includes(z)
    const inB = (z: number) => rule.boroughs.includes(boroughs.get(z) ?? "") && !rule.zones.includes(z)
    const rows = training.filter((t) =>
      t.rateCode === rule.rateCode && ((inA(t.pickupZone) && inB(t.dropoffZone)) || (inB(t.pickupZone) && inA(t.dropoffZone))))
    const regimes: Array<SpecialFare["regimes"][number]> = []
    model.regimes.forEach((regime, i) => {
      const next = model.regimes[i + 1]?.effectiveFrom
      const mine = rows.filter((t) =>
        (i === 0 || t.localDate >= regime.effectiveFrom) && (next === undefined || t.localDate < next))
      if (mine.length === 0) return
      const last = mine.reduce((d, t) => (t.localDate > d ? t.localDate : d), "")
      const from = addMonths(last, -WINDOW_MONTHS)
      const window = mine.filter((t) => t.localDate > from)
      if (window.length < MIN_SPECIAL_ROWS) return
      const values = window.map((t) => {
        if (rule.kind === "flat") return t.price
        // Above the meter: the price less the fitted metered median of the same trip.
        const median = priceQuantile(model, regime, 0, "supplied", t.distanceKm, t.durationMinutes,
          wallClock(t.hour, t.minute, t.dayOfWeek), Number(t.localDate.slice(5, 7)))(0.5)
        return t.price - median
      })
      const first = window.reduce((d, t) => (t.localDate < d ? t.localDate : d), last)
      regimes.push({
        effectiveFrom: regime.effectiveFrom,
        trainingRows: window.length,
        window: { from: first, to: last },
        quantiles: monotone(quantilesAt(values, model.quantileLevels)).map((v) => round(v, 4)),
        tolls: monotone(quantilesAt(window.map((t) => t.tolls ?? 0), model.quantileLevels)).map((v) => round(v, 4))
      })
    })
    if (regimes.length === 0) continue
    fares.push({
      id: rule.id,
      description: rule.description,
      kind: rule.kind,
      rateCode: rule.rateCode,
      between: [
        [...rule.zones],
        [...boroughs.entries()].filter(([z, b]) => rule.boroughs.includes(b) && !rule.zones.includes(z) && zones.has(z))
          .map(([z]) => z).sort((a, b) => a - b)
      ],
      providers,
      regimes
    })
  }
  if (fares.length === 0) return undefined
  // A zone reaches as far as the nearest other centroid (at least 1 km, at most ZONE_MAX_KM).
  const entries = [...zones.entries()].sort((a, b) => a[0] - b[0])
  const radiusOf = (z: number, c: Coordinates): number => {
    let nearest = Number.POSITIVE_INFINITY
    for (const [other, d] of entries) if (other !== z) nearest = Math.min(nearest, greatCircleKm(c, d))
    return Math.min(ZONE_MAX_KM, Math.max(MIN_ZONE_RADIUS_KM, nearest))
  }
  return {
    zones: entries.map(([z, c]) => [z, round(c.longitude, 6), round(c.latitude, 6), round(radiusOf(z, c), 3)] as const),
    maxKm: ZONE_MAX_KM,
    fares
  }
}

/** How a special fare's percentiles cover the held-out trips that paid it: rows and the share at or below each percentile. */
export interface SpecialFareEvaluation {
  readonly fare: string
  readonly rows: number
  /** Per percentile: share of prices strictly below and at or below the quoted (cent-rounded) percentile. */
  readonly below: Readonly<Record<string, number>>
  readonly atOrBelow: Readonly<Record<string, number>>
}

const LEVEL_NAMES = [["p5", 0.05], ["p25", 0.25], ["p50", 0.5], ["p75", 0.75], ["p95", 0.95]] as const

/**
 * The random split of the special fares: the held-out rows of their rate codes (the fit never
 * saw them), each priced on the fare and regime of its date. A flat fare is a discrete price:
 * most trips pay exactly its median, so the check is that each nominal level lies between
 * the share of prices strictly below the quoted percentile and the share at or below it.
 */
export const evaluateSpecialFares = (
  model: MarketModel,
  trips: ReadonlyArray<SpecialFareTrip>
): ReadonlyArray<SpecialFareEvaluation> => {
  const special = model.specialFares
  if (special === undefined) return []
  const fraction = model.provenance.holdout.fraction
  const heldOut = trips.filter((t) => isHeldOut(t.key, fraction))
  return special.fares.map((fare) => {
    const [a, b] = fare.between
    const mine = heldOut.filter((t) =>
      t.rateCode === fare.rateCode &&
      ((a.includes(t.pickupZone) && b.includes(t.dropoffZone)) || (b.includes(t.pickupZone) && a.includes(t.dropoffZone))))
    const below = LEVEL_NAMES.map(() => 0), atOrBelow = LEVEL_NAMES.map(() => 0)
    for (const t of mine) {
      let r = fare.regimes.length - 1
      while (r > 0 && (fare.regimes[r]?.effectiveFrom ?? "") > t.localDate) r--
      const row = fare.regimes[r]?.quantiles ?? []
      let m = model.regimes.length - 1
      while (m > 0 && (model.regimes[m]?.effectiveFrom ?? "") > t.localDate) m--
      const regime = model.regimes[m]
      const offset = fare.kind === "flat" || regime === undefined ? 0 : priceQuantile(model, regime, 0, "supplied", t.distanceKm,
        t.durationMinutes, wallClock(t.hour, t.minute, t.dayOfWeek), Number(t.localDate.slice(5, 7)))(0.5)
      LEVEL_NAMES.forEach(([, q], i) => {
        const quoted = Math.round(Math.max(0, offset + interpolateQuantile(model.quantileLevels, row, q)) * 100) / 100
        if (t.price < quoted) below[i] = (below[i] ?? 0) + 1
        if (t.price <= quoted) atOrBelow[i] = (atOrBelow[i] ?? 0) + 1
      })
    }
    const share = (xs: Array<number>) => Object.fromEntries(LEVEL_NAMES.map(([name], i) => [name, mine.length === 0 ? Number.NaN : (xs[i] ?? 0) / mine.length]))
    return { fare: fare.id, rows: mine.length, below: share(below), atOrBelow: share(atOrBelow) }
  })
}

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)}`)

/** The special fares' evaluation as the Markdown table `market evaluate` prints. */
export const renderSpecialFareEvaluation = (market: string, rows: ReadonlyArray<SpecialFareEvaluation>): string =>
  [
    "| market | special fare (held-out rows) | rows | p5 | p25 | p50 | p75 | p95 |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map((e) =>
      `| ${market} | ${e.fare} | ${e.rows} | ${
        LEVEL_NAMES.map(([name]) => `${pct(e.below[name])}–${pct(e.atOrBelow[name])} %`).join(" | ")
      } |`)
  ].join("\n")
