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

/** Indices of a row's non-zero features (reused: accumulate runs once per row and pass). */
let nonZero = new Int32Array(16)

/**
 * Adds one observation (feature row `x`, response `y`, weight `w`). Only non-zero features are
 * visited: the time-of-week dummies are one-hot, so most products are zero, and adding a zero
 * product leaves a sum as it was, bit for bit (the fit of the same rows is the same file).
 * `offset`: where the row starts in `x`, so that the rows of one flat array are read in place
 * (a view per row and pass was the largest allocation of a fit).
 */
export const accumulate = (eq: NormalEquations, x: ArrayLike<number>, y: number, w = 1, offset = 0): void => {
  const p = eq.size
  if (nonZero.length < p) nonZero = new Int32Array(p)
  let k = 0
  for (let j = 0; j < p; j++) if ((x[offset + j] ?? 0) !== 0) nonZero[k++] = j
  for (let a = 0; a < k; a++) {
    const i = nonZero[a] ?? 0
    const xi = (x[offset + i] ?? 0) * w
    if (xi === 0) continue
    eq.xty[i] = (eq.xty[i] ?? 0) + xi * y
    const row = i * p
    for (let b = 0; b < k; b++) {
      const j = nonZero[b] ?? 0
      eq.xtx[row + j] = (eq.xtx[row + j] ?? 0) + xi * (x[offset + j] ?? 0)
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

/** The normal equations restricted to some of the coefficients (the others held at 0). */
const restricted = (eq: NormalEquations, keep: ReadonlyArray<number>): NormalEquations => {
  const sub = normalEquations(keep.length)
  keep.forEach((i, a) => {
    sub.xty[a] = eq.xty[i] ?? 0
    keep.forEach((j, b) => {
      sub.xtx[a * keep.length + b] = eq.xtx[i * eq.size + j] ?? 0
    })
  })
  return sub
}

/**
 * Least squares with some coefficients constrained to be ≥ 0 (`nonNegative[i]`), the others
 * free: Lawson & Hanson's active-set method ("Solving Least Squares Problems", 1974, ch. 23) on
 * the normal equations. Undefined when a restricted system is singular.
 */
export const solveNonNegative = (eq: NormalEquations, nonNegative: ReadonlyArray<boolean>): Array<number> | undefined => {
  const p = eq.size
  const passive = new Array<boolean>(p).fill(false)
  for (let i = 0; i < p; i++) passive[i] = !nonNegative[i]
  const solvePassive = (): Array<number> | undefined => {
    const keep = passive.flatMap((on, i) => (on ? [i] : []))
    const s = keep.length === 0 ? [] : solve(restricted(eq, keep))
    if (s === undefined) return undefined
    const out = new Array<number>(p).fill(0)
    keep.forEach((i, a) => {
      out[i] = s[a] ?? 0
    })
    return out
  }
  let beta = solvePassive()
  if (beta === undefined) return undefined
  const tolerance = 1e-9 * Math.max(1, ...Array.from(eq.xty, Math.abs))
  for (let outer = 0; outer < 3 * p; outer++) {
    // Gradient of the objective's negative half: Xᵀy − XᵀXβ.
    let best = -1, bestW = tolerance
    for (let j = 0; j < p; j++) {
      if (passive[j]) continue
      let w = eq.xty[j] ?? 0
      for (let k = 0; k < p; k++) w -= (eq.xtx[j * p + k] ?? 0) * (beta[k] ?? 0)
      if (w > bestW) [best, bestW] = [j, w]
    }
    if (best < 0) return beta
    passive[best] = true
    for (let inner = 0; inner < 3 * p; inner++) {
      const s = solvePassive()
      if (s === undefined) return undefined
      let alpha = 1
      for (let j = 0; j < p; j++) {
        if (!passive[j] || !nonNegative[j] || (s[j] ?? 0) > 0) continue
        const b = beta[j] ?? 0
        alpha = Math.min(alpha, b - (s[j] ?? 0) > 0 ? b / (b - (s[j] ?? 0)) : 0)
      }
      if (alpha >= 1) {
        beta = s
        break
      }
      const current: Array<number> = beta
      beta = current.map((b, j) => b + alpha * ((s[j] ?? 0) - b))
      for (let j = 0; j < p; j++) {
        if (passive[j] && nonNegative[j] && (beta[j] ?? 0) <= 1e-12) {
          passive[j] = false
          beta[j] = 0
        }
      }
    }
  }
  return beta
}
