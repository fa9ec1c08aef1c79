/**
 * Every knob of `pnpm bench`, read once from the environment. BENCH_QUICK=1 shortens everything
 * for iterating (still 3 runs of each figure, so medians and ranges stay meaningful).
 */
import { fileURLToPath } from "node:url"

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url))

const env = (name: string): string | undefined => {
  const v = process.env[name]
  return v === undefined || v.trim() === "" ? undefined : v.trim()
}
const num = (name: string, fallback: number): number => {
  const v = env(name)
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, got ${v}`)
  return n
}
/** A section's knob that must be above zero (a count, a duration), or `fallback` when unset. */
export const positiveNum = (name: string, fallback: number): number => {
  const n = num(name, fallback)
  if (!(n > 0)) throw new Error(`${name} must be a number > 0, got ${env(name)}`)
  return n
}

export const quick = env("BENCH_QUICK") === "1" || env("BENCH_QUICK") === "true"

export interface HttpSettings {
  /** Load-test runs per configuration (≥ 3). */
  readonly rounds: number
  /** Seconds of each measured run. */
  readonly durationS: number
  /** Seconds of load before each measured run (discarded, but its 200s are audited too). */
  readonly warmupS: number
  readonly connections: number
  /** Offered rate of the fixed-rate latency section, requests/s. */
  readonly rate: number
  /** Cores for `taskset -c` (server, load generator). */
  readonly serverCpu: string
  readonly loadCpu: string
  /** Seconds to wait, at most, for both cores to be quieter than BENCH_QUIET_PCT before a run. */
  readonly quietWaitS: number
  readonly quietPct: number
}

export const http: HttpSettings = {
  rounds: Math.max(3, Math.floor(num("BENCH_HTTP_ROUNDS", 3))),
  durationS: num("BENCH_DURATION", quick ? 3 : 10),
  warmupS: num("BENCH_WARMUP", quick ? 1 : 3),
  connections: Math.max(1, Math.floor(num("BENCH_CONNECTIONS", 50))),
  rate: num("BENCH_RATE", 1000),
  serverCpu: env("BENCH_SERVER_CPU") ?? "0",
  loadCpu: env("BENCH_LOAD_CPU") ?? "1",
  quietWaitS: num("BENCH_QUIET_WAIT", quick ? 0 : 5),
  quietPct: num("BENCH_QUIET_PCT", 25)
}

export const inProcess = {
  rounds: Math.max(3, Math.floor(num("BENCH_ROUNDS", quick ? 3 : 7))),
  batchMs: num("BENCH_BATCH_MS", quick ? 150 : 300),
  /** Untimed JIT warm-up of each variant before calibration, ms of CPU time. */
  warmupMs: num("BENCH_INPROCESS_WARMUP_MS", quick ? 1_500 : 3_000)
}

export const auditPage = {
  rows: Math.floor(num("BENCH_AUDIT_ROWS", quick ? 100_000 : 1_000_000)),
  /** Keyset page this many entries deep into the hot account (60 % of the rows). */
  depth: Math.floor(num("BENCH_AUDIT_DEPTH", quick ? 50_000 : 500_000)),
  runs: Math.max(3, Math.floor(num("BENCH_AUDIT_RUNS", 5))),
  /** Keep the built file (and reuse one of the same size) in BENCH_AUDIT_DB instead of a temp dir. */
  keepFile: env("BENCH_AUDIT_DB"),
  /** Keep the PostgreSQL audit (and reuse one of the same size) in this database instead of a dropped one. */
  keepPostgres: env("BENCH_AUDIT_PG_DATABASE")
}

export const rss = {
  first: Math.floor(num("BENCH_RSS_FIRST", quick ? 20_000 : 200_000)),
  total: Math.floor(num("BENCH_RSS_TOTAL", quick ? 100_000 : 1_000_000)),
  /** Wall-clock cap on the whole RSS section; when hit, the figures are for the quotes reached. */
  maxSeconds: num("BENCH_RSS_MAX_SECONDS", quick ? 120 : 420)
}

export const resultsFile = env("BENCH_RESULTS") ?? `${REPO_ROOT}bench/results/latest.json`

/** Sections selected by argv (`pnpm bench http layers`) or BENCH_ONLY=http,layers; empty = all. */
export const selected = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const fromArgs = argv.flatMap((a) => a.split(",")).map((s) => s.trim()).filter((s) => s !== "" && s !== "--")
  const fromEnv = (env("BENCH_ONLY") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  return [...fromArgs, ...fromEnv]
}
