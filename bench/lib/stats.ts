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
