/**
 * `pnpm bench [section …]`: runs the selected sections (all by default), prints each one's
 * table and a summary of the targets, and writes every figure to bench/results/latest.json
 * (BENCH_RESULTS). Benchmarks measure; nothing here is a test (no timing is asserted, the
 * exit status is 0 whether targets pass or not; it is 1 only when a section could not run).
 * Sections: see `sections` below; env knobs: bench/README.md. A new section is a module
 * exporting a `Section` (lib/section.ts), listed here.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, loadavg, totalmem } from "node:os"
import { dirname, join } from "node:path"
import { auditPageSection } from "./sections/audit-page.js"
import { facadeSection } from "./sections/facade.js"
import { httpSection, latencySection, layersSection, tokenSection } from "./sections/http.js"
import { inProcessSection } from "./sections/inprocess.js"
import { marketsSection } from "./sections/markets.js"
import { pacedSection } from "./sections/paced.js"
import { rssSection } from "./sections/rss.js"
import { startupSection } from "./sections/startup.js"
import { sustainedSection } from "./sections/sustained.js"
import { scaleOutSection } from "./scale-out.js"
import { http, quick, resultsFile, selected } from "./lib/config.js"
import { hasTaskset, installCleanup } from "./lib/procs.js"
import { serverCommand } from "./lib/ridequote.js"
import { passFail, type Section, type SectionReport, type Shared, type Target } from "./lib/section.js"
import { table } from "./lib/stats.js"

const sections: ReadonlyArray<Section> = [
  inProcessSection,
  facadeSection,
  httpSection,
  layersSection,
  latencySection,
  tokenSection,
  auditPageSection,
  rssSection,
  startupSection,
  // Issue 22: every shipped market against the four fitted ones (quote throughput, start-up).
  marketsSection,
  // One database per store for ≥ 1M quotes (~15 min); PostgreSQL part skipped when unreachable.
  sustainedSection,
  // Issue 34: minutes at 60 % of peak, paced; latency, RSS, WAL, event-loop delay, GC per minute.
  pacedSection,
  // Needs the machine's PostgreSQL (BENCH_POSTGRES_URL); reported as a section that could not run without it.
  scaleOutSection
]

installCleanup()

const wanted = selected(process.argv.slice(2))
const unknown = wanted.filter((w) => !sections.some((s) => s.id === w))
if (unknown.length > 0) {
  console.error(`unknown section(s): ${unknown.join(", ")}; known: ${sections.map((s) => s.id).join(", ")}`)
  process.exit(2)
}
const chosen = wanted.length === 0 ? sections : sections.filter((s) => wanted.includes(s.id))

const started = new Date()
const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "?",
  memoryGb: Math.round(totalmem() / 2 ** 30),
  loadavgAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
  taskset: hasTaskset,
  serverCommand: serverCommand().join(" "),
  quick,
  http
}
console.log(
  `ridequote bench ${started.toISOString()} — node ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, ` +
    `load avg ${machine.loadavgAtStart.join(" ")}${quick ? ", QUICK mode" : ""}\n` +
    `server: ${machine.serverCommand}; sections: ${chosen.map((s) => s.id).join(", ")}\n`
)

const shared: Shared = new Map()
const reports: Record<string, SectionReport | { error: string }> = {}
const allTargets: Array<Target & { section: string }> = []
let failed = false

/** latest.json, and a copy per invocation (results/<start time>-<sections>.json) so a later run does not erase it. */
const stamped = join(
  dirname(resultsFile),
  `${started.toISOString().replace(/[:.]/g, "-")}-${wanted.length === 0 ? "all" : chosen.map((s) => s.id).join("+")}.json`
)
const write = (): void => {
  mkdirSync(dirname(resultsFile), { recursive: true })
  const text =
    JSON.stringify({ started: started.toISOString(), finished: new Date().toISOString(), machine, sections: reports, targets: allTargets }, null, 2) + "\n"
  writeFileSync(resultsFile, text)
  writeFileSync(stamped, text)
}

for (const section of chosen) {
  const t0 = Date.now()
  try {
    const report = await section.run(shared)
    reports[section.id] = report
    for (const t of report.targets ?? []) allTargets.push({ section: section.id, ...t })
    console.log(`## ${report.title}  (${Math.round((Date.now() - t0) / 1000)} s)\n\n${report.table}\n`)
  } catch (error) {
    failed = true
    const message = error instanceof Error ? error.stack ?? error.message : String(error)
    reports[section.id] = { error: message }
    console.log(`## ${section.title}\n\nFAILED: ${message}\n`)
  }
  write()
}

if (allTargets.length > 0) {
  console.log(
    `## Targets (issue 7: speed; issue 15: the facade)\n\n${
      table(["section", "figure", "target", "measured", ""], allTargets.map((t) => [t.section, t.what, t.target, t.value, passFail(t.pass)]))
    }\n`
  )
}
console.log(`Results: ${resultsFile} and ${stamped} (${Math.round((Date.now() - started.getTime()) / 1000)} s in all)`)
process.exit(failed ? 1 : 0)
