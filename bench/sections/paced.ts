/**
 * Long-run stability at a paced load (issue 34, "What to build" 4): one `serve` process per store
 * (SQLite file, PostgreSQL database), signing keys in the database as an operator runs it
 * (`startRidequoteStoredKeys`), first loaded flat out for BENCH_PACED_PEAK_S to measure its peak,
 * then offered BENCH_PACED_FRACTION (0.6) of that peak, paced (open loop: a request is sent when
 * its time comes, whether or not earlier ones answered; `bench/probe/paced-load.mjs`), for
 * BENCH_PACED_MINUTES. Per minute: requests answered, latency p50/p90/p99/max (from the time each
 * request was due), the server's RSS, the audit's size on disk (SQLite: the file and its WAL;
 * PostgreSQL: the table, and the WAL bytes written that minute), the event loop's delay and the
 * time spent in garbage collection (both from `bench/probe/server-probe.mjs`, preloaded into the
 * server; it shares nothing with the engine).
 *
 * Targets (issue 34): p99 of the last 5 minutes ≤ 1.2 × that of minutes 2–6; RSS within ±10 %
 * (every reading from minute 2 on, against minute 2's). Both need ≥ 11 minutes to mean anything;
 * the default is shorter (BENCH_PACED_MINUTES=30 is the issue's run) and says so.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { spawn } from "node:child_process"
import { loadavg } from "node:os"
import { http, positiveNum, quick, REPO_ROOT } from "../lib/config.js"
import { runLoad } from "../lib/load.js"
import { createDatabase, postgresReachable, psql } from "../lib/postgres.js"
import { childEnv, makeTempDir, pinned, rssKb } from "../lib/procs.js"
import { createAccount, issueToken, probeQuote, quoteBody, startRidequoteStoredKeys } from "../lib/ridequote.js"
import { log } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import { fmt, median, table } from "../lib/stats.js"

const settings = {
  minutes: positiveNum("BENCH_PACED_MINUTES", quick ? 2 : 4),
  fraction: positiveNum("BENCH_PACED_FRACTION", 0.6),
  /** Seconds of each of the three flat-out runs whose median is the peak. */
  peakS: positiveNum("BENCH_PACED_PEAK_S", quick ? 3 : 10),
  stores: (process.env["BENCH_PACED_STORES"]?.trim() || "sqlite,postgres").split(",").map((s) => s.trim())
}

interface LoadLine {
  readonly t: number
  readonly final: boolean
  readonly cpuPct: number
  readonly backlog: number
  readonly due: number
  readonly answered: number
  readonly s2xx: number
  readonly other: number
  readonly errors: number
  readonly p50: number | null
  readonly p90: number | null
  readonly p99: number | null
  readonly max: number | null
}

interface ProbeLine {
  readonly t: number
  readonly eldP50: number
  readonly eldP99: number
  readonly eldMax: number
  readonly eldMean: number
  readonly gcMs: number
  readonly gcCount: number
  readonly gcMajorMs: number
  readonly heapUsedMb: number
  readonly heapTotalMb?: number
  readonly externalMb?: number
  readonly rssMb: number
  /** The resident size's parts (Linux): anonymous (the heaps), file-backed, shared memory. */
  readonly rssAnonMb?: number
  readonly rssFileMb?: number
  readonly rssShmemMb?: number
}

export interface Minute {
  readonly minute: number
  readonly answered: number
  readonly qps: number
  readonly non2xx: number
  readonly errors: number
  /** The load generator's CPU, % of its core. */
  readonly loadCpuPct: number
  /** Requests due and not yet sent at the minute's end (50 in flight at most). */
  readonly backlog: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
  readonly rssMb: number
  /** SQLite: the WAL file; PostgreSQL: WAL bytes written during the minute. */
  readonly walMb: number
  /** SQLite: the database file; PostgreSQL: the audit table with its indexes. */
  readonly dataMb: number
  /** Event-loop delay over the minute: the worst 10 s interval's p99 and max, the intervals' mean p50. */
  readonly eldP50: number
  readonly eldP99: number
  readonly eldMax: number
  /** Garbage collection during the minute: ms of pauses (all kinds) and of mark-compacts. */
  readonly gcMs: number
  readonly gcMajorMs: number
  readonly heapUsedMb: number
  /** V8's heap as reserved (what its part of RSS can be), and memory outside it that V8 tracks. */
  readonly heapTotalMb: number
  readonly externalMb: number
  /** Where the RSS is (Linux): anonymous memory (V8's heap and the native allocator's), file-backed pages, shared memory. */
  readonly rssAnonMb: number
  readonly rssFileMb: number
  readonly rssShmemMb: number
}

const size = (path: string): number => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

const readProbe = (file: string): Array<ProbeLine> =>
  existsSync(file)
    ? readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as ProbeLine)
    : []

/** One store's paced run: its minutes, peak and offered rate. */
const pacedRun = async (
  dir: string,
  store: "SQLite" | "PostgreSQL"
): Promise<{ peak: number; rate: number; minutes: Array<Minute> }> => {
  const database = store === "SQLite" ? join(dir, "paced.db") : createDatabase()
  const account = await createAccount(database)
  const probeFile = join(dir, `probe-${store}.jsonl`)
  const server = await startRidequoteStoredKeys(dir, database, { probeFile })
  try {
    const token = await issueToken(server.url, account)
    const body = quoteBody()
    await probeQuote(server.url, token, body)
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
    const spec = { path: "/v1/quote", method: "POST" as const, headers, body }
    await runLoad(server.url, spec, { durationS: http.warmupS })
    // The peak: the median of three runs (this host's speed moves by a quarter within a minute).
    const peaks: Array<number> = []
    for (let i = 0; i < 3; i++) peaks.push((await runLoad(server.url, spec, { durationS: settings.peakS })).rps)
    const peak = median(peaks)
    const rate = Math.max(1, Math.round(peak * settings.fraction))
    log(`paced ${store}: peak ${Math.round(peak)} quotes/s (median of ${peaks.map(Math.round).join(", ")}, ${settings.peakS} s each); offering ${rate}/s for ${settings.minutes} min`)

    const walBytes = () => (store === "PostgreSQL" ? Number(psql(database, "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) : 0)
    const sizes = () =>
      store === "SQLite"
        ? { walMb: size(`${database}-wal`) / 1e6, dataMb: size(database) / 1e6 }
        : { walMb: walBytes() / 1e6, dataMb: Number(psql(database, "SELECT pg_total_relation_size('audit')")) / 1e6 }
    let lastWal = sizes().walMb
    const probeStart = readProbe(probeFile).length
    let probeSeen = probeStart
    const minutes: Array<Minute> = []
    const [cmd = process.execPath, ...args] = pinned(http.loadCpu, [process.execPath, join(REPO_ROOT, "bench/probe/paced-load.mjs")])
    const child = spawn(
      cmd,
      args,
      {
        env: childEnv({
          BENCH_PACED_URL: `${server.url}/v1/quote`,
          BENCH_PACED_BODY: body,
          BENCH_PACED_HEADERS: JSON.stringify(headers),
          BENCH_PACED_RATE: String(rate),
          BENCH_PACED_SECONDS: String(settings.minutes * 60),
          BENCH_PACED_CONNECTIONS: String(http.connections),
          BENCH_PACED_REPORT_S: "60"
        }),
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    // Not one of procs' tracked children (its output is read here, line by line): killed with them.
    const killChild = () => child.kill("SIGKILL")
    process.once("exit", killChild)
    let buffer = ""
    const onLine = (line: LoadLine) => {
      // The 2 s drain after the last request was due: not a minute.
      if (line.final) return
      const probe = readProbe(probeFile)
      const fresh = probe.slice(probeSeen)
      probeSeen = probe.length
      const s = sizes()
      const wal = store === "PostgreSQL" ? s.walMb - lastWal : s.walMb
      lastWal = s.walMb
      const m: Minute = {
        minute: minutes.length + 1,
        answered: line.answered,
        qps: line.answered / 60,
        non2xx: line.other,
        errors: line.errors,
        loadCpuPct: line.cpuPct,
        backlog: line.backlog,
        p50: line.p50 ?? Number.NaN,
        p90: line.p90 ?? Number.NaN,
        p99: line.p99 ?? Number.NaN,
        max: line.max ?? Number.NaN,
        rssMb: (rssKb(server.pid) ?? Number.NaN) / 1024,
        walMb: wal,
        dataMb: s.dataMb,
        eldP50: median(fresh.map((p) => p.eldP50)),
        eldP99: fresh.length === 0 ? Number.NaN : Math.max(...fresh.map((p) => p.eldP99)),
        eldMax: fresh.length === 0 ? Number.NaN : Math.max(...fresh.map((p) => p.eldMax)),
        gcMs: fresh.reduce((a, p) => a + p.gcMs, 0),
        gcMajorMs: fresh.reduce((a, p) => a + p.gcMajorMs, 0),
        heapUsedMb: fresh.at(-1)?.heapUsedMb ?? Number.NaN,
        heapTotalMb: fresh.at(-1)?.heapTotalMb ?? Number.NaN,
        externalMb: fresh.at(-1)?.externalMb ?? Number.NaN,
        rssAnonMb: fresh.at(-1)?.rssAnonMb ?? Number.NaN,
        rssFileMb: fresh.at(-1)?.rssFileMb ?? Number.NaN,
        rssShmemMb: fresh.at(-1)?.rssShmemMb ?? Number.NaN
      }
      minutes.push(m)
      log(
        `paced ${store} minute ${m.minute}: ${fmt(m.qps)} quotes/s, p50 ${fmt(m.p50)} p99 ${fmt(m.p99)} max ${fmt(m.max)} ms, ` +
          `RSS ${fmt(m.rssMb)} MB (anon ${fmt(m.rssAnonMb)}, file ${fmt(m.rssFileMb)}, shmem ${fmt(m.rssShmemMb)}; heap ${fmt(m.heapUsedMb)} of ${fmt(m.heapTotalMb)}, external ${fmt(m.externalMb)}), WAL ${fmt(m.walMb)} MB, data ${fmt(m.dataMb)} MB, ELD p99 ${fmt(m.eldP99)} ms, GC ${fmt(m.gcMs)} ms ` +
          `(major ${fmt(m.gcMajorMs)}), non-2xx ${m.non2xx}, errors ${m.errors}, load generator ${m.loadCpuPct} % CPU, backlog ${m.backlog}, load avg ${loadavg()[0]?.toFixed(2)}`
      )
    }
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8")
      let nl: number
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        if (text.trim() !== "") onLine(JSON.parse(text) as LoadLine)
      }
    })
    await new Promise<void>((resolve) => child.once("close", () => resolve()))
    process.removeListener("exit", killChild)
    return { peak, rate, minutes }
  } finally {
    await server.stop()
  }
}

/** p99 of minutes [from, to] (1-based, inclusive): the median of those minutes' p99s. */
const p99Over = (minutes: ReadonlyArray<Minute>, from: number, to: number): number =>
  median(minutes.filter((m) => m.minute >= from && m.minute <= to).map((m) => m.p99))

export const pacedSection: Section = {
  id: "paced",
  title: `Paced load: ${Math.round(settings.fraction * 100)} % of peak for ${settings.minutes} min per store (latency, RSS, WAL, event-loop delay, GC per minute)`,
  run: async () => {
    const dir = makeTempDir("paced")
    const results: Record<string, { peak: number; rate: number; minutes: Array<Minute> }> = {}
    const targets: Array<Target> = []
    const parts: Array<string> = []
    const stores: Array<"SQLite" | "PostgreSQL"> = []
    if (settings.stores.includes("sqlite")) stores.push("SQLite")
    if (settings.stores.includes("postgres")) {
      if (postgresReachable()) stores.push("PostgreSQL")
      else parts.push("PostgreSQL skipped: unreachable (BENCH_POSTGRES_URL).")
    }
    for (const store of stores) {
      const run = await pacedRun(dir, store)
      results[store] = run
      const ms = run.minutes
      parts.push(
        `### ${store}: peak ${fmt(run.peak)} quotes/s, offered ${fmt(run.rate)}/s\n\n` +
          table(
            ["min", "quotes/s", "backlog", "load gen CPU %", "p50 ms", "p90 ms", "p99 ms", "max ms", "non-2xx", "RSS MB", store === "SQLite" ? "WAL MB" : "WAL MB written", "data MB", "ELD p50 ms", "ELD p99 ms", "ELD max ms", "GC ms", "of which major", "heap used / total MB", "RSS anon / file / shmem MB", "external MB"],
            ms.map((m) => [
              String(m.minute),
              fmt(m.qps),
              String(m.backlog),
              String(m.loadCpuPct),
              fmt(m.p50),
              fmt(m.p90),
              fmt(m.p99),
              fmt(m.max),
              String(m.non2xx + m.errors),
              fmt(m.rssMb),
              fmt(m.walMb),
              fmt(m.dataMb),
              fmt(m.eldP50),
              fmt(m.eldP99),
              fmt(m.eldMax),
              fmt(m.gcMs),
              fmt(m.gcMajorMs),
              `${fmt(m.heapUsedMb)} / ${fmt(m.heapTotalMb)}`,
              `${fmt(m.rssAnonMb)} / ${fmt(m.rssFileMb)} / ${fmt(m.rssShmemMb)}`,
              fmt(m.externalMb)
            ])
          )
      )
      const n = ms.length
      const early = p99Over(ms, 2, Math.min(6, n))
      const late = p99Over(ms, Math.max(1, n - 4), n)
      const rss2 = ms.find((m) => m.minute === 2)?.rssMb ?? Number.NaN
      const rssLater = ms.filter((m) => m.minute >= 2).map((m) => m.rssMb / rss2)
      const rssSpan = rssLater.length === 0 ? Number.NaN : Math.max(...rssLater.map((r) => Math.abs(r - 1)))
      const long = n >= 11
      targets.push(
        {
          what: `${store}: p99 of the last 5 minutes ÷ minutes 2–6 (${n} min at ${fmt(run.rate)}/s${long ? "" : "; shorter than the issue's 11+ min"})`,
          target: "≤ 1.2",
          value: `×${(late / early).toFixed(2)} (${fmt(late)} / ${fmt(early)} ms)`,
          pass: !Number.isFinite(late / early) ? undefined : late / early <= 1.2 ? (long ? true : undefined) : false
        },
        {
          what: `${store}: RSS from minute 2 on, against minute 2's`,
          target: "within ±10 %",
          value: `±${(rssSpan * 100).toFixed(1)} % (${fmt(Math.min(...ms.filter((m) => m.minute >= 2).map((m) => m.rssMb)))}–${fmt(Math.max(...ms.filter((m) => m.minute >= 2).map((m) => m.rssMb)))} MB)`,
          pass: !Number.isFinite(rssSpan) ? undefined : rssSpan <= 0.1 ? (long ? true : undefined) : false
        }
      )
    }
    parts.push(
      `Open-loop load (\`bench/probe/paced-load.mjs\`, ${http.connections} keep-alive connections at most, on core ${http.loadCpu}); latency from the moment ` +
        `each request was due. ELD: \`monitorEventLoopDelay\` (5 ms resolution) per 10 s, the minute's p50 the median of its intervals', its p99 and max the worst. ` +
        `GC: PerformanceObserver "gc" entries (pauses on the main thread). The peak is the median of three flat-out runs of ${settings.peakS} s.`
    )
    return { title: pacedSection.title, table: parts.join("\n\n"), results: { settings, stores: results }, targets }
  }
}
