/**
 * The step both fits (taxi trips and ride-hail records) share when they recalibrate a
 * published price's quantiles: given the in-sample coverage c(q) of the published price on a
 * fine grid of q, re-read each stored level q_j at q*_j with c(q*_j) = q_j (linear between grid
 * points; Kuleshov et al. 2018, "Accurate uncertainties for deep learning using calibrated
 * regression"), shrunk toward q_j by the weight w = n ÷ (n + shrink). How the coverage is
 * measured differs between the fits and stays in each; both find each record's first covering
grid point the same way (`firstCoveringPoint`).
 */

/** The grid the in-sample coverage of the published price is measured on: 0.005 … 0.995. */
export const RECALIBRATION_GRID: ReadonlyArray<number> = Array.from({ length: 199 }, (_, i) => (i + 1) / 200)

/**
 * The first grid point covering a record (`covers(g)`: its price at or below the price published
 * at grid point g), by bisection; the grid's length if none does. `covers` must hold on a tail
 * of the grid (published prices that never decrease along it): 8 evaluations a record instead of
 * 199. Counting records by this point and summing gives the coverage at every point.
 */
export const firstCoveringPoint = (gridLength: number, covers: (g: number) => boolean): number => {
  let lo = 0, hi = gridLength
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (covers(mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * The level to read each of `levels` at, from the coverage measured at every point of
 * RECALIBRATION_GRID (non-decreasing, so the re-read levels are too), shrunk toward the level
 * itself by `weight` (0 keeps the levels, 1 trusts the coverage fully).
 */
export const rereadLevels = (
  levels: ReadonlyArray<number>,
  coverage: ReadonlyArray<number>,
  weight: number
): Array<number> => {
  const grid = RECALIBRATION_GRID
  return levels.map((q) => {
    // The grid point where the coverage first reaches q; linear between it and the one before.
    let g = 0
    while (g < grid.length && (coverage[g] ?? 1) < q) g++
    let at: number
    if (g === 0) at = grid[0] ?? q
    else if (g === grid.length) at = grid[grid.length - 1] ?? q
    else {
      const c0 = coverage[g - 1] ?? 0, c1 = coverage[g] ?? 1
      const q0 = grid[g - 1] ?? 0, q1 = grid[g] ?? 1
      at = c1 > c0 ? q0 + ((q - c0) / (c1 - c0)) * (q1 - q0) : q1
    }
    return q + weight * (at - q)
  })
}
