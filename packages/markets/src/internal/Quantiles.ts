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

/**
 * The median of a sample (`quantile` at 0.5, type 7), reordering `values` in place: a selection
 * of the middle element(s) in linear time instead of a sort (the fit takes the median of ~200k
 * residuals six times per regression). Exactly the value a sort gives: the same element, or the
 * same two averaged by the same formula. NaN for an empty sample; a sample holding NaN is sorted.
 */
export const medianInPlace = (values: Float64Array): number => quantilesInPlace(values, [0.5])[0] ?? Number.NaN

/**
 * Quantiles of a sample at some levels (type 7, as `quantilesAt`), reordering `values` in place:
 * for ascending levels, a selection of each level's order statistic(s), each from where the one
 * before left off, in linear time instead of a sort; exactly the values a sort gives. Levels out
 * of order, or a sample holding NaN, are read off the sorted sample. NaN for an empty sample.
 */
export const quantilesInPlace = (values: Float64Array, levels: ReadonlyArray<number>): Array<number> => {
  const n = values.length
  if (n === 0) return levels.map(() => Number.NaN)
  const ascending = levels.every((q, i) => i === 0 || (levels[i - 1] ?? q) <= q)
  if (!ascending || hasNaN(values)) {
    values.sort()
    return levels.map((q) => sortedQuantile(values, q))
  }
  let from = 0
  return levels.map((q) => {
    // `quantile`'s index, its level clamped to [0, 1] as it does.
    const h = (n - 1) * (q > 0 ? (q < 1 ? q : 1) : 0)
    const lo = Math.floor(h)
    const below = selectInPlace(values, lo, from)
    from = lo
    let above = below
    if (lo + 1 < n) {
      // Everything after `lo` is ≥ the element at `lo`: the next order statistic is their least.
      above = Number.POSITIVE_INFINITY
      for (let i = lo + 1; i < n; i++) if ((values[i] ?? 0) < above) above = values[i] ?? 0
    }
    return below + (h - lo) * (above - below)
  })
}

/** A loop, not `values.some(Number.isNaN)`: that boxes every element for the callback. */
const hasNaN = (values: Float64Array): boolean => {
  for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) return true
  return false
}

/**
 * Hoare's selection: reorders `a` so that a[k] is its k-th smallest, smaller ones before, larger
 * after. `from`: the elements before it are already the smallest (a selection before this one).
 */
const selectInPlace = (a: Float64Array, k: number, from = 0): number => {
  let left = from
  let right = a.length - 1
  while (right > left) {
    // Median of three as the pivot, against sorted or constant runs.
    const mid = (left + right) >> 1
    const x = a[left] ?? 0, y = a[mid] ?? 0, z = a[right] ?? 0
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y)
    let i = left
    let j = right
    while (i <= j) {
      while ((a[i] ?? 0) < pivot) i++
      while ((a[j] ?? 0) > pivot) j--
      if (i <= j) {
        const t = a[i] ?? 0
        a[i] = a[j] ?? 0
        a[j] = t
        i++
        j--
      }
    }
    if (k <= j) right = j
    else if (k >= i) left = i
    else return a[k] ?? 0
  }
  return a[k] ?? 0
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
