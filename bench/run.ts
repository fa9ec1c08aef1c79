/**
 * `pnpm bench`: runs every suite and prints medians and ratios. Benchmarks measure; tests
 * assert behaviour (no timing is ever asserted). Add a suite by exporting a `Suite` from a
 * module here and listing it below. Options: BENCH_ROUNDS (default 7), BENCH_BATCH_MS (300),
 * BENCH_CLOCK (cpu | wall; default: each suite's own, cpu unless it says otherwise).
 */
import { formatResults, runSuite } from "./harness.js"
import type { Options, Suite } from "./harness.js"
import { quotesSuite } from "./quotes.js"

const suites: ReadonlyArray<Suite> = [quotesSuite]

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 7)
const batchMs = Number(process.env["BENCH_BATCH_MS"] ?? 300)
const clockSetting = process.env["BENCH_CLOCK"]
const clock = clockSetting === "cpu" || clockSetting === "wall" ? clockSetting : undefined
const options: Options = { rounds, batchMs, clock }

console.log(`node ${process.version}, ${rounds} interleaved rounds, ~${batchMs} ms per batch`)
for (const suite of suites) {
  const results = await runSuite(suite, options)
  console.log(formatResults(suite, results, options))
}
