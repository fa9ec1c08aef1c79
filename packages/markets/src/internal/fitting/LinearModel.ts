/**
 * Ordinary least squares on a handful of features, solved from the normal equations.
 *
 * The base-fare model has at most a dozen coefficients, so accumulating XᵀX and Xᵀy in one
 * pass over the rows and solving the small system is both fast (one pass over ~200k rows) and
 * deterministic. A tiny ridge term keeps the system solvable when a dummy column is empty
 * (e.g. a time bucket with no trips); it is not meant to regularise.
 */

export interface NormalEquations {
  readonly size: number
  readonly xtx: Float64Array
  readonly xty: Float64Array
  count: number
}

export const normalEquations = (size: number): NormalEquations => ({
  size,
  xtx: new Float64Array(size * size),
  xty: new Float64Array(size),
  count: 0
})

/** Adds one observation (feature row `x`, response `y`, weight `w`). */
export const accumulate = (eq: NormalEquations, x: ArrayLike<number>, y: number, w = 1): void => {
  const p = eq.size
  for (let i = 0; i < p; i++) {
    const xi = (x[i] ?? 0) * w
    if (xi === 0) continue
    eq.xty[i] = (eq.xty[i] ?? 0) + xi * y
    for (let j = 0; j < p; j++) {
      const idx = i * p + j
      eq.xtx[idx] = (eq.xtx[idx] ?? 0) + xi * (x[j] ?? 0)
    }
  }
  eq.count++
}

/**
 * Solves (XᵀX + λI)β = Xᵀy by Gaussian elimination with partial pivoting.
 * Returns the coefficients, or undefined when the system is singular even with the ridge.
 */
export const solve = (eq: NormalEquations, ridge = 1e-6): Array<number> | undefined => {
  const p = eq.size
  // Augmented matrix [A | b], row-major.
  const m: Array<Array<number>> = []
  for (let i = 0; i < p; i++) {
    const row: Array<number> = []
    for (let j = 0; j < p; j++) row.push((eq.xtx[i * p + j] ?? 0) + (i === j ? ridge : 0))
    row.push(eq.xty[i] ?? 0)
    m.push(row)
  }
  for (let col = 0; col < p; col++) {
    let pivot = col
    for (let r = col + 1; r < p; r++) {
      if (Math.abs(m[r]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = r
    }
    const pivotRow = m[pivot]
    const colRow = m[col]
    if (pivotRow === undefined || colRow === undefined) return undefined
    const pv = pivotRow[col] ?? 0
    if (Math.abs(pv) < 1e-12) return undefined
    m[pivot] = colRow
    m[col] = pivotRow
    for (let r = 0; r < p; r++) {
      const row = m[r]
      if (r === col || row === undefined) continue
      const factor = (row[col] ?? 0) / pv
      if (factor === 0) continue
      for (let c = col; c <= p; c++) row[c] = (row[c] ?? 0) - factor * (pivotRow[c] ?? 0)
    }
  }
  return m.map((row, i) => (row[p] ?? 0) / (row[i] ?? 1))
}
