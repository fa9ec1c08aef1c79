/**
 * Tariff regimes, detected from the trip records rather than typed in (method in
 * docs/calibration.md, "Tariff regimes").
 *
 * Two kinds of evidence start a regime:
 *
 * 1. A flat fee changes: the typical amount (the mode) of a fee column differs from one month
 *    to the next. The change is dated to the day: the first day of the month whose typical
 *    amount is the new one (TLC surcharges start on a day, e.g. 1 February 2019).
 * 2. The metered rates change: between fee changes, the monthly median of
 *    (price − fees) ÷ reference fare, where the reference is one least-squares fare over all
 *    trips, is split by binary segmentation; a split is kept when the two sides differ by at
 *    least `minRateShift` and by `minT` standard errors of the monthly medians. Dated to the
 *    first day of the month.
 *
 * A regime needs `minRegimeRows` trips on each side of its start, so noise in a thin month
 * does not open one.
 */
import { accumulate, normalEquations, solve } from "./LinearModel.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"

/** A tariff regime found in the records: when it began and what showed it. */
export interface DetectedRegime {
  /** Local date the regime took effect. */
  readonly effectiveFrom: string
  /** The evidence, readable: "fee congestion_surcharge 0.00 → 2.50", "metered rates +8.1 %". */
  readonly detectedBy: ReadonlyArray<string>
}

/**
 * Thresholds of regime detection (module comment): trips needed on each side of a start, and the
 * smallest rate change (`minRateShift`, relative) and its significance (`minT` standard errors).
 */
export interface RegimeOptions {
  readonly minRegimeRows: number
  readonly minRateShift: number
  readonly minT: number
  /** Fewest months on each side of a rate change. */
  readonly minMonths: number
}

/** The thresholds `fitMarket` and `forwardEvaluation` use when `FitOptions.regimes` is absent. */
export const DEFAULT_REGIME_OPTIONS: RegimeOptions = { minRegimeRows: 150, minRateShift: 0.04, minT: 6, minMonths: 3 }

const monthOf = (t: ObservedTrip) => t.localDate.slice(0, 7)
const cents = (x: number) => Math.round(x * 100)

/** The most frequent of some counted cent amounts (ties: the smaller). */
const modeOfCounts = (counts: ReadonlyMap<number, number>): number => {
  let best = 0, bestN = -1
  for (const [x, n] of counts) if (n > bestN || (n === bestN && x < best)) [best, bestN] = [x, n]
  return best
}

/**
 * Typical amount of each fee column over some trips (the mode, in currency units; a trip without
 * the column counts as 0). One pass over the trips, counting per column (a list of every trip's
 * amount per column, as before, was 5 % of NYC's `market evaluate`).
 */
export const typicalFees = (trips: ReadonlyArray<ObservedTrip>): Record<string, number> => {
  const counts = new Map<string, Map<number, number>>()
  for (const t of trips) {
    for (const name in t.fees) {
      let byAmount = counts.get(name)
      if (byAmount === undefined) counts.set(name, byAmount = new Map())
      const c = cents(t.fees[name] ?? 0)
      byAmount.set(c, (byAmount.get(c) ?? 0) + 1)
    }
  }
  const out: Record<string, number> = {}
  for (const name of [...counts.keys()].sort()) {
    const byAmount = counts.get(name) ?? new Map<number, number>()
    let present = 0
    for (const n of byAmount.values()) present += n
    // The trips without the column are zeros.
    if (present < trips.length) byAmount.set(0, (byAmount.get(0) ?? 0) + trips.length - present)
    out[name] = modeOfCounts(byAmount) / 100
  }
  return out
}

const sortedMedian = (xs: ReadonlyArray<number>): number => {
  const s = Float64Array.from(xs).sort()
  const n = s.length
  return n === 0 ? Number.NaN : n % 2 === 1 ? (s[(n - 1) / 2] ?? 0) : ((s[n / 2 - 1] ?? 0) + (s[n / 2] ?? 0)) / 2
}

interface Month {
  readonly month: string
  readonly trips: ReadonlyArray<ObservedTrip>
}

/** Fee change points: [index of the first month of the new amount, evidence]. */
const feeChanges = (months: ReadonlyArray<Month>, minRows: number): Array<{ at: number; date: string; why: Array<string> }> => {
  const out: Array<{ at: number; date: string; why: Array<string> }> = []
  let current: Record<string, number> | undefined
  let rowsSince = 0
  for (const [i, m] of months.entries()) {
    const fees = typicalFees(m.trips)
    if (current === undefined) {
      current = fees
      rowsSince += m.trips.length
      continue
    }
    const why: Array<string> = []
    const changed: Array<string> = []
    for (const name of new Set([...Object.keys(current), ...Object.keys(fees)])) {
      const before = current[name] ?? 0, after = fees[name] ?? 0
      if (cents(before) !== cents(after)) {
        why.push(`fee ${name} ${before.toFixed(2)} → ${after.toFixed(2)}`)
        changed.push(name)
      }
    }
    const rowsAfter = months.slice(i).reduce((n, x) => n + x.trips.length, 0)
    if (why.length > 0 && rowsSince >= minRows && rowsAfter >= minRows) {
      // The day: the first day of the month on which the changed fees have their new amount.
      const byDay = new Map<string, Array<ObservedTrip>>()
      for (const t of m.trips) {
        const day = byDay.get(t.localDate)
        if (day === undefined) byDay.set(t.localDate, [t])
        else day.push(t)
      }
      const firstDay = [...byDay.keys()].sort().find((day) => {
        const typical = typicalFees(byDay.get(day) ?? [])
        return changed.every((name) => cents(typical[name] ?? 0) === cents(fees[name] ?? 0))
      }) ?? `${m.month}-01`
      out.push({ at: i, date: firstDay, why })
      current = fees
      rowsSince = 0
    } else if (why.length > 0 && rowsSince < minRows) {
      current = fees
    }
    rowsSince += m.trips.length
  }
  return out
}

/** One least-squares fare (intercept + km + minutes) over all trips: the yardstick of rate changes. */
const referenceFare = (trips: ReadonlyArray<ObservedTrip>): ((t: ObservedTrip) => number) => {
  const eq = normalEquations(3)
  // One feature row, refilled per trip (an array per trip was most of this function's time).
  const x = new Float64Array(3)
  x[0] = 1
  for (const t of trips) {
    x[1] = t.distanceKm
    x[2] = t.durationMinutes
    accumulate(eq, x, t.price - feeSum(t))
  }
  const b = solve(eq) ?? [0, 1, 0]
  return (t) => (b[0] ?? 0) + (b[1] ?? 0) * t.distanceKm + (b[2] ?? 0) * t.durationMinutes
}

const feeSum = (t: ObservedTrip): number => {
  let s = 0
  for (const k in t.fees) s += t.fees[k] ?? 0
  return s
}

interface Split {
  readonly at: number
  readonly shift: number
}

/** Best rate split of months[lo, hi) by binary segmentation, or undefined if none is significant. */
const bestSplit = (
  level: ReadonlyArray<number>,
  rows: ReadonlyArray<number>,
  lo: number,
  hi: number,
  o: RegimeOptions
): Split | undefined => {
  let best: Split | undefined
  let bestT = 0
  for (let k = lo + o.minMonths; k <= hi - o.minMonths; k++) {
    const rowsBefore = rows.slice(lo, k).reduce((a, b) => a + b, 0)
    const rowsAfter = rows.slice(k, hi).reduce((a, b) => a + b, 0)
    if (rowsBefore < o.minRegimeRows || rowsAfter < o.minRegimeRows) continue
    const a = level.slice(lo, k), b = level.slice(k, hi)
    const mean = (xs: ReadonlyArray<number>) => xs.reduce((s, x) => s + x, 0) / xs.length
    const variance = (xs: ReadonlyArray<number>, m: number) => xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length - 1)
    const ma = mean(a), mb = mean(b)
    const se = Math.sqrt(variance(a, ma) / a.length + variance(b, mb) / b.length) || 1e-9
    const t = Math.abs(mb - ma) / se
    const shift = mb / ma - 1
    if (Math.abs(shift) >= o.minRateShift && t >= o.minT && t > bestT) {
      bestT = t
      best = { at: k, shift }
    }
  }
  return best
}

/** The regimes of a set of trips, oldest first; the first starts on the earliest trip's date. */
export const detectRegimes = (
  trips: ReadonlyArray<ObservedTrip>,
  options: RegimeOptions = DEFAULT_REGIME_OPTIONS
): ReadonlyArray<DetectedRegime> => {
  if (trips.length === 0) return []
  const byMonth = new Map<string, Array<ObservedTrip>>()
  for (const t of trips) {
    const m = monthOf(t)
    const list = byMonth.get(m)
    if (list === undefined) byMonth.set(m, [t])
    else list.push(t)
  }
  const months: Array<Month> = [...byMonth.keys()].sort().map((month) => ({ month, trips: byMonth.get(month) ?? [] }))
  const first = trips.reduce((d, t) => (t.localDate < d ? t.localDate : d), trips[0]?.localDate ?? "")
  const starts = new Map<number, { date: string; why: Array<string> }>([[0, { date: first, why: ["first trip record"] }]])
  for (const c of feeChanges(months, options.minRegimeRows)) starts.set(c.at, { date: c.date, why: c.why })

  // Rate changes within each fee segment, on the metered part.
  const ref = referenceFare(trips)
  const level = months.map((m) => sortedMedian(m.trips.map((t) => (t.price - feeSum(t)) / Math.max(0.5, ref(t)))))
  const rows = months.map((m) => m.trips.length)
  const segment = (lo: number, hi: number): void => {
    const split = bestSplit(level, rows, lo, hi, options)
    if (split === undefined) return
    const sign = split.shift >= 0 ? "+" : "−"
    starts.set(split.at, {
      date: `${months[split.at]?.month ?? ""}-01`,
      why: [`metered rates ${sign}${(Math.abs(split.shift) * 100).toFixed(1)} % (monthly median of fare ÷ reference)`]
    })
    segment(lo, split.at)
    segment(split.at, hi)
  }
  const bounds = [...starts.keys()].sort((a, b) => a - b)
  for (const [i, lo] of bounds.entries()) segment(lo, bounds[i + 1] ?? months.length)
  return [...starts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, s]) => ({ effectiveFrom: s.date, detectedBy: s.why }))
}
