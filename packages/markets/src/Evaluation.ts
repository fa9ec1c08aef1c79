/**
 * Held-out evaluation of a fitted model: on the rows the fit never saw (same deterministic
 * split), for each of p5, p25, p50, p75, p95, the share of real fares at or below the quoted
 * percentile, per route source; and the mean pinball loss against a naive baseline (one global
 * price per km whose quantiles are fitted on the training part: quantile = km × Q(price ÷ km)).
 */
import { PERCENTILE_LEVELS } from "@ridequote/core"
import { contains } from "./Area.js"
import { priceQuantile } from "./CalibratedMarket.js"
import { MIN_RESOLVABLE_KM, marketRows, providerSlug } from "./Fit.js"
import { wallClock } from "./LocalClock.js"
import type { MarketModel } from "./ModelFile.js"
import { pinballLoss, quantilesAt } from "./Quantiles.js"
import { inferRoute } from "./RouteInference.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import { isHeldOut } from "./sources/TripRecords.js"
import type { TripTable } from "./sources/TripRecords.js"

export const EVALUATION_LEVELS = [
  ["p5", PERCENTILE_LEVELS.p5],
  ["p25", PERCENTILE_LEVELS.p25],
  ["p50", PERCENTILE_LEVELS.p50],
  ["p75", PERCENTILE_LEVELS.p75],
  ["p95", PERCENTILE_LEVELS.p95]
] as const

export type RouteKind = "supplied" | "resolved"

export interface RouteEvaluation {
  readonly route: RouteKind
  readonly rows: number
  /** Share of held-out fares ≤ the quoted percentile, by percentile name. */
  readonly coverage: Readonly<Record<string, number>>
  /** Mean pinball loss over the five levels, in currency units. */
  readonly pinball: number
  readonly baselinePinball: number
  /** 1 − pinball ÷ baseline. */
  readonly improvement: number
}

export interface Evaluation {
  readonly market: string
  readonly heldOutRows: number
  /** Held-out rows the market would not serve (pickup outside its area). */
  readonly outsideArea: number
  readonly routes: ReadonlyArray<RouteEvaluation>
}

interface Features {
  readonly km: number
  readonly minutes: number
}

const featuresOf = (model: MarketModel, t: ObservedTrip, route: RouteKind): Features | undefined => {
  if (route === "supplied") return { km: t.distanceKm, minutes: t.durationMinutes }
  const r = inferRoute(model.routeProfile, t.pickup, t.destination, t.hour)
  return r.greatCircleKm < MIN_RESOLVABLE_KM ? undefined : { km: r.distanceKm, minutes: r.durationMinutes }
}

export const evaluate = (model: MarketModel, table: TripTable): Evaluation => {
  const { fraction } = model.provenance.holdout
  const rows = marketRows(table.trips).kept
  const training = rows.filter((t) => !isHeldOut(t.key, fraction))
  const heldOutAll = rows.filter((t) => isHeldOut(t.key, fraction))
  const heldOut = heldOutAll.filter((t) => contains(model.area, t.pickup))
  const ids = model.providers.map((p) => p.provider)
  const otherIndex = ids.indexOf("other")
  const providerIndex = (raw: string): number => {
    const i = ids.indexOf(providerSlug(raw))
    return i >= 0 ? i : otherIndex
  }
  const levels = EVALUATION_LEVELS.map(([, q]) => q)

  const routes = (["supplied", "resolved"] as const).map((route): RouteEvaluation => {
    // Baseline: quantiles of price per km over the training part, with this route's km.
    const perKm: Array<number> = []
    for (const t of training) {
      const f = featuresOf(model, t, route)
      if (f !== undefined && f.km > 0) perKm.push(t.price / f.km)
    }
    const baseline = quantilesAt(perKm, levels)
    const below = levels.map(() => 0)
    let loss = 0, baselineLoss = 0, n = 0
    for (const t of heldOut) {
      const p = providerIndex(t.provider)
      const f = featuresOf(model, t, route)
      if (p < 0 || f === undefined) continue
      const quantileAt = priceQuantile(model, p, route, f.km, f.minutes, wallClock(t.hour, t.minute, t.dayOfWeek))
      n++
      levels.forEach((q, i) => {
        // The service publishes cents: compare the fare with the rounded percentile.
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
  return { market: model.id, heldOutRows: heldOutAll.length, outsideArea: heldOutAll.length - heldOut.length, routes }
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : "n/a")

/** The evaluation as a Markdown table (what the docs and the report quote). */
export const renderEvaluation = (evaluations: ReadonlyArray<Evaluation>): string => {
  const head = "| market | route | held-out rows | p5 | p25 | p50 | p75 | p95 | pinball | baseline | improvement |"
  const rule = "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  const lines = evaluations.flatMap((e) =>
    e.routes.map((r) =>
      `| ${e.market} | ${r.route === "supplied" ? "supplied" : "inferred"} | ${r.rows} | ${
        EVALUATION_LEVELS.map(([name]) => pct(r.coverage[name] ?? Number.NaN)).join(" | ")
      } | ${r.pinball.toFixed(3)} | ${r.baselinePinball.toFixed(3)} | ${pct(r.improvement)} |`
    )
  )
  return [head, rule, ...lines].join("\n")
}

/** Targets of issue 4: coverage within 3 points (supplied) / 5 points (inferred), pinball ≥ 25 % better. */
export const targetMisses = (e: Evaluation): ReadonlyArray<string> =>
  e.routes.flatMap((r) => {
    const tolerance = r.route === "supplied" ? 0.03 : 0.05
    const misses: Array<string> = []
    for (const [name, q] of EVALUATION_LEVELS) {
      const c = r.coverage[name] ?? Number.NaN
      if (!(Math.abs(c - q) <= tolerance)) {
        misses.push(`${e.market} ${r.route} ${name}: coverage ${pct(c)} vs nominal ${pct(q)} (±${tolerance * 100} points)`)
      }
    }
    if (!(r.improvement >= 0.25)) misses.push(`${e.market} ${r.route}: pinball improvement ${pct(r.improvement)} < 25 %`)
    return misses
  })
