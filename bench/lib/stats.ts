/** Medians, ranges and the text tables `pnpm bench` prints. */

export const median = (xs: ReadonlyArray<number>): number => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2
}

export interface Spread {
  readonly median: number
  readonly min: number
  readonly max: number
  readonly n: number
}

export const spread = (xs: ReadonlyArray<number>): Spread => {
  const finite = xs.filter((x) => Number.isFinite(x))
  return {
    median: median(finite),
    min: finite.length === 0 ? Number.NaN : Math.min(...finite),
    max: finite.length === 0 ? Number.NaN : Math.max(...finite),
    n: finite.length
  }
}

/**
 * A distribution-free confidence interval of the median (from order statistics: the number of
 * values below the true median is Binomial(n, ½)), the narrowest symmetric one whose coverage is
 * at least `level`; undefined below 5 values, where no such interval exists at 90 %. It says how
 * well a handful of noisy pairs pins the median down, with no assumption about their spread.
 */
export const medianInterval = (xs: ReadonlyArray<number>, level = 0.9): { readonly low: number; readonly high: number; readonly coverage: number } | undefined => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b)
  const n = s.length
  // P(X = k) for X ~ Binomial(n, ½), summed from the tails inwards.
  const pmf: Array<number> = []
  let c = 1
  for (let k = 0; k <= n; k++) {
    pmf.push(c / 2 ** n)
    c = (c * (n - k)) / (k + 1)
  }
  let best: { low: number; high: number; coverage: number } | undefined
  for (let k = 0; 2 * k < n - 1; k++) {
    // The interval [s[k], s[n-1-k]] covers the median unless k or fewer values lie below it, or k or fewer above.
    let tail = 0
    for (let j = 0; j <= k; j++) tail += pmf[j] ?? 0
    const coverage = 1 - 2 * tail
    if (coverage < level) break
    best = { low: s[k] ?? Number.NaN, high: s[n - 1 - k] ?? Number.NaN, coverage }
  }
  return best
}

/** A number with sensible precision: 12,345 / 123 / 12.3 / 1.23 / 0.123. */
export const fmt = (x: number, digits?: number): string => {
  if (!Number.isFinite(x)) return "–"
  if (digits !== undefined) return x.toFixed(digits)
  const a = Math.abs(x)
  if (a >= 1000) return Math.round(x).toLocaleString("en-US")
  if (a >= 100) return x.toFixed(0)
  if (a >= 10) return x.toFixed(1)
  if (a >= 1) return x.toFixed(2)
  return x.toFixed(3)
}

/** "median [min–max]" */
export const fmtSpread = (s: Spread, digits?: number): string =>
  s.n === 0 ? "–" : s.n === 1 || s.min === s.max ? fmt(s.median, digits) : `${fmt(s.median, digits)} [${fmt(s.min, digits)}–${fmt(s.max, digits)}]`

/** "×0.42 [0.38–0.47]" */
export const fmtRatio = (s: Spread): string => (s.n === 0 ? "–" : `×${fmtSpread(s, 2)}`)

/** A Markdown table with padded columns (readable as text, pasteable into docs). */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n")
}
