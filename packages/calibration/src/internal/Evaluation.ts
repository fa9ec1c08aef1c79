/**
 * How well a fitted model prices trips it never saw.
 *
 * Forward in time (the figures that count): fit on the trips before a cut date, score the
 * trips after it, as a model refitted on that date would have priced them (`forwardSplit`).
 * Beside it, the random split the fit keeps aside (`evaluate`): a fifth of the rows chosen by
 * hash, pooled over the whole period, which cannot see drift.
 *
 * Scores, per route source (supplied, or inferred by the offline resolver): for each of p5,
 * p25, p50, p75, p95 the share of real prices at or below the quoted percentile, and the mean
 * pinball loss against a naive baseline fitted on the same training trips (one price per km
 * whose quantiles are those of price ÷ km).
 *
 * With the market's tariffs (`market evaluate --tariff`), the quotes scored are those served:
 * the fitted trip with the money of the rule in force on each trip's date (MarketTariffs).
 */
import { PERCENTILE_LEVELS } from "@ridequote/core"
import {
  calibratedMarket,
  contains,
  localMidnight,
  pinballLoss,
  priceQuantile,
  quantilesAt,
  regimeFinder,
  wallClock
} from "@ridequote/markets/model"
import type { CalibratedMarket, MarketModel, MarketTariffs, RouteKind } from "@ridequote/markets/model"
import { DateTime } from "effect"
import { MIN_RESOLVABLE_KM, marketRows, providerSlug } from "./Fit.js"
import { addMonths } from "./Dates.js"
import { inferRoute } from "./RouteInference.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import { isHeldOut } from "./sources/TripRecords.js"
import type { TripTable } from "./sources/TripRecords.js"

/** The percentiles an evaluation scores, by name, at the levels the API quotes them. */
export const EVALUATION_LEVELS = [
  ["p5", PERCENTILE_LEVELS.p5],
  ["p25", PERCENTILE_LEVELS.p25],
  ["p50", PERCENTILE_LEVELS.p50],
  ["p75", PERCENTILE_LEVELS.p75],
  ["p95", PERCENTILE_LEVELS.p95]
] as const

/** The scores of one route source (supplied or inferred): coverage per percentile and pinball loss against the baseline. */
export interface RouteEvaluation {
  readonly route: RouteKind
  readonly rows: number
  /** Share of scored prices ≤ the quoted percentile, by percentile name. */
  readonly coverage: Readonly<Record<string, number>>
  /** Mean pinball loss over the five levels, in currency units. */
  readonly pinball: number
  readonly baselinePinball: number
  /** 1 − pinball ÷ baseline. */
  readonly improvement: number
}

/** How a model priced trips it was not fitted on, for one split (random held-out or forward). */
export interface Evaluation {
  readonly market: string
  /** "random" (the fit's held-out rows) or "forward" (trips after a cut date). */
  readonly split: "random" | "forward"
  /** Training window and scored window, local dates (to is exclusive for forward splits). */
  readonly trainedOn: { readonly from: string; readonly to: string }
  readonly scoredOn: { readonly from: string; readonly to: string }
  readonly scoredRows: number
  /** Scored rows the market would not serve (pickup outside its area). */
  readonly outsideArea: number
  readonly routes: ReadonlyArray<RouteEvaluation>
}

const featuresOf = (model: MarketModel, t: ObservedTrip, route: RouteKind): { km: number; minutes: number } | undefined => {
  if (route === "supplied") return { km: t.distanceKm, minutes: t.durationMinutes }
  const r = inferRoute(model.routeProfile, t.pickup, t.destination, t.hour, model.routing.areaSpeed)
  return r.greatCircleKm < MIN_RESOLVABLE_KM ? undefined : { km: r.distanceKm, minutes: r.durationMinutes }
}

const span = (trips: ReadonlyArray<ObservedTrip>): { from: string; to: string } => {
  let from = trips[0]?.localDate ?? "", to = from
  for (const t of trips) {
    if (t.localDate < from) from = t.localDate
    if (t.localDate > to) to = t.localDate
  }
  return { from, to }
}

/** The quote a trip of the records gets from a market (its tariffs applied), at its own moment. */
const quotedQuantile = (
  market: CalibratedMarket,
  model: MarketModel,
  t: ObservedTrip,
  providerIndex: number,
  route: RouteKind,
  f: { km: number; minutes: number }
): ((q: number) => number) => {
  const departAt = DateTime.unsafeMake(localMidnight(model.timeZone, t.localDate) + (t.hour * 60 + t.minute) * 60_000)
  const offers = market.offers({
    pickup: t.pickup,
    destination: t.destination,
    distanceKm: f.km,
    durationMinutes: f.minutes,
    mode: "Realtime",
    routeSource: route,
    localTime: wallClock(t.hour, t.minute, t.dayOfWeek),
    departAt
  })
  const offer = offers[providerIndex]
  return offer === undefined ? () => Number.NaN : offer.distribution.quantile
}

/** Scores `scored` trips on `model`, each on the regime of its own date; baseline from `training`. */
export const score = (
  model: MarketModel,
  training: ReadonlyArray<ObservedTrip>,
  scored: ReadonlyArray<ObservedTrip>,
  /** The market's tariffs: score the quote as served (rules for the money), not the fit alone. */
  tariffs?: MarketTariffs
): { readonly routes: ReadonlyArray<RouteEvaluation>; readonly outsideArea: number } => {
  const served_ = tariffs === undefined ? undefined : calibratedMarket(model, tariffs)
  const served = scored.filter((t) => contains(model.area, t.pickup))
  const ids = model.providers.map((p) => p.provider)
  const otherIndex = ids.indexOf("other")
  // A model of one provider (every row pooled into it: `yellow-taxi`) prices every trip.
  const fallbackIndex = ids.length === 1 ? 0 : otherIndex
  // Each raw provider name's slug once: the records name a handful, and slugging the name of
  // every trip again (four regular expressions) was a tenth of the scoring.
  const indexOfRaw = new Map<string, number>()
  const providerIndex = (raw: string): number => {
    let index = indexOfRaw.get(raw)
    if (index === undefined) {
      const i = ids.indexOf(providerSlug(raw))
      indexOfRaw.set(raw, index = i >= 0 ? i : fallbackIndex)
    }
    return index
  }
  const regimeAt = regimeFinder(model)
  // Trip dates are local: a regime starts at local midnight, so noon of the date is inside it.
  const noonOf = new Map<string, number>()
  const regimeOf = (t: ObservedTrip) => {
    let at = noonOf.get(t.localDate)
    if (at === undefined) {
      at = localMidnight(model.timeZone, t.localDate) + 12 * 3_600_000
      noonOf.set(t.localDate, at)
    }
    return regimeAt(at)
  }
  const levels = EVALUATION_LEVELS.map(([, q]) => q)

  const routes = (["supplied", "resolved"] as const).map((route): RouteEvaluation => {
    const perKm: Array<number> = []
    for (const t of training) {
      const f = featuresOf(model, t, route)
      if (f !== undefined && f.km > 0) perKm.push(t.price / f.km)
    }
    const baseline = quantilesAt(perKm, levels)
    const below = levels.map(() => 0)
    let loss = 0, baselineLoss = 0, n = 0
    for (const t of served) {
      const p = providerIndex(t.provider)
      const f = featuresOf(model, t, route)
      if (p < 0 || f === undefined) continue
      const quantileAt = served_ === undefined
        ? priceQuantile(model, regimeOf(t), p, route, f.km, f.minutes, wallClock(t.hour, t.minute, t.dayOfWeek), Number(t.localDate.slice(5, 7)))
        : quotedQuantile(served_, model, t, p, route, f)
      n++
      levels.forEach((q, i) => {
        // The service publishes cents: compare the price with the rounded percentile.
        const predicted = Math.round(quantileAt(q) * 100) / 100
        if (t.price <= predicted) below[i] = (below[i] ?? 0) + 1
        loss += pinballLoss(t.price, predicted, q)
        baselineLoss += pinballLoss(t.price, f.km * (baseline[i] ?? 0), q)
      })
    }
    const coverage = Object.fromEntries(EVALUATION_LEVELS.map(([name], i) => [name, n > 0 ? (below[i] ?? 0) / n : Number.NaN]))
    const pinball = n > 0 ? loss / (n * levels.length) : Number.NaN
    const baselinePinball = n > 0 ? baselineLoss / (n * levels.length) : Number.NaN
    return { route, rows: n, coverage, pinball, baselinePinball, improvement: 1 - pinball / baselinePinball }
  })
  return { routes, outsideArea: scored.length - served.length }
}

/** The random split: the rows the fit kept aside (same hash rule), scored on the model. */
export const evaluate = (model: MarketModel, table: TripTable, tariffs?: MarketTariffs): Evaluation => {
  const { fraction } = model.provenance.holdout
  const rows = marketRows(table.trips).kept
  const training = rows.filter((t) => !isHeldOut(t.key, fraction))
  const heldOut = rows.filter((t) => isHeldOut(t.key, fraction))
  const { routes, outsideArea } = score(model, training, heldOut, tariffs)
  return {
    market: model.id,
    split: "random",
    trainedOn: span(training),
    scoredOn: span(heldOut),
    scoredRows: heldOut.length,
    outsideArea,
    routes
  }
}

/**
 * One forward split, scored on the trips from `cut` to `end` (exclusive) priced by `model`,
 * a model fitted on the trips before `cut` alone.
 */
export { addMonths }

/**
 * Scores `model` (fitted on the trips before `cut`) on the trips from `cut` to `end`
 * (exclusive, local dates); `table` is the whole record, training window included.
 */
export const forwardSplit = (
  model: MarketModel,
  table: TripTable,
  cut: string,
  end: string,
  tariffs?: MarketTariffs
): Evaluation => {
  const rows = marketRows(table.trips).kept
  const training = rows.filter((t) => t.localDate < cut)
  const scored = rows.filter((t) => t.localDate >= cut && t.localDate < end)
  const { routes, outsideArea } = score(model, training, scored, tariffs)
  return {
    market: model.id,
    split: "forward",
    trainedOn: span(training),
    scoredOn: { from: cut, to: end },
    scoredRows: scored.length,
    outsideArea,
    routes
  }
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : "n/a")

/** How reports name a route source: "supplied" (the caller's distance) or "inferred" (from the coordinates). */
export const routeName = (route: RouteKind): "supplied" | "inferred" => (route === "resolved" ? "inferred" : "supplied")

/** Evaluations as a Markdown table (what the docs and the report quote). */
export const renderEvaluation = (evaluations: ReadonlyArray<Evaluation>): string => {
  const head =
    "| market | split | trained on | scored on | route | rows | p5 | p25 | p50 | p75 | p95 | pinball | baseline | improvement |"
  const rule = "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  const lines = evaluations.flatMap((e) =>
    e.routes.map((r) =>
      `| ${e.market} | ${e.split} | ${e.trainedOn.from} – ${e.trainedOn.to} | ${e.scoredOn.from} – ${e.scoredOn.to}${
        e.split === "forward" ? " (excl.)" : ""
      } | ${routeName(r.route)} | ${r.rows} | ${
        EVALUATION_LEVELS.map(([name]) => pct(r.coverage[name] ?? Number.NaN)).join(" | ")
      } | ${r.pinball.toFixed(3)} | ${r.baselinePinball.toFixed(3)} | ${pct(r.improvement)} |`
    )
  )
  return [head, rule, ...lines].join("\n")
}

/** The targets: coverage within 3 points (supplied) / 5 points (inferred) of nominal, pinball ≥ 25 % better. */
export const targetMisses = (e: Evaluation): ReadonlyArray<string> =>
  e.routes.flatMap((r) => {
    const tolerance = r.route === "supplied" ? 0.03 : 0.05
    const label = `${e.market} ${e.split} ${e.scoredOn.from}`
    const misses: Array<string> = []
    for (const [name, q] of EVALUATION_LEVELS) {
      const c = r.coverage[name] ?? Number.NaN
      if (!(Math.abs(c - q) <= tolerance)) {
        misses.push(`${label} ${r.route} ${name}: coverage ${pct(c)} vs nominal ${pct(q)} (±${tolerance * 100} points)`)
      }
    }
    if (!(r.improvement >= 0.25)) misses.push(`${label} ${r.route}: pinball improvement ${pct(r.improvement)} < 25 %`)
    return misses
  })
