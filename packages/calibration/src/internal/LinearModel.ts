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

/** A row's non-zero features and their indices (reused: accumulate runs once per row and pass). */
let nonZeroIndex = new Int32Array(16)
let nonZeroValue = new Float64Array(16)

/**
 * Adds one observation (feature row `x`, response `y`, weight `w`). Only non-zero features are
 * visited: the time-of-week dummies are one-hot, so most products are zero, and adding a zero
 * product leaves a sum as it was, bit for bit (the fit of the same rows is the same file).
 * `offset`: where the row starts in `x`, so that the rows of one flat array are read in place
 * (a view per row and pass was the largest allocation of a fit).
 */
export const accumulate = (eq: NormalEquations, x: ArrayLike<number>, y: number, w = 1, offset = 0): void => {
  const p = eq.size
  if (nonZeroIndex.length < p) (nonZeroIndex = new Int32Array(p), nonZeroValue = new Float64Array(p))
  let k = 0
  for (let j = 0; j < p; j++) {
    const v = x[offset + j] ?? 0
    if (v !== 0) (nonZeroIndex[k] = j, nonZeroValue[k++] = v)
  }
  addProducts(eq, nonZeroIndex, nonZeroValue, 0, k, y, w)
}

/**
 * The non-zero features of `n` rows of `size` features (a flat array, row after row), gathered
 * once: a robust regression accumulates the same rows in each of its reweighting passes, and
 * finding their non-zero features again every pass was a sixth of the accumulation's time.
 *
 * A column whose every non-zero value is 1 (the intercept, a one-hot dummy) is an indicator: a
 * product of its 1 with another feature's weighted value is the same number, bit for bit, as
 * that feature's value times its weighted 1 (w·x = x·w), so of the two symmetric sums only one
 * needs adding up (`accumulateRows`). Row i's features sit from `start[i]` to `start[i + 1]` in
 * `index` and `value`: the others first, then from `indicatorsFrom[i]` its indicators, each
 * group by ascending column.
 */
export interface SparseRows {
  readonly indicator: ReadonlyArray<boolean>
  readonly start: Int32Array
  readonly indicatorsFrom: Int32Array
  readonly index: Int32Array
  readonly value: Float64Array
}

export const sparseRows = (x: ArrayLike<number>, n: number, size: number): SparseRows => {
  const indicator = new Array<boolean>(size).fill(true)
  let total = 0
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < size; j++) {
      const v = x[i * size + j] ?? 0
      if (v !== 0) total++
      if (v !== 0 && v !== 1) indicator[j] = false
    }
  }
  const start = new Int32Array(n + 1)
  const indicatorsFrom = new Int32Array(n)
  const index = new Int32Array(total)
  const value = new Float64Array(total)
  let k = 0
  // Row i's non-zero features of one kind (indicators or the others), by ascending column.
  const gather = (i: number, indicators: boolean) => {
    for (let j = 0; j < size; j++) {
      const v = x[i * size + j] ?? 0
      if (v !== 0 && indicator[j] === indicators) (index[k] = j, value[k++] = v)
    }
  }
  for (let i = 0; i < n; i++) {
    start[i] = k
    gather(i, false)
    indicatorsFrom[i] = k
    gather(i, true)
  }
  start[n] = k
  return { indicator, start, indicatorsFrom, index, value }
}

/**
 * Adds every row of `rows`, row i with response `y[i]` and weight `w[i]`: the same sums, bit
 * for bit, as `accumulate` of each row in turn. Of a pair of symmetric sums where one column is
 * an indicator, only the indicator's row is added up and the other is copied from it (a fifth
 * fewer products).
 */
export const accumulateRows = (eq: NormalEquations, rows: SparseRows, y: ArrayLike<number>, w: ArrayLike<number>): void => {
  const p = eq.size
  const xtx = eq.xtx, xty = eq.xty
  const { index, indicator, indicatorsFrom, start, value } = rows
  for (let r = 0; r + 1 < start.length; r++) {
    const from = start[r] ?? 0, to = start[r + 1] ?? from, indicators = indicatorsFrom[r] ?? to
    const yr = y[r] ?? 0, wr = w[r] ?? 1
    for (let a = from; a < to; a++) {
      const i = index[a] ?? 0
      const xi = (value[a] ?? 0) * wr
      if (xi === 0) continue
      xty[i] = (xty[i] ?? 0) + xi * yr
      const row = i * p
      // Every row adds its products with the other features; an indicator's row also those
      // with the indicators from itself on (the rest are copied below).
      for (let b = from; b < indicators; b++) {
        const j = row + (index[b] ?? 0)
        xtx[j] = (xtx[j] ?? 0) + xi * (value[b] ?? 0)
      }
      if (a < indicators) continue
      for (let b = a; b < to; b++) {
        const j = row + (index[b] ?? 0)
        xtx[j] = (xtx[j] ?? 0) + xi * (value[b] ?? 0)
      }
    }
    eq.count++
  }
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) {
      if (indicator[j] === true && (indicator[i] !== true || i > j)) xtx[i * p + j] = xtx[j * p + i] ?? 0
    }
  }
}

/** The products of one row's `k` non-zero features (at `start` in `index` and `value`) added to the sums. */
const addProducts = (
  eq: NormalEquations,
  index: Int32Array,
  value: Float64Array,
  start: number,
  k: number,
  y: number,
  w: number
): void => {
  const p = eq.size
  const xtx = eq.xtx, xty = eq.xty
  for (let a = start; a < start + k; a++) {
    const i = index[a] ?? 0
    const xi = (value[a] ?? 0) * w
    if (xi === 0) continue
    xty[i] = (xty[i] ?? 0) + xi * y
    const row = i * p
    for (let b = start; b < start + k; b++) {
      const j = row + (index[b] ?? 0)
      xtx[j] = (xtx[j] ?? 0) + xi * (value[b] ?? 0)
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
