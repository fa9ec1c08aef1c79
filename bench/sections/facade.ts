/** The Promise facade's in-process quote as a ratio to the Effect API's, in the same run (bench/facade.ts). */
import { inProcess } from "../lib/config.js"
import type { Section, Target } from "../lib/section.js"
import { fmt, table } from "../lib/stats.js"
import { runSuite } from "../harness.js"
import type { Options } from "../harness.js"
import { makeFacadeSuite } from "../facade.js"

export const facadeSection: Section = {
  id: "facade",
  title: "In-process: quotes/s through the Promise facade (createRidequote) vs the Effect API",
  run: async () => {
    const clockSetting = process.env["BENCH_CLOCK"]
    const clock = clockSetting === "cpu" || clockSetting === "wall" ? clockSetting : undefined
    const options: Options = { rounds: inProcess.rounds, batchMs: inProcess.batchMs, warmupMs: inProcess.warmupMs, clock }
    const bench = await makeFacadeSuite()
    try {
      const results = await runSuite(bench.suite, options)
      const facade = results[1]
      const targets: Array<Target> = [{
        what: "facade quote ÷ Effect API quote",
        target: "≥ 0.8×",
        value: facade === undefined ? "–" : `×${facade.medianRatio.toFixed(2)} [${facade.ratioRange[0].toFixed(2)}–${facade.ratioRange[1].toFixed(2)}]`,
        pass: facade === undefined ? undefined : facade.medianRatio >= 0.8
      }]
      const unit = (clock ?? "cpu") === "cpu" ? "quotes per CPU-second" : "quotes/s"
      const text = [
        table(
          ["variant", `${unit}, median [min–max]`, "÷ Effect API (per round)"],
          results.map((r) => [
            r.name,
            `${fmt(r.medianOpsPerSecond)} [${fmt(Math.min(...r.opsPerSecond))}–${fmt(Math.max(...r.opsPerSecond))}]`,
            `×${r.medianRatio.toFixed(2)} [${r.ratioRange[0].toFixed(2)}–${r.ratioRange[1].toFixed(2)}]`
          ])
        ),
        "",
        `${options.rounds} interleaved rounds of ~${options.batchMs} ms batches after ${options.warmupMs} ms of untimed warm-up per variant, one call awaited at a time; this process's CPU time (user+sys).`
      ].join("\n")
      return { title: facadeSection.title, table: text, results, targets }
    } finally {
      await bench.close()
    }
  }
}
