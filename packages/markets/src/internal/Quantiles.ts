/**
 * Empirical quantiles and quantile functions on a fixed grid of levels.
 *
 * A market model stores, per bucket, the residual quantiles at a grid of levels; a price
 * quantile at any level in (0, 1) is read off that grid by linear interpolation. Linear
 * interpolation between non-decreasing knots is non-decreasing, so quantiles never cross.
 */
import { quantile } from "@ridequote/core"
import type { Array as Arr } from "effect"

/** Levels the models store: dense in the tails, where percentile pricing is most sensitive. */
export const QUANTILE_LEVELS: ReadonlyArray<number> = [
  0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5,
  0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.925, 0.95, 0.975, 0.99
]

/**
 * Quantiles of an unsorted sample at each level, by core's `quantile` (Hyndman & Fan type 7,
 * R's default). An empty sample has no quantiles: NaN at every level.
 */
export const quantilesAt = (sample: ReadonlyArray<number>, levels: ReadonlyArray<number>): Array<number> => {
  if (sample.length === 0) return levels.map(() => Number.NaN)
  // A typed-array sort is numeric and fast; `quantile` only indexes its input, so the sorted
  // typed array is read in place (copying it back into an Array cost as much as the sort).
  const sorted = Float64Array.from(sample).sort() as unknown as Arr.NonEmptyReadonlyArray<number>
  return levels.map((q) => quantile(sorted, q))
}

/** One quantile of a sample already sorted ascending, read in place (NaN for an empty one). */
export const sortedQuantile = (sorted: ArrayLike<number>, q: number): number =>
  sorted.length === 0 ? Number.NaN : quantile(sorted as unknown as Arr.NonEmptyReadonlyArray<number>, q)

/** One quantile of an unsorted sample (NaN for an empty one). */
export const sampleQuantile = (sample: ReadonlyArray<number>, q: number): number => quantilesAt(sample, [q])[0] ?? Number.NaN

/**
 * Reads a quantile function stored as knots (levels ascending, values non-decreasing) at `q`:
 * linear between knots, flat beyond the outermost knots (no extrapolation into tails the
 * data never showed).
 */
export const interpolateQuantile = (
  levels: ReadonlyArray<number>,
  values: ReadonlyArray<number>,
  q: number
): number => {
  const n = Math.min(levels.length, values.length)
  if (n === 0) return Number.NaN
  const first = values[0] ?? Number.NaN
  if (!(q > (levels[0] ?? 0))) return first
  if (q >= (levels[n - 1] ?? 1)) return values[n - 1] ?? first
  let lo = 0
  let hi = n - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if ((levels[mid] ?? 0) <= q) lo = mid
    else hi = mid
  }
  const l0 = levels[lo] ?? 0, l1 = levels[hi] ?? 1
  const v0 = values[lo] ?? first, v1 = values[hi] ?? v0
  return l1 === l0 ? v0 : v0 + ((q - l0) / (l1 - l0)) * (v1 - v0)
}

/**
 * Mixes two quantile functions on the same grid: `w·a + (1−w)·b`. A convex combination of
 * non-decreasing vectors is non-decreasing, so shrinking a thin bucket toward its parent keeps
 * the quantiles from crossing (it is the Wasserstein barycentre of the two distributions).
 */
export const blendQuantiles = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, w: number): Array<number> =>
  a.map((x, i) => w * x + (1 - w) * (b[i] ?? x))

/** Forces a vector to be non-decreasing (running maximum); guards against float noise. */
export const monotone = (values: ReadonlyArray<number>): Array<number> => {
  const out: Array<number> = []
  let max = Number.NEGATIVE_INFINITY
  for (const v of values) {
    max = Math.max(max, v)
    out.push(max)
  }
  return out
}

/** Pinball (quantile) loss of predicting `predicted` at level `q` when `actual` happened. */
export const pinballLoss = (actual: number, predicted: number, q: number): number => {
  const diff = actual - predicted
  return diff >= 0 ? q * diff : (q - 1) * diff
}
