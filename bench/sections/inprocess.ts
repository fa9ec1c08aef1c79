/** Section 1: in-process quotes/s through @ridequote/core vs a plain function (bench/quotes.ts). */
import { inProcess } from "../lib/config.js"
import type { Section, Target } from "../lib/section.js"
import { fmt, table } from "../lib/stats.js"
import { runSuite } from "../harness.js"
import type { Options } from "../harness.js"
import { quotesSuite } from "../quotes.js"

export const inProcessSection: Section = {
  id: "inprocess",
  title: "In-process: quotes/s through @ridequote/core (Quotes.quote) vs a plain function",
  run: async () => {
    const clockSetting = process.env["BENCH_CLOCK"]
    const clock = clockSetting === "cpu" || clockSetting === "wall" ? clockSetting : undefined
    const options: Options = { rounds: inProcess.rounds, batchMs: inProcess.batchMs, warmupMs: inProcess.warmupMs, clock }
    const results = await runSuite(quotesSuite, options)
    const effect = results[1]
    const targets: Array<Target> = [{
      what: "in-process quote ÷ plain function",
      target: "≥ 0.6×",
      value: effect === undefined ? "–" : `×${effect.medianRatio.toFixed(2)} [${effect.ratioRange[0].toFixed(2)}–${effect.ratioRange[1].toFixed(2)}]`,
      pass: effect === undefined ? undefined : effect.medianRatio >= 0.6
    }]
    const unit = (clock ?? quotesSuite.clock ?? "cpu") === "cpu" ? "quotes per CPU-second" : "quotes/s"
    const text = [
      table(
        ["variant", `${unit}, median [min–max]`, "÷ plain (per round)"],
        results.map((r) => [
          r.name,
          `${fmt(r.medianOpsPerSecond)} [${fmt(Math.min(...r.opsPerSecond))}–${fmt(Math.max(...r.opsPerSecond))}]`,
          `×${r.medianRatio.toFixed(2)} [${r.ratioRange[0].toFixed(2)}–${r.ratioRange[1].toFixed(2)}]`
        ])
      ),
      "",
      `${options.rounds} interleaved rounds of ~${options.batchMs} ms batches after ${options.warmupMs} ms of untimed warm-up per variant; this process's CPU time (user+sys), not wall time.`
    ].join("\n")
    return { title: inProcessSection.title, table: text, results, targets }
  }
}
