/**
 * Quantile math shared by every market: empirical quantiles of samples (calibrated markets)
 * and the standard normal quantile behind lognormal demand spreads (the sample market).
 */
import type { Array as Arr } from "effect"

/** Clamps a probability into [0, 1]; NaN counts as 0 so every function here stays total. */
const clampUnit = (q: number): number => (q > 0 ? (q < 1 ? q : 1) : 0)

/**
 * Sample quantile by Hyndman & Fan (1996) type 7: linear interpolation between order statistics
 * at h = (n − 1)·q. It is the default of R's `quantile()` and of NumPy's `percentile()`, so numbers
 * can be checked against either. `sorted` must be ascending; `q` is clamped into [0, 1].
 * Non-decreasing in `q` for an ascending input.
 */
export const quantile = (sorted: Arr.NonEmptyReadonlyArray<number>, q: number): number => {
  const h = (sorted.length - 1) * clampUnit(q)
  const lo = Math.floor(h)
  const below = sorted[lo] ?? sorted[0]
  const above = sorted[lo + 1] ?? below
  return below + (h - lo) * (above - below)
}

// Acklam's rational approximation of the inverse normal CDF (relative error < 1.15e-9).
const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239] as const
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1] as const
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416] as const
const P_LOW = 0.02425

/** Keeps tails finite: quantiles are asked for q ∈ (0, 1), never the endpoints. */
const TAIL = 1e-9

const tail = (p: number): number => {
  const r = Math.sqrt(-2 * Math.log(p))
  return (((((C[0] * r + C[1]) * r + C[2]) * r + C[3]) * r + C[4]) * r + C[5]) /
    ((((D[0] * r + D[1]) * r + D[2]) * r + D[3]) * r + 1)
}

/**
 * z such that Φ(z) = p, for the standard normal distribution (Acklam's algorithm). Total: `p` is
 * clamped into [1e-9, 1 − 1e-9], so the result is finite (|z| ≤ ~6.1) and non-decreasing in `p`.
 */
export const normalQuantile = (p: number): number => {
  const x = Math.min(1 - TAIL, Math.max(TAIL, Number.isNaN(p) ? 0.5 : p))
  if (x < P_LOW) return tail(x)
  if (x > 1 - P_LOW) return -tail(1 - x)
  const q = x - 0.5
  const r = q * q
  return ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) /
    (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1)
}
