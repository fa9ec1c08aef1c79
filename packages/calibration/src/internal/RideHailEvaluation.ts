/**
 * How well a ride-hail market prices quotes it never saw, per product (provider × service
 * level). The records carry no usable time, so the split is random: k-fold cross-validation
 * by each record's split key, the hash of its request (`ObservedQuote.key`: the quotes of one
 * price-estimate call share it) (fold = hash mod 10,000 in k equal ranges; fold 0 of 5 is the
 * fit's own 20 % hold-out). Each fold is fitted on the other folds with the same options and
 * scored on its own rows, so every row is scored once by a model that saw neither it nor its request.
 *
 * Per product and route source (supplied: the provider's own route distance; inferred: the
 * distance the offline resolver infers from the coordinates): coverage of each percentile
 * (share of real prices at or below the cent-rounded quoted percentile), mean pinball loss,
 * and the same loss of two baselines fitted per product on the same training rows:
 * - the line: price = a + b·km by least squares, its five quantiles a + b·km plus the
 *   quantiles of its own training residuals (what a straight line in distance knows);
 * - per km: the quantiles of price ÷ km (a price proportional to distance).
 */
import { Either } from "effect"
import { pinballLoss, placePairPricing, priceQuantile, quantilesAt } from "@ridequote/markets/model"
import type { MarketModel, RouteKind } from "@ridequote/markets/model"
import { EVALUATION_LEVELS, routeName } from "./Evaluation.js"
import type { RouteEvaluation } from "./Evaluation.js"
import { MIN_RESOLVABLE_KM } from "./Fit.js"
import type { FitFailed } from "./Fit.js"
import { fitRideHailMarket } from "./RideHailFit.js"
import type { RideHailFitOptions } from "./RideHailFit.js"
import { inferRoute } from "./RouteInference.js"
import type { ObservedQuote, QuoteTable } from "./sources/RideHailQuotes.js"

/**
 * One product's cross-validated score: coverage of each percentile (share of held-out prices
 * at or below it), its pinball loss, the per-km baseline's and the line's, and the
 * improvement over each (`improvement`: over per km; `lineImprovement`: over the line).
 */
export interface ProductEvaluation extends RouteEvaluation {
  readonly provider: string
  readonly serviceLevel: string
  readonly product: string
  /** Mean pinball loss of the per-product line in distance with its own residual quantiles. */
  readonly linePinball: number
  /** 1 − pinball ÷ linePinball. */
  readonly lineImprovement: number
}

/** A ride-hail market's k-fold evaluation: every product, each row scored by a model that never saw it. */
export interface RideHailEvaluation {
  readonly market: string
  readonly folds: number
  readonly products: ReadonlyArray<ProductEvaluation>
}

/**
 * Coverage tolerance per route source (points), the pinball improvement over per km required
 * of every product, and over the line (issue 21): on average over the products with the route
 * inferred from the trip's ends, as a caller without the provider's distance (and duration)
 * asks, against a line in the distance the quote reports; and of every product on either
 * route (none worse than the line). With the provider's own distance supplied the line knows
 * the route already: that average is reported beside it, not held to 15 % (docs/calibration.md,
 * "Place pairs": what is left there is the moment of the call).
 */
export const RIDE_HAIL_TARGETS = { supplied: 0.05, resolved: 0.05, improvement: 0.3, overLine: 0.15, overLineEach: 0 } as const

/** The fold (0 … folds−1) a record falls in, from its split key: one record, or one request's quotes, always land in the same fold. */
export const foldOf = (key: number, folds: number): number => Math.floor(((key % 10_000) * folds) / 10_000)

const NOON = { hour: 12, dayType: "weekday" } as const

const kmOf = (model: MarketModel, q: ObservedQuote, route: RouteKind): number | undefined => {
  if (route === "supplied") return q.distanceKm
  const r = inferRoute(model.routeProfile, q.pickup, q.destination, NOON.hour)
  return r.greatCircleKm < MIN_RESOLVABLE_KM ? undefined : r.distanceKm
}

interface Tally {
  below: Array<number>
  loss: number
  baseline: number
  line: number
  n: number
}

/**
 * The line baseline at each level for a km: a + b·km (least squares) plus the level's quantile
 * of the training residuals. Too few rows or one distance: the residual quantiles of the mean.
 */
const lineBaseline = (rows: ReadonlyArray<{ km: number; price: number }>, levels: ReadonlyArray<number>) => {
  const n = rows.length
  let mx = 0, my = 0
  for (const r of rows) (mx += r.km / n, my += r.price / n)
  let sxy = 0, sxx = 0
  for (const r of rows) (sxy += (r.km - mx) * (r.price - my), sxx += (r.km - mx) ** 2)
  const b = sxx > 0 ? sxy / sxx : 0
  const a = my - b * mx
  const residual = quantilesAt(rows.map((r) => r.price - a - b * r.km), levels)
  return (km: number, j: number): number => a + b * km + (residual[j] ?? 0)
}

const LEVELS = EVALUATION_LEVELS.map(([, q]) => q)

/** Adds the scores of `scored` on `model` (baseline per product from `training`) to the tallies. */
const tallyModel = (
  model: MarketModel,
  training: ReadonlyArray<ObservedQuote>,
  scored: ReadonlyArray<ObservedQuote>,
  tallies: Map<string, Tally>,
  names: Map<string, string>
): void => {
  const levels = LEVELS
  const regime = model.regimes[0]
  if (regime === undefined) return
  // Quotes between two known places are priced as the market prices them: on the pair table.
  const pairsOf = placePairPricing(model)
  model.providers.forEach((p, i) => {
    names.set(`${p.provider}/${p.serviceLevel}`, p.product ?? "")
    const mine = (q: ObservedQuote) => q.provider === p.provider && q.serviceLevel === p.serviceLevel
    for (const route of ["supplied", "resolved"] as const) {
      const perKm: Array<number> = []
      const lineRows: Array<{ km: number; price: number }> = []
      for (const q of training) {
        if (!mine(q)) continue
        const km = kmOf(model, q, route)
        if (km === undefined) continue
        perKm.push(q.price / km)
        lineRows.push({ km, price: q.price })
      }
      const baseline = quantilesAt(perKm, levels)
      const line = lineBaseline(lineRows, levels)
      const key = `${p.provider}/${p.serviceLevel}/${route}`
      const tally = tallies.get(key) ?? { below: levels.map(() => 0), loss: 0, baseline: 0, line: 0, n: 0 }
      tallies.set(key, tally)
      for (const q of scored) {
        if (!mine(q)) continue
        const km = kmOf(model, q, route)
        if (km === undefined) continue
        const at = priceQuantile(model, regime, i, route, km, 0, NOON, undefined, pairsOf?.(q.pickup, q.destination, route, km)?.(i))
        tally.n++
        levels.forEach((level, j) => {
          const predicted = Math.round(at(level) * 100) / 100
          if (q.price <= predicted) tally.below[j] = (tally.below[j] ?? 0) + 1
          tally.loss += pinballLoss(q.price, predicted, level)
          tally.baseline += pinballLoss(q.price, km * (baseline[j] ?? 0), level)
          tally.line += pinballLoss(q.price, line(km, j), level)
        })
      }
    }
  })
}

const summarise = (tallies: Map<string, Tally>, names: Map<string, string>): Array<ProductEvaluation> => {
  const levels = LEVELS
  return [...tallies.entries()].map(([key, t]): ProductEvaluation => {
    const [provider = "", serviceLevel = "", route = "supplied"] = key.split("/")
    const pinball = t.loss / (t.n * levels.length)
    const baselinePinball = t.baseline / (t.n * levels.length)
    const linePinball = t.line / (t.n * levels.length)
    return {
      provider,
      serviceLevel,
      product: names.get(`${provider}/${serviceLevel}`) ?? "",
      route: route as RouteKind,
      rows: t.n,
      coverage: Object.fromEntries(EVALUATION_LEVELS.map(([name], j) => [name, (t.below[j] ?? 0) / t.n])),
      pinball,
      baselinePinball,
      improvement: 1 - pinball / baselinePinball,
      linePinball,
      lineImprovement: 1 - pinball / linePinball
    }
  })
}

/** Cross-validates the ride-hail fit: k folds, each scored on a model fitted on the others. */
export const crossValidate = (
  table: QuoteTable,
  options: RideHailFitOptions,
  folds: number
): Either.Either<RideHailEvaluation, FitFailed> => {
  const tallies = new Map<string, Tally>()
  const names = new Map<string, string>()
  for (let fold = 0; fold < folds; fold++) {
    const fitted = fitRideHailMarket(table, { ...options, train: (q) => foldOf(q.key, folds) !== fold })
    if (Either.isLeft(fitted)) return Either.left(fitted.left)
    const training = table.quotes.filter((q) => foldOf(q.key, folds) !== fold)
    const scored = table.quotes.filter((q) => foldOf(q.key, folds) === fold)
    tallyModel(fitted.right, training, scored, tallies, names)
  }
  return Either.right({ market: options.id, folds, products: summarise(tallies, names) })
}

/**
 * Scores a model file as it is on every row (no refit): for records the model never saw (a
 * later month, another sample of the same market). The per-km baseline is fitted on those same
 * rows, which favours the baseline. `folds` is 0 in the result.
 */
export const scoreAsShipped = (model: MarketModel, table: QuoteTable): RideHailEvaluation => {
  const tallies = new Map<string, Tally>()
  const names = new Map<string, string>()
  tallyModel(model, table.quotes, table.quotes, tallies, names)
  return { market: model.id, folds: 0, products: summarise(tallies, names) }
}

/** The targets a product misses (empty when every one is met). */
export const rideHailMisses = (e: ProductEvaluation): ReadonlyArray<string> => {
  const tolerance = RIDE_HAIL_TARGETS[e.route]
  const misses: Array<string> = []
  for (const [name, q] of EVALUATION_LEVELS) {
    const c = e.coverage[name] ?? Number.NaN
    if (!(Math.abs(c - q) <= tolerance + 1e-9)) misses.push(`${name} coverage ${(c * 100).toFixed(1)} %`)
  }
  if (!(e.improvement >= RIDE_HAIL_TARGETS.improvement)) misses.push(`pinball only ${(e.improvement * 100).toFixed(1)} % below the baseline`)
  return misses
}

/** Per route source: the products' average improvement over the line, and the least. */
export const overLine = (e: RideHailEvaluation): ReadonlyArray<{ route: RouteKind; average: number; least: number; products: number }> =>
  (["supplied", "resolved"] as const).flatMap((route) => {
    const xs = e.products.filter((p) => p.route === route).map((p) => p.lineImprovement)
    return xs.length === 0 ? [] : [{ route, average: xs.reduce((a, b) => a + b, 0) / xs.length, least: Math.min(...xs), products: xs.length }]
  })

/** The line targets a market misses: the inferred route's average over its products, and any product worse than the line on either route. */
export const rideHailLineMisses = (e: RideHailEvaluation): ReadonlyArray<string> =>
  overLine(e).flatMap(({ route, average, least }) => [
    ...(route === "supplied" || average >= RIDE_HAIL_TARGETS.overLine ? [] : [
      `${routeName(route)}: pinball on average only ${(average * 100).toFixed(1)} % below the line (target ${RIDE_HAIL_TARGETS.overLine * 100} %)`
    ]),
    ...(least >= RIDE_HAIL_TARGETS.overLineEach ? [] : [
      `${routeName(route)}: a product worse than the line (${(least * 100).toFixed(1)} %)`
    ])
  ])

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)} %`)

/** A markdown table, one line per product and route source, then the average over the line per route source. */
export const renderRideHailEvaluation = (e: RideHailEvaluation): string => {
  const head = [
    `| market | provider/level | product | route | rows | p5 | p25 | p50 | p75 | p95 | pinball | line | vs line | per km | vs per km |`,
    `|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`
  ]
  const lines = e.products.map((p) =>
    `| ${e.market} | ${p.provider}/${p.serviceLevel} | ${p.product} | ${routeName(p.route)} | ${p.rows} | ${
      EVALUATION_LEVELS.map(([name]) => pct(p.coverage[name])).join(" | ")
    } | ${p.pinball.toFixed(3)} | ${p.linePinball.toFixed(3)} | ${pct(p.lineImprovement)} | ${p.baselinePinball.toFixed(3)} | ${
      pct(p.improvement)
    } |`
  )
  const summary = overLine(e).map(({ route, average, least, products }) =>
    `${routeName(route)}: pinball ${pct(average)} below the line on average over ${products} products (least ${pct(least)}; ${
      route === "resolved" ? `target ${RIDE_HAIL_TARGETS.overLine * 100} % on average` : "reported: the line knows the route"
    })`
  )
  return [...head, ...lines, "", ...summary].join("\n")
}
