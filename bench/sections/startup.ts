/**
 * Startup of the `ridequote` program (issue 10): how long an operator waits for `--help`, and
 * for `serve` to answer `GET /health/ready` 200 on a new SQLite file. Each command runs
 * BENCH_STARTUP_RUNS times (5; ≥ 3) in turn with a baseline, `node -e 0`, measured in the same
 * round; figures are wall-clock seconds, median [min–max], and the ratio to the baseline.
 *
 * - compiled: `node packages/server/bin/ridequote.js …` (what `pnpm ridequote` and `pnpm start`
 *   exec, dist/ built by `pnpm install`); the target applies to it.
 * - sources: `node --import tsx packages/server/src/bin.ts …` (how ridequote ran before the
 *   build, and how the test helpers still run the sources), for comparison.
 * - pnpm: `pnpm ridequote --help` with pnpm's own start-up on top (npm_execpath, when the
 *   bench itself runs under pnpm).
 */
import { join } from "node:path"
import { cpuMicros, makeTempDir, runCaptured, sleep, spawnTracked, stop } from "../lib/procs.js"
import { COMPILED_CMD as COMPILED, SOURCES_CMD as SOURCES } from "../lib/ridequote.js"
import type { Section, Target } from "../lib/section.js"
import { fmt, fmtRatio, fmtSpread, type Spread, spread, table } from "../lib/stats.js"

const RUNS = Math.max(3, Number(process.env["BENCH_STARTUP_RUNS"] ?? "5") || 5)
const HELP_TARGET_S = 0.5
const READY_TARGET_S = 1.5


/** Wall-clock seconds of one run of argv to completion (exit 0 required). */
const timeRun = async (argv: ReadonlyArray<string>): Promise<number> => {
  const started = process.hrtime.bigint()
  const out = await runCaptured(argv, {}, 120_000)
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (out.code !== 0) throw new Error(`${argv.join(" ")} exited ${out.code}: ${out.stderr.slice(-500)}`)
  return seconds
}

/** Seconds from spawning `serve` on a new database until GET /health/ready answers 200. */
const timeReady = async (argv: ReadonlyArray<string>, dir: string, n: number): Promise<number> =>
  (await readyTiming(argv, dir, n)).seconds

/**
 * `serve` (with `extra` arguments) on a new database until GET /health/ready answers 200: the
 * wall-clock seconds, and the CPU seconds the server process used by then (steadier than the
 * wall clock on the shared machine).
 */
export const readyTiming = async (
  argv: ReadonlyArray<string>,
  dir: string,
  n: number,
  extra: ReadonlyArray<string> = []
): Promise<{ readonly seconds: number; readonly cpuSeconds: number }> => {
  const port = 19_400 + (process.pid % 200) + n
  const s = spawnTracked(
    [...argv, "serve", "--database", join(dir, `ready-${n}.db`), "--port", String(port), ...extra],
    {},
    join(dir, `ready-${n}.out.log`),
    join(dir, `ready-${n}.err.log`)
  )
  const started = process.hrtime.bigint()
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status === 200, () => false)
      if (ok) {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9
        return { seconds, cpuSeconds: (cpuMicros(s.pid) ?? Number.NaN) / 1e6 }
      }
      if (Number(process.hrtime.bigint() - started) / 1e9 > 120) throw new Error("serve not ready within 120 s")
      if (s.child.exitCode !== null) throw new Error(`serve exited ${s.child.exitCode} before it was ready`)
      await sleep(10)
    }
  } finally {
    await stop(s)
  }
}

interface Row {
  readonly what: string
  readonly seconds: Spread
  readonly ratio: Spread
}

export const startupSection: Section = {
  id: "startup",
  title: `Startup of ridequote: --help and serve ready (${RUNS} runs each, seconds, ratio to \`node -e 0\`)`,
  run: async () => {
    const dir = makeTempDir("startup")
    // One untimed run each: dist/ up to date (rebuilt if a source changed), files in the page cache.
    await timeRun([...COMPILED, "--version"])
    await timeRun([...SOURCES, "--version"])
    const pnpm = process.env["npm_execpath"]
    const cases: Array<{ what: string; run: (i: number) => Promise<number> }> = [
      { what: "compiled: ridequote --help", run: () => timeRun([...COMPILED, "--help"]) },
      { what: "compiled: ridequote serve --help", run: () => timeRun([...COMPILED, "serve", "--help"]) },
      { what: "compiled: ridequote accounts create --help", run: () => timeRun([...COMPILED, "accounts", "create", "--help"]) },
      { what: "compiled: serve until /health/ready 200", run: (i) => timeReady(COMPILED, dir, i) },
      { what: "sources (tsx): ridequote serve --help", run: () => timeRun([...SOURCES, "serve", "--help"]) },
      { what: "sources (tsx): serve until /health/ready 200", run: (i) => timeReady(SOURCES, dir, 100 + i) }
    ]
    if (pnpm !== undefined && /pnpm/.test(pnpm)) {
      cases.push({ what: "pnpm -s ridequote serve --help", run: () => timeRun(["node", pnpm, "-s", "ridequote", "serve", "--help"]) })
    }
    const seconds = new Map<string, Array<number>>(cases.map((c) => [c.what, []]))
    const ratios = new Map<string, Array<number>>(cases.map((c) => [c.what, []]))
    const baseline: Array<number> = []
    for (let round = 0; round < RUNS; round++) {
      const base = await timeRun(["node", "-e", "0"])
      baseline.push(base)
      // Rotate the order every round, so a noisy moment does not always hit the same command.
      for (let k = 0; k < cases.length; k++) {
        const c = cases[(k + round) % cases.length]
        if (c === undefined) continue
        const s = await c.run(round)
        seconds.get(c.what)?.push(s)
        ratios.get(c.what)?.push(s / base)
      }
      process.stderr.write(`startup: round ${round + 1}/${RUNS} done\n`)
    }
    const rows: Array<Row> = cases.map((c) => ({
      what: c.what,
      seconds: spread(seconds.get(c.what) ?? []),
      ratio: spread(ratios.get(c.what) ?? [])
    }))
    const base = spread(baseline)
    const helpWorst = Math.max(...rows.filter((r) => r.what.startsWith("compiled:") && r.what.endsWith("--help")).map((r) => r.seconds.median))
    const ready = rows.find((r) => r.what === "compiled: serve until /health/ready 200")?.seconds.median ?? Number.NaN
    const targets: Array<Target> = [
      { what: "compiled ridequote … --help (slowest median)", target: `≤ ${HELP_TARGET_S} s`, value: `${fmt(helpWorst)} s`, pass: Number.isFinite(helpWorst) ? helpWorst <= HELP_TARGET_S : undefined },
      { what: "compiled serve until /health/ready 200 (median)", target: `≤ ${READY_TARGET_S} s`, value: `${fmt(ready)} s`, pass: Number.isFinite(ready) ? ready <= READY_TARGET_S : undefined }
    ]
    const text = table(
      ["command", "seconds", "× node -e 0"],
      [["baseline: node -e 0", fmtSpread(base), "×1"], ...rows.map((r) => [r.what, fmtSpread(r.seconds), fmtRatio(r.ratio)])]
    )
    return {
      title: startupSection.title,
      table: text,
      results: { runs: RUNS, baselineSeconds: base, rows },
      targets
    }
  }
}
