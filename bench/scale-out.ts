/**
 * Scale-out on PostgreSQL (issue 8). Runnable alone: `npx -y pnpm@10 exec tsx bench/scale-out.ts`;
 * also a `pnpm bench` section (`scaleOutSection`, id "scale-out").
 *
 *   revocation  three `serve` processes on one PostgreSQL database, refresh interval 60 s (so
 *               only NOTIFY can deliver in time): issue a token on A, warm it on B and C, revoke
 *               it on A, and poll B and C (every ~2 ms) until each answers 401; the latency of a
 *               revocation is from sending the revoke to the later of B's and C's first refusal.
 *               Median and p99 over BENCH_REVOCATIONS (default 200) revocations.
 *   throughput  POST /v1/quote under autocannon, in interleaved rounds with a fresh database per
 *               run: SQLite (1 instance), PostgreSQL (1 instance), PostgreSQL (3 instances, the
 *               load split over them). Ratios are taken within each round. Every server process
 *               is pinned to the server core (the 3 instances share it: the same CPU budget as
 *               one), autocannon to the load core; PostgreSQL itself is not pinned and its CPU is
 *               not in "server CPU µs/req". After each run the audit is counted: every 200 must be in it.
 *
 * Needs the machine's PostgreSQL (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test,
 * trust auth) and `psql`. Benchmarks measure; nothing here is asserted.
 */
import { execFileSync } from "node:child_process"
import { loadavg } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { countQuoted } from "./lib/audit-count.js"
import { http, quick } from "./lib/config.js"
import { type LoadResult, runLoad } from "./lib/load.js"
import {
  coreBusy,
  cpuMicros,
  hasTaskset,
  installCleanup,
  makeTempDir,
  pinned,
  removeTempDir,
  sleep,
  spawnTracked,
  stop,
  waitForListening,
  waitQuiet
} from "./lib/procs.js"
import { type Account, createAccount, issueToken, JWT_SECRET, quoteBody, serverCommand } from "./lib/ridequote.js"
import { log } from "./lib/rounds.js"
import type { Section, SectionReport, Target } from "./lib/section.js"
import { fmt, fmtRatio, fmtSpread, median, type Spread, spread, table } from "./lib/stats.js"

const ADMIN_URL = process.env["BENCH_POSTGRES_URL"]?.trim() || "postgres://postgres@127.0.0.1:5432/test"
const REVOCATIONS = Math.max(1, Number(process.env["BENCH_REVOCATIONS"] ?? (quick ? 50 : 200)))
/** BENCH_SCALE_OUT=revocation|throughput runs one part only (default: both). */
const PARTS = process.env["BENCH_SCALE_OUT"]?.trim() || "all"
const runRevocations = PARTS === "all" || PARTS === "revocation"
const runThroughput = PARTS === "all" || PARTS === "throughput"
const INSTANCES = 3
/** Pause between two probes of one instance, ms: the resolution of the latency figures. */
const PROBE_PAUSE_MS = 2

// ---- PostgreSQL, through psql (no driver needed here) ----------------------------------------

const psql = (url: string, statement: string): string =>
  execFileSync("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement], {
    encoding: "utf8"
  }).trim()

const databaseUrl = (name: string): string => {
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

let databases = 0
const run = `rq_bench_${Date.now().toString(36)}_${process.pid}`

/** A new, empty database (dropped by `dropAll`). */
const createDatabase = (): string => {
  const name = `${run}_${++databases}`
  psql(ADMIN_URL, `CREATE DATABASE ${name}`)
  created.push(name)
  return databaseUrl(name)
}
const created: Array<string> = []
const dropAll = (): void => {
  for (const name of created.splice(0)) {
    try {
      psql(ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    } catch (error) {
      log(`could not drop ${name}: ${String(error)}`)
    }
  }
}

const countQuotedPostgres = (url: string): number =>
  Number(psql(url, "SELECT count(*) FROM audit WHERE (entry::json -> 'decision' ->> 'outcome') = 'quoted'"))

// ---- serve processes ---------------------------------------------------------------------------

interface Instance {
  readonly url: string
  readonly pid: number
  readonly stop: () => Promise<void>
}

let serial = 0

/** `ridequote serve` on `database` (rate limit off, port 0) with extra settings, pinned to the server core unless `cpus` says otherwise. */
const startInstance = async (
  dir: string,
  database: string,
  env: Record<string, string> = {},
  cpus: string | undefined = http.serverCpu
): Promise<Instance> => {
  const n = ++serial
  const out = join(dir, `scale-serve-${n}.out.log`)
  const err = join(dir, `scale-serve-${n}.err.log`)
  const argv = [...serverCommand(), "serve", "--database", database, "--port", "0", "--host", "127.0.0.1", "--rate-limit", "0", "--sample-fallback", "on"]
  const spawned = spawnTracked(pinned(cpus, argv), { RIDEQUOTE_JWT_SECRET: JWT_SECRET, ...env }, out, err)
  const url = await waitForListening(out, spawned, err)
  return { url, pid: spawned.pid, stop: () => stop(spawned) }
}

const call = async (url: string, init: RequestInit = {}): Promise<number> => {
  const res = await fetch(url, init)
  await res.arrayBuffer()
  return res.status
}

// ---- revocation propagation ---------------------------------------------------------------------

interface RevocationResults {
  readonly revocations: number
  /** Per revocation: send of the revoke on A until both B and C have refused, ms. */
  readonly bothMs: ReadonlyArray<number>
  /** Per instance (B, C): send of the revoke until that instance first refused, ms. */
  readonly perInstanceMs: ReadonlyArray<ReadonlyArray<number>>
  /** Send of the revoke until A answered it (the commit is done), ms. */
  readonly revokeAnsweredMs: ReadonlyArray<number>
  /** A's answer (the change committed and notified) until both B and C refused, ms. */
  readonly afterAnswerMs: ReadonlyArray<number>
  /** Probes B and C answered before refusing (each one an HTTP round trip). */
  readonly probes: number
}

const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? Number.NaN
}

const measureRevocations = async (dir: string, database: string, account: Account): Promise<RevocationResults> => {
  // Refresh every 60 s: a refusal within a second can only have come through NOTIFY. Not
  // pinned: three instances and the probes on one core would measure the queue for that core.
  const instances = await Promise.all(
    Array.from({ length: INSTANCES }, () => startInstance(dir, database, { RIDEQUOTE_REFRESH_INTERVAL: "60" }, undefined))
  )
  try {
    const [a, ...others] = instances
    if (a === undefined) throw new Error("no instance")
    const bothMs: Array<number> = []
    const perInstanceMs: Array<Array<number>> = others.map(() => [])
    const revokeAnsweredMs: Array<number> = []
    const afterAnswerMs: Array<number> = []
    let probes = 0
    for (let i = 0; i < REVOCATIONS; i++) {
      const token = await issueToken(a.url, account)
      const jti = (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { jti: string }).jti
      const auth = { authorization: `Bearer ${token}` }
      for (const other of others) {
        const status = await call(`${other.url}/v1/customer/me`, { headers: auth })
        if (status !== 200) throw new Error(`fresh token refused by ${other.url}: ${status}`)
      }
      const t0 = performance.now()
      const revoked = call(`${a.url}/v1/auth/revoke`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ jti })
      }).then((status) => {
        if (status !== 200) throw new Error(`revoke answered ${status}`)
        revokeAnsweredMs.push(performance.now() - t0)
      })
      const refusedAfter = await Promise.all(
        others.map(async (other) => {
          for (;;) {
            const status = await call(`${other.url}/v1/customer/me`, { headers: auth })
            probes++
            if (status === 401) return performance.now() - t0
            if (status !== 200) throw new Error(`probe of ${other.url} answered ${status}`)
            if (performance.now() - t0 > 120_000) throw new Error("a revocation did not arrive within 120 s")
            // a short pause between probes: back to back they would keep the instance busy
            // answering them instead of applying the change
            await sleep(PROBE_PAUSE_MS)
          }
        })
      )
      await revoked
      refusedAfter.forEach((ms, k) => perInstanceMs[k]?.push(ms))
      bothMs.push(Math.max(...refusedAfter))
      afterAnswerMs.push(Math.max(0, Math.max(...refusedAfter) - (revokeAnsweredMs.at(-1) ?? 0)))
      if ((i + 1) % 50 === 0) log(`revocation ${i + 1}/${REVOCATIONS}: median so far ${fmt(median(bothMs))} ms`)
    }
    return { revocations: REVOCATIONS, bothMs, perInstanceMs, revokeAnsweredMs, afterAnswerMs, probes }
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()))
  }
}

// ---- throughput ----------------------------------------------------------------------------------

interface Config {
  readonly name: string
  readonly instances: number
  readonly dialect: "sqlite" | "postgres"
}

const SQLITE_1: Config = { name: "SQLite, 1 instance", instances: 1, dialect: "sqlite" }
const PG_1: Config = { name: "PostgreSQL, 1 instance", instances: 1, dialect: "postgres" }
const PG_3: Config = { name: `PostgreSQL, ${INSTANCES} instances`, instances: INSTANCES, dialect: "postgres" }
const CONFIGS = [SQLITE_1, PG_1, PG_3]

interface ThroughputRun {
  readonly round: number
  readonly config: string
  /** Sum over the instances of answered requests per second. */
  readonly rps: number
  /** Worst instance's p50 / p99, ms. */
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
  readonly cpuPerRequestUs: number
  readonly answered200: number
  readonly audited200: number
  readonly coresBusyPct: Record<string, number>
}

/** Fresh database, account and token; `instances` servers; warm-up and measured load split over them. */
const throughputRun = async (dir: string, config: Config, round: number): Promise<ThroughputRun> => {
  const database = config.dialect === "sqlite" ? join(dir, `scale-${round}-${serial + 1}.db`) : createDatabase()
  const account = await createAccount(database)
  const instances: Array<Instance> = []
  try {
    for (let i = 0; i < config.instances; i++) instances.push(await startInstance(dir, database))
    const [first] = instances
    if (first === undefined) throw new Error("no instance")
    const token = await issueToken(first.url, account)
    const spec = {
      path: "/v1/quote",
      method: "POST" as const,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: quoteBody()
    }
    const share = (i: number) => Math.floor(http.connections / instances.length) + (i < http.connections % instances.length ? 1 : 0)
    const loadAll = (durationS: number): Promise<Array<LoadResult>> =>
      Promise.all(instances.map((instance, i) => runLoad(instance.url, spec, { connections: share(i), durationS })))
    await waitQuiet(http.quietWaitS, http.quietPct)
    const warmup = await loadAll(http.warmupS)
    const busy = coreBusy()
    const cpu0 = instances.map((instance) => cpuMicros(instance.pid) ?? Number.NaN)
    const measured = await loadAll(http.durationS)
    const cpu1 = instances.map((instance) => cpuMicros(instance.pid) ?? Number.NaN)
    const coresBusyPct = busy()
    const audited = config.dialect === "sqlite" ? countQuoted(database) : countQuotedPostgres(database)
    const answered200 = [...warmup, ...measured].reduce((n, r) => n + r.s2xx, 0)
    const answered = measured.reduce((n, r) => n + r.s2xx + r.non2xx, 0)
    const cpuUs = cpu1.reduce((n, c, i) => n + c - (cpu0[i] ?? Number.NaN), 0)
    const result: ThroughputRun = {
      round,
      config: config.name,
      rps: measured.reduce((n, r) => n + r.rps, 0),
      p50: Math.max(...measured.map((r) => r.p50)),
      p99: Math.max(...measured.map((r) => r.p99)),
      non2xx: [...warmup, ...measured].reduce((n, r) => n + r.non2xx, 0),
      errors: [...warmup, ...measured].reduce((n, r) => n + r.errors + r.timeouts, 0),
      cpuPerRequestUs: answered > 0 ? cpuUs / answered : Number.NaN,
      answered200,
      audited200: Math.min(audited, answered200),
      coresBusyPct
    }
    log(
      `scale-out round ${round + 1} ${config.name}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, ` +
        `non-2xx ${result.non2xx}, errors ${result.errors}, ${Math.round(result.cpuPerRequestUs)} µs CPU/req, ` +
        `audit ${audited} rows for ${answered200} 200s, cores ${JSON.stringify(coresBusyPct)}`
    )
    return result
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()))
  }
}

const ratioPerRound = (runs: ReadonlyArray<ThroughputRun>, config: string, baseline: string): Spread => {
  const base = new Map(runs.filter((r) => r.config === baseline).map((r) => [r.round, r.rps]))
  return spread(runs.filter((r) => r.config === config).map((r) => r.rps / (base.get(r.round) ?? Number.NaN)))
}

const perRoundRatios = (runs: ReadonlyArray<ThroughputRun>, config: string): Array<number> => {
  const base = new Map(runs.filter((r) => r.config === SQLITE_1.name).map((r) => [r.round, r.rps]))
  return runs.filter((r) => r.config === config).map((r) => r.rps / (base.get(r.round) ?? Number.NaN))
}

// ---- the section ---------------------------------------------------------------------------------

export const runScaleOut = async (): Promise<SectionReport> => {
  const dir = makeTempDir("scale-out")
  const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10)
  try {
    psql(ADMIN_URL, "SELECT 1")
    let revocations: RevocationResults = {
      revocations: 0,
      bothMs: [],
      perInstanceMs: [[], []],
      revokeAnsweredMs: [],
      afterAnswerMs: [],
      probes: 0
    }
    if (runRevocations) {
      log(`scale-out: ${REVOCATIONS} revocations across ${INSTANCES} instances on one PostgreSQL database`)
      const revocationDb = createDatabase()
      const account = await createAccount(revocationDb, "revocations")
      revocations = await measureRevocations(dir, revocationDb, account)
    }

    const runs: Array<ThroughputRun> = []
    if (runThroughput) log(`scale-out: throughput, ${http.rounds} rounds × ${CONFIGS.length} configurations`)
    for (let round = 0; runThroughput && round < http.rounds; round++) {
      const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length]).filter((c): c is Config => c !== undefined)
      for (const config of order) runs.push(await throughputRun(dir, config, round))
    }

    const both = revocations.bothMs
    const latency = {
      median: median(both),
      p99: percentile(both, 0.99),
      max: Math.max(...both),
      perInstanceMedian: revocations.perInstanceMs.map((xs) => median(xs)),
      revokeAnsweredMedian: median(revocations.revokeAnsweredMs),
      afterAnswer: {
        median: median(revocations.afterAnswerMs),
        p99: percentile(revocations.afterAnswerMs, 0.99)
      }
    }
    const sums = CONFIGS.map((config) => {
      const mine = runs.filter((r) => r.config === config.name)
      return {
        config: config.name,
        rps: spread(mine.map((r) => r.rps)),
        p50: spread(mine.map((r) => r.p50)),
        p99: spread(mine.map((r) => r.p99)),
        cpuPerRequestUs: spread(mine.map((r) => r.cpuPerRequestUs)),
        non2xx: mine.reduce((n, r) => n + r.non2xx, 0),
        errors: mine.reduce((n, r) => n + r.errors, 0),
        answered200: mine.reduce((n, r) => n + r.answered200, 0),
        audited200: mine.reduce((n, r) => n + r.audited200, 0),
        vsSqlite: ratioPerRound(runs, config.name, SQLITE_1.name)
      }
    })
    const pg1 = sums.find((s) => s.config === PG_1.name)
    const targets: Array<Target> = [
      {
        what: `revocation propagation p99 (${revocations.revocations} revocations, ${INSTANCES} instances)`,
        target: "< 1 s",
        value: `${fmt(latency.p99)} ms`,
        pass: Number.isFinite(latency.p99) ? latency.p99 < 1000 : undefined
      },
      {
        what: "quote req/s on PostgreSQL ÷ SQLite (same rounds)",
        target: "≥ 0.7×",
        value: pg1 === undefined ? "–" : fmtRatio(pg1.vsSqlite),
        pass: pg1 === undefined || Number.isNaN(pg1.vsSqlite.median) ? undefined : pg1.vsSqlite.median >= 0.7
      },
      {
        what: "every 200 in the audit (all configurations)",
        target: "all",
        value: `${sums.reduce((n, s) => n + s.audited200, 0)} of ${sums.reduce((n, s) => n + s.answered200, 0)}`,
        pass: sums.every((s) => s.audited200 === s.answered200)
      }
    ]
    const revocationText = [
      table(
        ["revocation, A → B and C (NOTIFY path; refresh interval 60 s)", "median ms", "p99 ms", "max ms"],
        [
          [`${revocations.revocations} revocations: send of the revoke on A → both refuse`, fmt(latency.median), fmt(latency.p99), fmt(latency.max)],
          [
            "A's answer (committed, notified) → both refuse",
            fmt(latency.afterAnswer.median),
            fmt(latency.afterAnswer.p99),
            fmt(Math.max(...revocations.afterAnswerMs))
          ]
        ]
      ),
      "",
      `Per instance, median: B ${fmt(latency.perInstanceMedian[0] ?? Number.NaN)} ms, C ${fmt(latency.perInstanceMedian[1] ?? Number.NaN)} ms; ` +
        `A answered the revoke after ${fmt(latency.revokeAnsweredMedian)} ms (median). Measured from sending the revoke to ` +
        `the later of B's and C's first 401, probing each every ~${PROBE_PAUSE_MS} ms plus a round trip ` +
        `(${revocations.probes} probes in all); the three instances unpinned.`,
      ""
    ]
    const throughputText = [
      table(
        ["POST /v1/quote", "req/s", "p50 ms", "p99 ms", "non-2xx", "server CPU µs/req", "÷ SQLite (same round)"],
        sums.map((s) => [
          s.config,
          fmtSpread(s.rps),
          fmtSpread(s.p50),
          fmtSpread(s.p99),
          `${s.non2xx}${s.errors > 0 ? ` (+${s.errors} errors)` : ""}`,
          fmtSpread(s.cpuPerRequestUs),
          s.config === SQLITE_1.name ? "×1" : fmtRatio(s.vsSqlite)
        ])
      ),
      "",
      `Audit: ${sums.map((s) => `${s.config} ${s.audited200} of ${s.answered200} 200s`).join("; ")} (counted right after each run).`,
      `Per-round req/s ratio ÷ SQLite (a disturbed round shows here): ${
        [PG_1, PG_3].map((c) => `${c.name} ${perRoundRatios(runs, c.name).map((x) => fmt(x, 2)).join(", ")}`).join("; ")
      }.`,
      `${http.rounds} rounds × ${http.durationS} s measured (after ${http.warmupS} s warm-up), ${http.connections} connections ` +
        `(split over the instances), fresh database and server processes per run, order rotated per round; ` +
        (hasTaskset
          ? `every ridequote process on core ${http.serverCpu} (the ${INSTANCES} instances share it), autocannon on core ${http.loadCpu}, PostgreSQL unpinned.`
          : "no taskset: nothing pinned.") +
        ` p50/p99 of ${INSTANCES} instances: the worst instance's.`
    ]
    const text = [
      ...(runRevocations ? revocationText : []),
      ...(runThroughput ? throughputText : []),
      `Load average (1, 5, 15 min) at start ${loadAtStart.join(" ")}, at end ${loadavg().map((x) => fmt(x, 1)).join(" ")}.`
    ].join("\n")
    return {
      title: scaleOutSection.title,
      table: text,
      results: {
        revocations: { ...revocations, latency },
        throughput: { summaries: sums, runs },
        loadavg: { start: loadAtStart, end: loadavg() }
      },
      targets
    }
  } finally {
    dropAll()
    removeTempDir(dir)
  }
}

export const scaleOutSection: Section = {
  id: "scale-out",
  title: "Scale-out on PostgreSQL: revocation propagation across instances, quote throughput vs SQLite",
  run: () => runScaleOut()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  installCleanup()
  const report = await runScaleOut()
  console.log(`## ${report.title}\n\n${report.table}\n`)
  for (const t of report.targets ?? []) console.log(`${t.what}: ${t.value} (target ${t.target})`)
  process.exit(0)
}
