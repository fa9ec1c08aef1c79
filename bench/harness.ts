/**
 * A tiny benchmark harness: variants of one suite run interleaved, round after round (the order
 * alternates each round), so machine noise hits them alike; we report the median throughput of
 * each variant and the median of the per-round ratios to the suite's baseline.
 *
 * Throughput is per second of this process's CPU time (`process.cpuUsage`, user + system) by
 * default: on a shared machine, wall time mostly measures the neighbours, CPU time much less.
 * Async suites whose work happens in other processes (HTTP servers) should set `clock: "wall"`.
 */

export interface Variant {
  readonly name: string
  /** Performs `iterations` operations. May be async (HTTP benchmarks). */
  readonly run: (iterations: number) => void | Promise<void>
  /** Called before each timed batch, outside the timing (e.g. to empty an in-memory sink). */
  readonly reset?: () => void
}

export interface Suite {
  readonly name: string
  /** What one operation is, for the report ("quote", "request"). */
  readonly unit: string
  /** The variant the others are compared with. */
  readonly baseline: Variant
  readonly variants: ReadonlyArray<Variant>
  /** Throws if the variants disagree (checked once, before timing). */
  readonly check?: () => void | Promise<void>
  /** "cpu" (default): this process's CPU time; "wall": elapsed time. */
  readonly clock?: "cpu" | "wall"
}

export interface Options {
  readonly rounds: number
  /**
   * CPU (or wall) ms each variant runs, untimed, before calibration: the JIT's warm-up. Effect's
   * path has many more functions to optimise than a plain loop; without it the first rounds
   * measure the compiler, not the code (measured: Quotes.quote ran 29k quotes/s in its first
   * 0.5 s, 45–52k once warm, while the plain function was near steady within 0.2 s).
   */
  readonly warmupMs?: number | undefined
  /** Overrides the suite's clock (BENCH_CLOCK=wall|cpu). */
  readonly clock?: "cpu" | "wall" | undefined
  /** Target time of one timed batch, ms. */
  readonly batchMs: number
}

export interface VariantResult {
  readonly name: string
  readonly opsPerSecond: ReadonlyArray<number>
  readonly medianOpsPerSecond: number
  /** Per-round ratio to the baseline's throughput (1 for the baseline itself). */
  readonly medianRatio: number
  readonly ratioRange: readonly [number, number]
}

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2
}

type Clock = "cpu" | "wall"

/** Milliseconds the batch took on `clock`. */
const timeBatch = async (variant: Variant, iterations: number, clock: Clock): Promise<number> => {
  variant.reset?.()
  if (clock === "wall") {
    const start = process.hrtime.bigint()
    await variant.run(iterations)
    return Number(process.hrtime.bigint() - start) / 1e6
  }
  const start = process.cpuUsage()
  await variant.run(iterations)
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** Runs `variant` in growing batches until `ms` of `clock` time are spent (nothing is recorded). */
const warmUp = async (variant: Variant, ms: number, clock: Clock): Promise<void> => {
  let spent = 0
  let n = 100
  while (spent < ms) {
    spent += await timeBatch(variant, n, clock)
    n = Math.min(n * 2, 1e6)
  }
}

/** Iterations that take about `batchMs`. */
const calibrate = async (variant: Variant, batchMs: number, clock: Clock): Promise<number> => {
  let n = 100
  for (;;) {
    const ms = await timeBatch(variant, n, clock)
    if (ms >= batchMs / 4 || n >= 1e8) return Math.max(1, Math.round((n * batchMs) / Math.max(ms, 1e-3)))
    n *= 4
  }
}

export const runSuite = async (suite: Suite, options: Options): Promise<ReadonlyArray<VariantResult>> => {
  await suite.check?.()
  const clock = options.clock ?? suite.clock ?? "cpu"
  const all = [suite.baseline, ...suite.variants]
  for (const v of all) await warmUp(v, options.warmupMs ?? 0, clock)
  const iterations = new Map<Variant, number>()
  for (const v of all) iterations.set(v, await calibrate(v, options.batchMs, clock))
  const rates = new Map<Variant, Array<number>>(all.map((v) => [v, []]))
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? all : [...all].reverse()
    for (const v of order) {
      const n = iterations.get(v) ?? 1
      const ms = await timeBatch(v, n, clock)
      rates.get(v)?.push((n / ms) * 1000)
    }
  }
  const base = rates.get(suite.baseline) ?? []
  return all.map((v) => {
    const r = rates.get(v) ?? []
    const ratios = r.map((x, i) => x / (base[i] ?? Number.NaN))
    return {
      name: v.name,
      opsPerSecond: r,
      medianOpsPerSecond: median(r),
      medianRatio: median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)] as const
    }
  })
}

export const formatResults = (suite: Suite, results: ReadonlyArray<VariantResult>, options: Options): string => {
  const unit = (options.clock ?? suite.clock ?? "cpu") === "cpu" ? "CPU-s" : "s"
  const rows = results.map((r) =>
    `  ${r.name.padEnd(44)} ${Math.round(r.medianOpsPerSecond).toLocaleString("en-US").padStart(12)} ${suite.unit}s/${unit}` +
    `   ×${r.medianRatio.toFixed(3)} of baseline [${r.ratioRange[0].toFixed(3)}–${r.ratioRange[1].toFixed(3)}]`
  )
  return [`${suite.name} (baseline: ${suite.baseline.name})`, ...rows].join("\n")
}
