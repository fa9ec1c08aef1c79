/**
 * Throughput that holds (issues 23 and 34): per store (SQLite file, PostgreSQL database), one
 * `serve` process on ONE database, run as an operator runs it (signing keys in the database, so
 * the minute's key reload runs: a bench on RIDEQUOTE_JWT_SECRET never saw issue 34's step), and
 * beside it a **control that shares no code with the engine** (bench/reference/same-work.ts:
 * plain node:http doing the quote's work by hand, the same driver — libsql on SQLite,
 * node-postgres on PostgreSQL —, the engine's audit table shape, rows padded to the bytes of
 * ridequote's entries, group commit, synchronous=FULL / synchronous_commit on). Both start
 * together and are loaded round after round until ridequote has been up
 * BENCH_SUSTAINED_MIN_UPTIME_S (300) and recorded BENCH_SUSTAINED_QUOTES (250,000; the issue's
 * long run: 1,000,000) quotes, so both audits grow as in production.
 *
 * A round: each of the two alone for BENCH_SUSTAINED_ROUND_S with every connection (the order
 * alternating), then both served at once for BENCH_SUSTAINED_PAIR_S, each in a session of its own
 * (one scheduler autogroup each: half the server core each), half the connections each. Alone
 * gives each round's quotes/s; at once gives a ratio this host's drift (a quarter within
 * minutes) cannot tilt. Per round: quotes/s of both, the ratios, CPU µs per quote per thread
 * (from /proc/<pid>/task/<tid>/stat: the event loop; the busiest other thread, SQLite's audit writer;
 * the rest), RSS, the WAL's size, p99. A round more than 10 % below the first rounds (in
 * ridequote's or the control's quotes/s, or in the ratio at once), or whose event loop needs 10 %
 * more CPU per quote, is printed as SLOWER, whatever the cause.
 *
 * Reported per store: the rounds, last three ÷ first three (ridequote, the control, the ratio at
 * once), ridequote ÷ control over the run, bytes per audit entry on disk, and GET
 * /v1/audit/recent at the end (first page and a keyset page halfway down, over HTTP, median of
 * BENCH_SUSTAINED_PAGES requests each, and AuditLog.pageJson in process).
 *
 * Then retention, one store at a time, on twins: the store's server stopped, its database is
 * copied, the older BENCH_SUSTAINED_RETENTION_FRACTION (0.5) of the audit moved three days back
 * in the original (one UPDATE; retention deletes it) and one day back in the copy (kept). Both
 * then serve at once, each with RIDEQUOTE_AUDIT_RETENTION_DAYS=2 in a session of its own, on the
 * same core, and each round loads both together with half the connections each, until nothing
 * old is left and BENCH_SUSTAINED_RETENTION_ROUNDS more have run. Retention's cost is the
 * original's req/s ÷ the twin's in the same round, over the rounds that ended with old rows
 * still stored: the two share the core's time (one scheduler autogroup each) and whatever the
 * machine does to it.
 */
import { execFileSync } from "node:child_process"
import { loadavg } from "node:os"
import { existsSync, rmSync, statSync } from "node:fs"
import { DateTime, Layer, ManagedRuntime, Redacted } from "effect"
import type { AccountId, AuditQuery, RequestId } from "../../packages/core/src/index.js"
import { AuditLog } from "../../packages/core/src/index.js"
import { SqlAuditLogLive } from "../../packages/storage-sql/src/index.js"
import { PostgresClientLive } from "../../packages/storage-postgres/src/index.js"
import { SqliteClientLive } from "../../packages/storage-sqlite/src/index.js"
import { join } from "node:path"
import { http, positiveNum, quick } from "../lib/config.js"
import { type LoadSpec, runLoad } from "../lib/load.js"
import { createDatabase, dropDatabase, postgresReachable, psql } from "../lib/postgres.js"
import { HALF_CONNECTIONS, loadTogether } from "../lib/paired.js"
import { makeTempDir, pinned, rssKb, spawnTracked, stop, threadCpuMicros, waitForListening, waitQuiet } from "../lib/procs.js"
import { startControl } from "../lib/references.js"
import { createAccount, issueToken, JWT_SECRET, mintToken, probeQuote, quoteBody, type Server, serverCommand } from "../lib/ridequote.js"
import { log } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import Database, { type Database as Db } from "../lib/sqlite.js"
import { fmt, fmtRatio, median, spread, table } from "../lib/stats.js"

const settings = {
  /** Quotes each ridequote server records before the rounds stop. */
  quotes: positiveNum("BENCH_SUSTAINED_QUOTES", quick ? 50_000 : 250_000),
  /** Seconds ridequote is up, at least, before the rounds stop (the issue-34 step came at 60 s). */
  minUptimeS: positiveNum("BENCH_SUSTAINED_MIN_UPTIME_S", quick ? 90 : 300),
  roundS: positiveNum("BENCH_SUSTAINED_ROUND_S", quick ? 5 : 15),
  /** Seconds of each round's paired measure: the store's server and the control served at once. */
  pairS: positiveNum("BENCH_SUSTAINED_PAIR_S", quick ? 3 : 6),
  /** Rounds at each end compared (first vs last). */
  edge: 3,
  maxRounds: positiveNum("BENCH_SUSTAINED_MAX_ROUNDS", 200),
  pages: positiveNum("BENCH_SUSTAINED_PAGES", quick ? 50 : 200),
  retentionRounds: positiveNum("BENCH_SUSTAINED_RETENTION_ROUNDS", quick ? 3 : 4),
  /** The older part of the audit pre-aged for retention to delete. */
  retentionFraction: Math.min(1, positiveNum("BENCH_SUSTAINED_RETENTION_FRACTION", 0.5)),
  /** sqlite,postgres by default; PostgreSQL is skipped (reported) when unreachable. */
  stores: (process.env["BENCH_SUSTAINED_STORES"]?.trim() || "sqlite,postgres").split(",").map((s) => s.trim())
}

const DAY_MS = 86_400_000

const fileSize = (path: string): number => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** The database behind one ridequote server: what the section reads and changes directly. */
interface Store {
  readonly name: string
  readonly database: string
  readonly count: () => number
  readonly bytesOnDisk: () => number
  /** Moves the older `fraction` of the audit `days` into the past: how many rows, and the greatest seq among them. */
  readonly preAge: (fraction: number, days: number) => { readonly rows: number; readonly maxSeq: number }
  /** Pre-aged rows (seq ≤ maxSeq) received before `beforeMs` still stored: a range of the primary key. */
  readonly countOld: (maxSeq: number, beforeMs: number) => number
  /** A copy of the database (its server stopped), as a store of its own. */
  readonly twin: () => Store
  /** Deletes the database (a twin, once done). */
  readonly drop: () => void
  /** Bytes of the newest audit entry (the size of every entry the control writes). */
  readonly entryBytes: () => number
  /** Cursor of the row `depth` entries down the account's newest-first order. */
  readonly cursorAt: (account: string, depth: number) => { readonly receivedAt: string; readonly id: string } | undefined
}

const sqliteStore = (file: string): Store => {
  const withDb = <A>(f: (db: Db) => A): A => {
    const db = new Database(file, { timeout: 60_000 })
    try {
      return f(db)
    } finally {
      db.close()
    }
  }
  const size = (path: string) => {
    try {
      return statSync(path).size
    } catch {
      return 0
    }
  }
  return {
    name: "SQLite",
    database: file,
    count: () => withDb((db) => db.prepare<{ n: number }>("SELECT count(*) AS n FROM audit").get()?.n ?? 0),
    // The file as it lies on disk (its WAL included): what an operator pays per entry.
    bytesOnDisk: () => size(file) + size(`${file}-wal`),
    preAge: (fraction, days) =>
      withDb((db) => {
        const n = db.prepare<{ n: number }>("SELECT count(*) AS n FROM audit").get()?.n ?? 0
        // Arrival order is time order here (one process): the older part is a range of seq.
        const maxSeq = db.prepare<{ s: number }>("SELECT seq AS s FROM audit ORDER BY seq LIMIT 1 OFFSET ?")
          .get(Math.max(0, Math.floor(n * fraction) - 1))?.s ?? 0
        const rows = db.prepare("UPDATE audit SET received_at_ms = received_at_ms - ? WHERE seq <= ?").run(days * DAY_MS, maxSeq).changes
        db.pragma("wal_checkpoint(TRUNCATE)")
        return { rows, maxSeq }
      }),
    countOld: (maxSeq, beforeMs) =>
      withDb((db) =>
        db.prepare<{ n: number }>("SELECT count(*) AS n FROM audit WHERE seq <= ? AND received_at_ms < ?").get(maxSeq, beforeMs)?.n ?? 0
      ),
    twin: () => {
      const copy = `${file}-twin.db`
      withDb((db) => db.pragma("wal_checkpoint(TRUNCATE)"))
      // Copied by another process: a close() of the file in this one would drop the POSIX locks
      // the driver's connections here still hold on it (SQLite's "how to corrupt", 2.2); an
      // in-process copyFileSync did corrupt a run. The log goes along in case a reader kept
      // the checkpoint from finishing.
      execFileSync("cp", [file, copy])
      if (existsSync(`${file}-wal`)) execFileSync("cp", [`${file}-wal`, `${copy}-wal`])
      return sqliteStore(copy)
    },
    drop: () => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true })
    },
    entryBytes: () =>
      withDb((db) => db.prepare<{ n: number }>("SELECT length(CAST(entry AS BLOB)) AS n FROM audit ORDER BY seq DESC LIMIT 1").get()?.n ?? 0),
    cursorAt: (account, depth) =>
      withDb((db) => {
        const row = db.prepare<{ t: number; id: string }>(
          "SELECT received_at_ms AS t, request_id AS id FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT 1 OFFSET ?"
        ).get(account, depth)
        return row === undefined ? undefined : { receivedAt: new Date(row.t).toISOString(), id: row.id }
      })
  }
}

const postgresStore = (url: string): Store => ({
  name: "PostgreSQL",
  database: url,
  count: () => Number(psql(url, "SELECT count(*) FROM audit")),
  bytesOnDisk: () => Number(psql(url, "SELECT pg_total_relation_size('audit')")),
  preAge: (fraction, days) => {
    const n = Number(psql(url, "SELECT count(*) FROM audit"))
    const maxSeq = Number(psql(url, `SELECT seq FROM audit ORDER BY seq LIMIT 1 OFFSET ${Math.max(0, Math.floor(n * fraction) - 1)}`))
    const rows = Number(psql(url, `WITH u AS (UPDATE audit SET received_at_ms = received_at_ms - ${days * DAY_MS} WHERE seq <= ${maxSeq} RETURNING 1) SELECT count(*) FROM u`))
    psql(url, "VACUUM ANALYZE audit")
    return { rows, maxSeq }
  },
  countOld: (maxSeq, beforeMs) =>
    Number(psql(url, `SELECT count(*) FROM audit WHERE seq <= ${Math.floor(maxSeq)} AND received_at_ms < ${Math.floor(beforeMs)}`)),
  twin: () => postgresStore(createDatabase(url)),
  drop: () => dropDatabase(url),
  entryBytes: () => Number(psql(url, "SELECT octet_length(entry) FROM audit ORDER BY seq DESC LIMIT 1")),
  cursorAt: (account, depth) => {
    const out = psql(
      url,
      `SELECT received_at_ms || ' ' || request_id FROM audit WHERE account_id = '${account.replace(/'/g, "")}' ORDER BY received_at_ms DESC, request_id DESC LIMIT 1 OFFSET ${Math.floor(depth)}`
    )
    const [t, id] = out.split(" ")
    return t === undefined || id === undefined || t === "" ? undefined : { receivedAt: new Date(Number(t)).toISOString(), id }
  }
})

let serial = 0
/**
 * `ridequote serve` on the store's database, pinned to the server core, with extra settings; its
 * signing keys in the database as an operator runs it (no RIDEQUOTE_JWT_SECRET: the minute's
 * reload of the keys runs, issue 34), sealed under one key-encryption key file in `dir`, so a
 * restarted server and a twin (a copy of the database) verify the same tokens.
 */
const serve = async (
  dir: string,
  database: string,
  extra: Record<string, string> = {},
  options: { readonly ownSession?: boolean } = {}
): Promise<Server> => {
  const n = ++serial
  const out = join(dir, `sustained-${n}.out.log`)
  const err = join(dir, `sustained-${n}.err.log`)
  const argv = [...serverCommand(), "serve", "--database", database, "--port", "0", "--host", "127.0.0.1", "--rate-limit", "0", "--sample-fallback", "on"]
  const s = spawnTracked(pinned(http.serverCpu, argv), { RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE: join(dir, "key-encryption-key"), ...extra }, out, err, options)
  const url = await waitForListening(out, s, err)
  return { name: "ridequote", url, pid: s.pid, stop: () => stop(s) }
}

interface Contender {
  readonly name: string
  server: Server
  readonly spec: LoadSpec
  readonly store?: Store
  quotes: number
}

const phaseLabel: Record<Round["phase"], string> = {
  sustained: "",
  retention: "retention deleting ",
  "retention-after": "retention after "
}

interface RetentionState {
  readonly aged: number
  /** Pre-aged rows left after the last round. */
  left: number
  /** From the restart until none was left (NaN while some remain). */
  seconds: number
}

interface Round {
  readonly round: number
  /** retention: old rows remained when the round began; retention-after: none left. */
  readonly phase: "sustained" | "retention" | "retention-after"
  readonly config: string
  readonly rps: number
  readonly p99: number
  readonly non2xx: number
  /** Quotes this server had answered by the end of the round (warm-up included). */
  readonly quotesSoFar: number
  /** CPU µs per answered request: the main thread (event loop), the busiest other thread
   * (SQLite's audit writer; on PostgreSQL a V8 helper), and all other threads together. */
  readonly mainCpuUs: number
  readonly busiestThreadCpuUs: number
  readonly otherCpuUs: number
  /** Retention phase: pre-aged rows still stored after the round. */
  readonly agedLeft?: number
  /**
   * Sustained phase: req/s of this server and of the control in the round's paired measure
   * (both served at once on the server core, half the connections each).
   */
  readonly paired?: { readonly rps: number; readonly controlRps: number }
  /** Sustained phase: seconds since ridequote started, RSS (MB) and the SQLite WAL (MB) after the round. */
  readonly uptimeS?: number
  readonly rssMb?: number
  readonly walMb?: number
}

/** A round's req/s ÷ its control's in the paired measure (NaN without one). */
const pairedRatio = (r: Round): number => (r.paired === undefined ? Number.NaN : r.paired.rps / r.paired.controlRps)

/** One contender's round: the quiet-machine wait (unless the caller waited), its load, its CPU. */
const measure = async (
  c: Contender,
  round: number,
  phase: Round["phase"],
  durationS: number,
  options: { readonly connections?: number; readonly waited?: boolean } = {}
): Promise<Round> => {
  if (options.waited !== true) await waitQuiet(http.quietWaitS, http.quietPct)
  const cpu0 = threadCpuMicros(c.server.pid)
  const r = await runLoad(c.server.url, c.spec, { durationS, ...(options.connections === undefined ? {} : { connections: options.connections }) })
  const cpu1 = threadCpuMicros(c.server.pid)
  const answered = r.s2xx + r.non2xx
  c.quotes += r.s2xx
  const deltas = [...(cpu1 ?? new Map<number, number>())].map(([tid, us]) => [tid, us - (cpu0?.get(tid) ?? 0)] as const)
  const main = deltas.find(([tid]) => tid === c.server.pid)?.[1] ?? Number.NaN
  const others = deltas.filter(([tid]) => tid !== c.server.pid).map(([, us]) => us)
  const busiest = others.length === 0 ? 0 : Math.max(...others)
  const per = (us: number) => (cpu0 !== undefined && cpu1 !== undefined && answered > 0 ? us / answered : Number.NaN)
  return {
    round,
    phase,
    config: c.name,
    rps: r.rps,
    p99: r.p99,
    non2xx: r.non2xx + r.errors,
    quotesSoFar: c.quotes,
    mainCpuUs: per(main),
    busiestThreadCpuUs: per(busiest),
    otherCpuUs: per(others.reduce((a, b) => a + b, 0) - busiest)
  }
}

/** Untimed reads of a page before it is timed in process (the client's code warmed up, as in a running server). */
const PAGE_WARMUP_MS = 2_000

/**
 * `AuditLog.pageJson` (what GET /v1/audit/recent serves) through the project's own layer on the
 * store, in this process: first page and the keyset page at `cursor`, median of `n` each, ms,
 * after PAGE_WARMUP_MS of untimed reads of the same page. The layer is new in this process, so
 * its first reads run the client's code cold: on PostgreSQL at 1M entries, five blocks of 200
 * reads straight after one read measured 2.89, 1.81, 1.21, 1.16, 0.98 ms (the statement itself
 * took 0.03-0.06 ms to execute and 0.04 ms to plan, EXPLAIN ANALYZE): that was the JIT, not the page.
 */
const timePageInProcess = async (
  store: Store,
  account: string,
  cursor: { readonly receivedAt: string; readonly id: string } | undefined,
  n: number
): Promise<{ first: number; deep: number }> => {
  const client = store.name === "SQLite"
    ? SqliteClientLive(store.database)
    : PostgresClientLive({ url: Redacted.make(store.database), poolSize: 1 })
  const runtime = ManagedRuntime.make(SqlAuditLogLive().pipe(Layer.provide(client)))
  try {
    const audit = await runtime.runPromise(AuditLog)
    const time = async (query: AuditQuery) => {
      const warm = performance.now()
      while (performance.now() - warm < PAGE_WARMUP_MS) await runtime.runPromise(audit.pageJson(query))
      const times: Array<number> = []
      for (let i = 0; i < n; i++) {
        const t0 = performance.now()
        await runtime.runPromise(audit.pageJson(query))
        times.push(performance.now() - t0)
      }
      return median(times)
    }
    const accountId = account as AccountId
    const first = await time({ accountId, limit: 50 })
    const deep = cursor === undefined
      ? Number.NaN
      : await time({
        accountId,
        limit: 50,
        after: { receivedAt: DateTime.unsafeMake(Date.parse(cursor.receivedAt)), requestId: cursor.id as RequestId }
      })
    return { first, deep }
  } finally {
    await runtime.dispose()
  }
}

/** GET /v1/audit/recent, sequentially, `n` times: median and p99 of the round trips, ms. */
const timePage = async (url: string, token: string, query: string, n: number): Promise<{ median: number; p99: number; entries: number }> => {
  const times: Array<number> = []
  let entries = 0
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const res = await fetch(`${url}/v1/audit/recent${query}`, { headers: { authorization: `Bearer ${token}` } })
    const body = (await res.json()) as ReadonlyArray<unknown>
    times.push(performance.now() - t0)
    if (res.status !== 200) throw new Error(`audit page answered ${res.status}`)
    entries = body.length
  }
  const sorted = [...times].sort((a, b) => a - b)
  return { median: median(times), p99: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? Number.NaN, entries }
}

export const sustainedSection: Section = {
  id: "sustained",
  title: `Sustained throughput: one serve process per store for ≥ ${fmt(settings.minUptimeS)} s and ${settings.quotes.toLocaleString("en-US")} quotes, beside a plain control; then retention`,
  run: async () => {
    const dir = makeTempDir("sustained")
    const stores: Array<Store> = []
    const skipped: Array<string> = []
    if (settings.stores.includes("sqlite")) stores.push(sqliteStore(join(dir, "ridequote.db")))
    if (settings.stores.includes("postgres")) {
      if (postgresReachable()) stores.push(postgresStore(createDatabase()))
      else skipped.push("PostgreSQL (unreachable: BENCH_POSTGRES_URL)")
    }
    const body = quoteBody()
    const contenders: Array<Contender> = []
    const accounts = new Map<string, string>()
    const tokens = new Map<string, string>()
    const controls = new Map<string, { readonly contender: Contender; readonly database: string; readonly entryBytes: number }>()
    const rounds: Array<Round> = []
    try {
      if (stores.length === 0) throw new Error(`no store to measure (${skipped.join(", ")})`)
      // One store at a time: ridequote (signing keys in its database, as an operator runs it, so
      // the minute's key reload runs as in production) and its control start together and are
      // loaded round after round until ridequote has been up BENCH_SUSTAINED_MIN_UPTIME_S and has
      // recorded BENCH_SUSTAINED_QUOTES quotes. Each round: each alone with every connection
      // (order alternating), then both served at once, half the connections each.
      for (const store of stores) {
        const account = await createAccount(store.database)
        const server = await serve(dir, store.database, {}, { ownSession: true })
        const startedMs = Date.now()
        const token = await issueToken(server.url, account)
        await probeQuote(server.url, token, body)
        accounts.set(store.name, account.id)
        tokens.set(store.name, token)
        const spec: LoadSpec = { path: "/v1/quote", method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body }
        const ours: Contender = { name: `ridequote ${store.name}`, server, store, quotes: 1, spec }
        contenders.push(ours)
        // Rows of the same bytes: every entry of the control is as long as ridequote's.
        const entryBytes = store.entryBytes()
        const database = store.name === "SQLite" ? join(dir, "control.db") : createDatabase()
        const controlServer = await startControl(
          dir,
          store.name === "SQLite" ? { sqlite: database } : { postgres: database },
          JWT_SECRET,
          account.id,
          entryBytes
        )
        const controlToken = mintToken(JWT_SECRET, account.id)
        await probeQuote(controlServer.url, controlToken, body)
        const control: Contender = {
          name: `control ${store.name}`,
          server: controlServer,
          quotes: 1,
          spec: { ...spec, headers: { ...spec.headers, authorization: `Bearer ${controlToken}` } }
        }
        controls.set(store.name, { contender: control, database, entryBytes })
        log(`sustained ${store.name}: ridequote's audit entry ${entryBytes} B; every entry of the control is that long (padded or cut)`)
        // JIT warm-up of both (their quotes are recorded too).
        for (const c of [ours, control]) c.quotes += (await runLoad(c.server.url, c.spec, { durationS: http.warmupS })).s2xx

        const walOf = (file: string) => (store.name === "SQLite" ? fileSize(`${file}-wal`) / 1e6 : Number.NaN)
        const uptimeS = () => (Date.now() - startedMs) / 1000
        for (let round = 0; (ours.quotes < settings.quotes || uptimeS() < settings.minUptimeS) && round < settings.maxRounds; round++) {
          await waitQuiet(http.quietWaitS, http.quietPct)
          const order = round % 2 === 0 ? [ours, control] : [control, ours]
          const alone = new Map<string, Round>()
          for (const c of order) alone.set(c.name, await measure(c, round, "sustained", settings.roundS, { waited: true }))
          const [mine, theirs] = await loadTogether([ours, control], settings.pairS)
          ours.quotes += mine.s2xx
          control.quotes += theirs.s2xx
          const at = { uptimeS: uptimeS(), paired: { rps: mine.rps, controlRps: theirs.rps } }
          const r: Round = {
            ...(alone.get(ours.name) as Round),
            ...at,
            quotesSoFar: ours.quotes,
            rssMb: (rssKb(server.pid) ?? Number.NaN) / 1024,
            walMb: walOf(store.database)
          }
          const rc: Round = {
            ...(alone.get(control.name) as Round),
            ...at,
            quotesSoFar: control.quotes,
            rssMb: (rssKb(controlServer.pid) ?? Number.NaN) / 1024,
            walMb: walOf(database)
          }
          rounds.push(r, rc)
          log(
            `sustained ${store.name} round ${round + 1} (up ${Math.round(r.uptimeS ?? 0)} s, ${ours.quotes.toLocaleString("en-US")} quotes): ` +
              `ridequote ${Math.round(r.rps)} quotes/s, control ${Math.round(rc.rps)} (×${(r.rps / rc.rps).toFixed(2)}); ` +
              `at once ${Math.round(mine.rps)} / ${Math.round(theirs.rps)} (×${(mine.rps / theirs.rps).toFixed(2)}); ` +
              `ridequote CPU µs/quote: event loop ${fmt(r.mainCpuUs)}, audit writer ${fmt(r.busiestThreadCpuUs)}, other ${fmt(r.otherCpuUs)}; ` +
              `control: event loop ${fmt(rc.mainCpuUs)}, other ${fmt(rc.busiestThreadCpuUs + rc.otherCpuUs)}; load avg ${loadavg()[0]?.toFixed(2)}`
          )
        }
      }

      // The audit at the end: size on disk per entry, and pages over HTTP.
      const ends = new Map<
        string,
        {
          entries: number
          bytesPerEntry: number
          firstPage: { median: number; p99: number }
          deepPage: { median: number; p99: number }
          inProcess: { first: number; deep: number }
        }
      >()
      for (const c of contenders) {
        const store = c.store
        if (store === undefined) continue
        const entries = store.count()
        const token = tokens.get(store.name) ?? ""
        // After the load the database is still writing back (PostgreSQL's checkpointer, SQLite's
        // last checkpoint): the pages are read once the cores are quiet, as for every round.
        await waitQuiet(http.quietWaitS, http.quietPct)
        const firstPage = await timePage(c.server.url, token, "?limit=50", settings.pages)
        const cursor = store.cursorAt(accounts.get(store.name) ?? "", Math.floor(entries / 2))
        const deepPage = cursor === undefined
          ? { median: Number.NaN, p99: Number.NaN, entries: 0 }
          : await timePage(c.server.url, token, `?limit=50&after-received-at=${encodeURIComponent(cursor.receivedAt)}&after-id=${cursor.id}`, settings.pages)
        const inProcess = await timePageInProcess(store, accounts.get(store.name) ?? "", cursor, settings.pages)
        ends.set(store.name, { entries, bytesPerEntry: store.bytesOnDisk() / entries, firstPage, deepPage, inProcess })
        log(
          `sustained ${store.name}: ${entries.toLocaleString("en-US")} entries, ${fmt(store.bytesOnDisk() / entries)} B each; ` +
            `AuditLog.pageJson ${fmt(inProcess.first)} ms, halfway ${fmt(inProcess.deep)} ms; over HTTP ${fmt(firstPage.median)} / ${fmt(deepPage.median)} ms`
        )
      }

      // Retention, one store at a time, on twins. The store's server stopped, its database is
      // copied; the older BENCH_SUSTAINED_RETENTION_FRACTION of the audit is moved three days
      // back in the original (retention deletes it) and one day back in the copy (kept: the same
      // UPDATE, so both were rewritten alike). Then both run AT ONCE, each a server with
      // RIDEQUOTE_AUDIT_RETENTION_DAYS=2 in a session of its own, both pinned to the server core,
      // and every round loads both at the same time with half the connections each: the
      // scheduler gives each session half the core, so a server that spends more CPU per quote
      // (deleting) answers fewer, and whatever the machine does to the core it does to both.
      // Alternating rounds, one server at a time (each round on a fresh server), measured the
      // same ratio at ×0.70-×1.50 from one round to the next: this host's speed swings ±25 %
      // within a minute (docs/performance.md, "Retention that keeps up").
      const retention = new Map<string, RetentionState>()
      const twins = new Map<string, string>()
      const retained = { RIDEQUOTE_AUDIT_RETENTION_DAYS: "2" }
      let retentionRoundNo = 0
      for (const c of contenders) {
        const store = c.store
        if (store === undefined) continue
        await c.server.stop()
        const copy = store.twin()
        const aged = store.preAge(settings.retentionFraction, 3)
        copy.preAge(settings.retentionFraction, 1)
        twins.set(c.name, `${c.name} twin`)
        log(
          `retention ${store.name}: ${aged.rows.toLocaleString("en-US")} rows pre-aged; it and its twin served at once on core ${http.serverCpu}, ` +
            `RIDEQUOTE_AUDIT_RETENTION_DAYS=2, ${HALF_CONNECTIONS} connections each`
        )
        const state: RetentionState = { aged: aged.rows, left: aged.rows, seconds: Number.NaN }
        retention.set(store.name, state)
        const started = Date.now()
        const [original, twinServer] = await Promise.all([
          serve(dir, store.database, retained, { ownSession: true }),
          serve(dir, copy.database, retained, { ownSession: true })
        ])
        c.server = original
        const twin: Contender = { name: `${c.name} twin`, spec: c.spec, quotes: 0, server: twinServer }
        try {
          const pair = [c, twin] as const
          await loadTogether(pair, http.warmupS)
          let after = 0
          for (let r = 0; r < settings.maxRounds && after < settings.retentionRounds; r++) {
            const phase: Round["phase"] = state.left > 0 ? "retention" : "retention-after"
            const round = retentionRoundNo++
            await waitQuiet(http.quietWaitS, http.quietPct)
            const [mine, theirs] = await Promise.all(
              pair.map((x) => measure(x, round, phase, settings.roundS, { connections: HALF_CONNECTIONS, waited: true }))
            )
            if (mine === undefined || theirs === undefined) throw new Error("a retention round measured no pair")
            const left = store.countOld(aged.maxSeq, Date.now() - 2 * DAY_MS)
            if (state.left > 0 && left === 0) state.seconds = (Date.now() - started) / 1000
            state.left = left
            rounds.push({ ...mine, agedLeft: left }, theirs)
            log(
              `${phase} round ${r + 1}: ${Math.round(mine.rps)} req/s deleting (${left.toLocaleString("en-US")} old rows left), ` +
                `${Math.round(theirs.rps)} req/s twin: ×${(mine.rps / theirs.rps).toFixed(2)}`
            )
            if (phase === "retention-after") after++
          }
        } finally {
          await Promise.all([original.stop(), twinServer.stop()])
          copy.drop()
        }
      }

      // ---- report ----
      const targets: Array<Target> = []
      const perStore: Record<string, unknown> = {}
      const lines: Array<string> = []
      for (const c of contenders) {
        const store = c.store
        if (store === undefined) continue
        const controlName = `control ${store.name}`
        const mine = rounds.filter((r) => r.config === c.name && r.phase === "sustained")
        const theirs = new Map(rounds.filter((r) => r.config === controlName).map((r) => [r.round, r]))
        const edge = settings.edge
        const firstR = mine.slice(0, edge)
        const lastR = mine.slice(-edge)
        const edgeRatio = (f: (r: Round) => number) => median(lastR.map(f)) / median(firstR.map(f))
        const holds = edgeRatio((r) => r.rps)
        const controlOf = (r: Round) => theirs.get(r.round)
        const controlHolds = median(lastR.map((r) => controlOf(r)?.rps ?? Number.NaN)) / median(firstR.map((r) => controlOf(r)?.rps ?? Number.NaN))
        const aloneRatio = (r: Round) => r.rps / (controlOf(r)?.rps ?? Number.NaN)
        const holdsBesideControl = edgeRatio(pairedRatio)
        const toControl = spread(mine.map(aloneRatio))
        const toControlPaired = spread(mine.map(pairedRatio))
        const cpuRatio = spread(mine.map((r) => {
          const t = controlOf(r)
          return t === undefined ? Number.NaN : (r.mainCpuUs + r.busiestThreadCpuUs + r.otherCpuUs) / (t.mainCpuUs + t.busiestThreadCpuUs + t.otherCpuUs)
        }))
        // A round more than 10 % below the first rounds is printed as such.
        const base = {
          rps: median(firstR.map((r) => r.rps)),
          control: median(firstR.map((r) => controlOf(r)?.rps ?? Number.NaN)),
          paired: median(firstR.map(pairedRatio)),
          cpu: median(firstR.map((r) => r.mainCpuUs))
        }
        const flagsOf = (r: Round, i: number): string => {
          if (i < edge) return ""
          const f: Array<string> = []
          const below = (x: number, b: number, what: string) => {
            if (x < 0.9 * b) f.push(`${what} −${Math.round((1 - x / b) * 100)} %`)
          }
          below(r.rps, base.rps, "ridequote")
          below(controlOf(r)?.rps ?? Number.NaN, base.control, "control")
          below(pairedRatio(r), base.paired, "at once ÷ control")
          if (r.mainCpuUs > 1.1 * base.cpu) f.push(`event loop +${Math.round((r.mainCpuUs / base.cpu - 1) * 100)} % µs/quote`)
          return f.length === 0 ? "" : `SLOWER than the first rounds: ${f.join("; ")}`
        }
        const flagged = mine.map((r, i) => flagsOf(r, i)).filter((f) => f !== "").length
        const end = ends.get(store.name)
        const mineAll = rounds.filter((r) => r.config === c.name)
        const twinName = twins.get(c.name) ?? ""
        const twinRounds = new Map(rounds.filter((r) => r.config === twinName).map((r) => [r.round, r]))
        const toTwin = (keep: (r: Round) => boolean) =>
          mineAll.filter(keep).flatMap((r) => {
            const t = twinRounds.get(r.round)
            return t === undefined ? [] : [{ rps: r.rps / t.rps, cpu: (r.mainCpuUs + r.busiestThreadCpuUs + r.otherCpuUs) / (t.mainCpuUs + t.busiestThreadCpuUs + t.otherCpuUs) }]
          })
        const deletingPairs = toTwin((r) => r.phase === "retention" && (r.agedLeft ?? 0) > 0)
        const afterPairs = toTwin((r) => r.phase === "retention-after")
        const toTwinDeleting = spread(deletingPairs.map((p) => p.rps))
        const toTwinAfter = spread(afterPairs.map((p) => p.rps))
        const cpuDeleting = spread(deletingPairs.map((p) => p.cpu))
        const retentionCost = toTwinDeleting.median
        const state = retention.get(store.name)
        const control = controls.get(store.name)
        const uptime = mine.at(-1)?.uptimeS ?? Number.NaN
        perStore[store.name] = {
          rounds: mine,
          controlRounds: [...theirs.values()],
          holds,
          controlHolds,
          holdsBesideControl,
          toControl,
          toControlPaired,
          cpuRatio,
          flagged,
          toTwinDeleting,
          toTwinAfter,
          cpuDeleting,
          retentionCost,
          end,
          retention: state,
          entryBytes: control?.entryBytes
        }
        const sustainedTable = table(
          [
            "round",
            "up s",
            "quotes so far",
            "ridequote q/s",
            "control q/s",
            "÷ control",
            "at once q/s (÷)",
            "ridequote µs/quote: event loop / audit writer / other",
            "control µs/quote: event loop / other",
            "RSS MB ridequote / control",
            "WAL MB",
            "p99 ms ridequote / control",
            "non-2xx",
            ""
          ],
          mine.map((r, i) => {
            const t = controlOf(r)
            return [
              String(r.round + 1),
              fmt(r.uptimeS ?? Number.NaN),
              r.quotesSoFar.toLocaleString("en-US"),
              fmt(r.rps),
              t === undefined ? "–" : fmt(t.rps),
              `×${aloneRatio(r).toFixed(2)}`,
              r.paired === undefined ? "–" : `${fmt(r.paired.rps)} / ${fmt(r.paired.controlRps)} (×${pairedRatio(r).toFixed(2)})`,
              `${fmt(r.mainCpuUs)} / ${fmt(r.busiestThreadCpuUs)} / ${fmt(r.otherCpuUs)}`,
              t === undefined ? "–" : `${fmt(t.mainCpuUs)} / ${fmt(t.busiestThreadCpuUs + t.otherCpuUs)}`,
              `${fmt(r.rssMb ?? Number.NaN)} / ${fmt(t?.rssMb ?? Number.NaN)}`,
              `${fmt(r.walMb ?? Number.NaN)} / ${fmt(t?.walMb ?? Number.NaN)}`,
              `${fmt(r.p99)} / ${fmt(t?.p99 ?? Number.NaN)}`,
              String(r.non2xx + (t?.non2xx ?? 0)),
              flagsOf(r, i)
            ]
          })
        )
        const retentionRows = mineAll.filter((r) => r.phase !== "sustained")
        const retentionTable = retentionRows.length === 0
          ? ""
          : "\n\nRetention (the store's server and its twin served at once):\n\n" + table(
            ["round", "deleting q/s", "twin q/s", "÷ twin", "event loop µs/quote", "audit writer µs/quote", "p99 ms", "non-2xx"],
            retentionRows.map((r) => {
              const t = twinRounds.get(r.round)
              return [
                `${phaseLabel[r.phase]}${r.round + 1}` + (r.agedLeft === undefined ? "" : ` (${r.agedLeft.toLocaleString("en-US")} old left)`),
                fmt(r.rps),
                t === undefined ? "–" : fmt(t.rps),
                t === undefined ? "–" : `×${(r.rps / t.rps).toFixed(2)}`,
                fmt(r.mainCpuUs),
                fmt(r.busiestThreadCpuUs),
                fmt(r.p99),
                String(r.non2xx)
              ]
            })
          )
        lines.push(
          `### ${c.name} beside its control (${store.name === "SQLite" ? "plain node:http + libsql, WAL, synchronous=FULL" : "plain node:http + node-postgres"}, group commit, entries of ${control?.entryBytes ?? "?"} B)\n\n` +
            sustainedTable +
            `\n\nUp ${fmt(uptime)} s, ${(mine.at(-1)?.quotesSoFar ?? 0).toLocaleString("en-US")} quotes. Last ${edge} rounds ÷ first ${edge}: ridequote ×${holds.toFixed(2)}, ` +
            `control ×${controlHolds.toFixed(2)}; served at once, ridequote ÷ control ×${holdsBesideControl.toFixed(2)}. ` +
            `Ridequote ÷ control over the whole run: alone ${fmtRatio(toControl)}, at once ${fmtRatio(toControlPaired)}; CPU per quote (all threads) ${fmtRatio(cpuRatio)}. ` +
            `Rounds more than 10 % below the first rounds: ${flagged} of ${Math.max(0, mine.length - edge)}. ` +
            (end === undefined
              ? ""
              : `Audit: ${end.entries.toLocaleString("en-US")} entries, ${fmt(end.bytesPerEntry)} B per entry on disk; ` +
                `a page of 50 (AuditLog.pageJson, what GET /v1/audit/recent serves, in process) first ${fmt(end.inProcess.first)} ms, ` +
                `keyset halfway down ${fmt(end.inProcess.deep)} ms; the same over HTTP (round trip, 90 KB of JSON, server under no load) ` +
                `${fmt(end.firstPage.median)} ms (p99 ${fmt(end.firstPage.p99)}) and ${fmt(end.deepPage.median)} ms (p99 ${fmt(end.deepPage.p99)}). `) +
            (state === undefined
              ? ""
              : `Retention: ${state.aged.toLocaleString("en-US")} rows pre-aged, ${state.left.toLocaleString("en-US")} left at the end` +
                (Number.isFinite(state.seconds) ? `, all deleted in ${fmt(state.seconds)} s of the server running (${fmt(state.aged / state.seconds)} rows/s)` : "") +
                `; req/s ÷ its twin's (the same database, nothing to delete) in the ${toTwinDeleting.n} rounds deleting all along ` +
                `${fmtRatio(toTwinDeleting)} (CPU per request ${fmtRatio(cpuDeleting)}), in the ${toTwinAfter.n} rounds once done ${fmtRatio(toTwinAfter)}.`) +
            retentionTable
        )
        const sustainedQuotes = mine.at(-1)?.quotesSoFar ?? 0
        const longEnough = sustainedQuotes >= 1_000_000 && uptime >= 300
        targets.push(
          {
            what: `${store.name}: last ${edge} rounds ÷ first ${edge}, ${sustainedQuotes.toLocaleString("en-US")} quotes, up ${fmt(uptime)} s`,
            target: "≥ 0.9 after ≥ 5 min and ≥ 1M quotes",
            value: `×${holds.toFixed(2)} (control ×${controlHolds.toFixed(2)}; at once ÷ control ×${holdsBesideControl.toFixed(2)})`,
            pass: !Number.isFinite(holds) ? undefined : holds < 0.9 ? false : longEnough ? true : undefined
          },
          {
            what: `${store.name}: ÷ the plain control over the run (alone, per round)`,
            target: store.name === "SQLite" ? "≥ 0.8" : "– (reported)",
            value: `${fmtRatio(toControl)} (at once ${fmtRatio(toControlPaired)})`,
            pass: store.name !== "SQLite" || toControl.n === 0 ? undefined : toControl.median >= 0.8
          },
          {
            what: `${store.name}: audit page at ${end?.entries.toLocaleString("en-US") ?? "?"} rows (AuditLog.pageJson, keyset halfway)`,
            target: "≤ 1 ms",
            value: `${fmt(end?.inProcess.deep ?? Number.NaN)} ms`,
            pass: end === undefined || !Number.isFinite(end.inProcess.deep) ? undefined : end.inProcess.deep <= 1
          },
          {
            what: `${store.name}: throughput while retention deletes ÷ without (÷ its twin, same rounds)`,
            target: "≥ 0.9",
            value: Number.isFinite(retentionCost) ? `×${retentionCost.toFixed(2)}` : "–",
            pass: Number.isFinite(retentionCost) ? retentionCost >= 0.9 : undefined
          }
        )
      }
      const text = [
        ...lines,
        `Each round: ridequote and its control each alone for ${settings.roundS} s with ${http.connections} connections (order alternating), ` +
          `then both at once for ${settings.pairS} s, each in a session of its own (half the server core each), ${HALF_CONNECTIONS} connections each; ` +
          `servers pinned to core ${http.serverCpu}, load on core ${http.loadCpu}. The control shares no code with the engine ` +
          `(bench/reference/same-work.ts: node:http, the quote's work by hand, group commit, the engine's audit table shape, rows padded to ridequote's bytes). ` +
          `CPU per quote from /proc/<pid>/task/<tid>/stat: the event loop is the main thread, the audit writer the busiest other thread (on PostgreSQL: a V8 or libuv helper).` +
          (skipped.length > 0 ? ` Skipped: ${skipped.join(", ")}.` : "")
      ].join("\n\n")
      return { title: sustainedSection.title, table: text, results: { settings, rounds, perStore }, targets }
    } finally {
      for (const c of contenders) await c.server.stop()
      for (const control of controls.values()) await control.contender.server.stop()
    }
  }
}
