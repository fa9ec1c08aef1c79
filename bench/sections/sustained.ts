/**
 * Throughput that holds (issue 23): one `serve` process per store on ONE database for the whole
 * section, loaded in back-to-back rounds until each has recorded BENCH_SUSTAINED_QUOTES quotes
 * (250,000 by default; the issue's long run is BENCH_SUSTAINED_QUOTES=1000000), so the audit grows
 * as in production. Reference (b) runs the same rounds on its own long-lived SQLite file (its
 * ~1 KB audit row keyed by a random UUID, synchronous=FULL), and the order of the servers rotates
 * every round; ratios to (b) are taken within a round.
 *
 * After each store's round, a paired measure of BENCH_SUSTAINED_PAIR_S: the store's server and a
 * control (ridequote on a database of its own on the same store, its audit emptied before every measure) served
 * at once on the server core, each in a session of its own (one scheduler autogroup each, so
 * half the core each) with half the connections. The store's req/s ÷ the control's, last rounds
 * against first, is what the audit's growth costs with the machine's drift divided out: this
 * host's speed moves by a quarter within minutes, and (b) is no yardstick for it (its own file
 * grows, keyed by a random UUID).
 *
 * Reported per store: req/s of every round, the last three rounds ÷ the first three, the ratio
 * to (b) over the first rounds, the last rounds and all of them, CPU per request of the event
 * loop, of the busiest other thread (SQLite's audit writer) and of the rest, bytes per audit entry
 * on disk, and GET /v1/audit/recent at the end (first page and a keyset page halfway down, over
 * HTTP, median of BENCH_SUSTAINED_PAGES requests each).
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
import { existsSync, rmSync, statSync } from "node:fs"
import { DateTime, Layer, ManagedRuntime, Redacted } from "effect"
import type { AccountId, AuditQuery, RequestId } from "../../packages/core/src/index.js"
import { AuditLog } from "../../packages/core/src/index.js"
import { SqlAuditLogLive } from "../../packages/storage-sql/src/index.js"
import { PostgresClientLive } from "../../packages/storage-postgres/src/index.js"
import { SqliteClientLive } from "../../packages/storage-sqlite/src/index.js"
import { join } from "node:path"
import { http, quick } from "../lib/config.js"
import { type LoadSpec, runLoad } from "../lib/load.js"
import { createDatabase, dropDatabase, postgresReachable, psql } from "../lib/postgres.js"
import { HALF_CONNECTIONS, loadTogether } from "../lib/paired.js"
import { makeTempDir, pinned, spawnTracked, stop, threadCpuMicros, waitForListening, waitQuiet } from "../lib/procs.js"
import { startSameWork } from "../lib/references.js"
import { createAccount, issueToken, JWT_SECRET, probeQuote, quoteBody, type Server, serverCommand } from "../lib/ridequote.js"
import { log } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import Database, { type Database as Db } from "../lib/sqlite.js"
import { fmt, fmtRatio, median, type Spread, spread, table } from "../lib/stats.js"

const env = (name: string, fallback: number): number => {
  const v = process.env[name]?.trim()
  const n = v === undefined || v === "" ? fallback : Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number > 0, got ${v}`)
  return n
}

const settings = {
  /** Quotes each ridequote server records before the rounds stop. */
  quotes: env("BENCH_SUSTAINED_QUOTES", quick ? 50_000 : 250_000),
  roundS: env("BENCH_SUSTAINED_ROUND_S", quick ? 5 : 15),
  /** Seconds of each round's paired measure: the store's server and the control served at once. */
  pairS: env("BENCH_SUSTAINED_PAIR_S", quick ? 3 : 6),
  /** Rounds at each end compared (first vs last). */
  edge: 3,
  maxRounds: env("BENCH_SUSTAINED_MAX_ROUNDS", 200),
  pages: env("BENCH_SUSTAINED_PAGES", quick ? 50 : 200),
  retentionRounds: env("BENCH_SUSTAINED_RETENTION_ROUNDS", quick ? 3 : 4),
  /** The older part of the audit pre-aged for retention to delete. */
  retentionFraction: Math.min(1, env("BENCH_SUSTAINED_RETENTION_FRACTION", 0.5)),
  /** sqlite,postgres by default; PostgreSQL is skipped (reported) when unreachable. */
  stores: (process.env["BENCH_SUSTAINED_STORES"]?.trim() || "sqlite,postgres").split(",").map((s) => s.trim())
}

const DAY_MS = 86_400_000

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
/** `ridequote serve` on the store's database, pinned to the server core, with extra settings. */
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
  const s = spawnTracked(pinned(http.serverCpu, argv), { RIDEQUOTE_JWT_SECRET: JWT_SECRET, ...extra }, out, err, options)
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

/** Median over rounds of ridequote's req/s ÷ (b)'s req/s in the same round. */
const ratioToReference = (rounds: ReadonlyArray<Round>, config: string, reference: string): Spread => {
  const ref = new Map(rounds.filter((r) => r.config === reference).map((r) => [`${r.phase}${r.round}`, r.rps]))
  return spread(rounds.filter((r) => r.config === config).map((r) => r.rps / (ref.get(`${r.phase}${r.round}`) ?? Number.NaN)))
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
  title: `Sustained throughput: one serve process, one database, ${settings.quotes.toLocaleString("en-US")} quotes per store, then retention`,
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
    let reference: Contender | undefined
    const controlServers: Array<Server> = []
    try {
      for (const store of stores) {
        const account = await createAccount(store.database)
        const server = await serve(dir, store.database, {}, { ownSession: true })
        const token = await issueToken(server.url, account)
        await probeQuote(server.url, token, body)
        accounts.set(store.name, account.id)
        tokens.set(store.name, token)
        contenders.push({
          name: `ridequote ${store.name}`,
          server,
          store,
          quotes: 1,
          spec: { path: "/v1/quote", method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body }
        })
      }
      const first = contenders[0]
      if (first === undefined) throw new Error(`no store to measure (${skipped.join(", ")})`)
      const refServer = await startSameWork(dir, join(dir, "reference-b.db"), JWT_SECRET, accounts.values().next().value ?? "")
      reference = { name: "(b)", server: refServer, quotes: 0, spec: first.spec }
      await probeQuote(refServer.url, tokens.values().next().value ?? "", body)
      const all = [...contenders, reference]
      // The controls: per store, ridequote on a database of its own (a SQLite file; a PostgreSQL
      // database on the same server) whose audit is emptied before every paired measure, so it
      // never grows. What the machine does to the core between the first rounds and the last
      // (this host drifts by a quarter within minutes) it does to the control too; what a grown
      // database costs, only the store's server pays. A PostgreSQL store gets a PostgreSQL
      // control: its backends run outside the server core, for both alike.
      const controls = new Map<string, { readonly contender: Contender; readonly empty: () => void }>()
      for (const c of contenders) {
        const store = c.store
        if (store === undefined) continue
        const database = store.name === "SQLite" ? join(dir, "control.db") : createDatabase()
        const account = await createAccount(database)
        const server = await serve(dir, database, {}, { ownSession: true })
        controlServers.push(server)
        const token = await issueToken(server.url, account)
        await probeQuote(server.url, token, body)
        const contender: Contender = {
          name: `control ${store.name}`,
          server,
          quotes: 0,
          spec: { ...c.spec, headers: { ...c.spec.headers, authorization: `Bearer ${token}` } }
        }
        const empty = store.name === "SQLite"
          ? () => {
            const db = new Database(database, { timeout: 60_000 })
            try {
              db.prepare("DELETE FROM audit").run()
              // The delete's pages checkpointed here, not by the control's next commit in the
              // measure (tens of MB written back while its twin is timed).
              db.pragma("wal_checkpoint(TRUNCATE)")
            } finally {
              db.close()
            }
          }
          : () => void psql(database, "TRUNCATE audit")
        await runLoad(server.url, contender.spec, { durationS: http.warmupS })
        controls.set(store.name, { contender, empty })
      }

      // JIT warm-up of every server (its quotes are recorded too).
      for (const c of all) {
        const r = await runLoad(c.server.url, c.spec, { durationS: http.warmupS })
        c.quotes += r.s2xx
      }

      const rounds: Array<Round> = []
      let round = 0
      while (contenders.some((c) => c.quotes < settings.quotes) && round < settings.maxRounds) {
        // A store that has recorded its quotes rests (its last rounds are behind it); (b) runs
        // in every round, so each store's rounds keep a reference measured beside them.
        const running = all.filter((c) => c.store === undefined || c.quotes < settings.quotes)
        const order = running.map((_, i) => running[(i + round) % running.length]).filter((c): c is Contender => c !== undefined)
        for (const c of order) {
          const alone = await measure(c, round, "sustained", settings.roundS)
          let r: Round = alone
          const control = c.store === undefined ? undefined : controls.get(c.store.name)
          if (control !== undefined) {
            control.empty()
            await waitQuiet(http.quietWaitS, http.quietPct)
            // Both loaded together before the timed seconds: the control comes out of a minute
            // idle (V8 shrinks an idle heap) while the store's server has just run its round;
            // timed straight away, the control trailed it by 5-50 % from round to round.
            const [warm] = await loadTogether([c, control.contender], http.warmupS)
            c.quotes += warm.s2xx
            const [mine, theirs] = await loadTogether([c, control.contender], settings.pairS)
            c.quotes += mine.s2xx
            r = { ...alone, quotesSoFar: c.quotes, paired: { rps: mine.rps, controlRps: theirs.rps } }
          }
          rounds.push(r)
          log(
            `sustained round ${round + 1} ${c.name}: ${Math.round(r.rps)} req/s, ${c.quotes.toLocaleString("en-US")} quotes, ` +
              `CPU µs/req: event loop ${fmt(r.mainCpuUs)}, busiest other thread ${fmt(r.busiestThreadCpuUs)}, the rest ${fmt(r.otherCpuUs)}` +
              (r.paired === undefined ? "" : `; beside the control ${Math.round(r.paired.rps)} / ${Math.round(r.paired.controlRps)} req/s (×${pairedRatio(r).toFixed(2)})`)
          )
        }
        round++
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
        const mine = rounds.filter((r) => r.config === c.name && r.phase === "sustained")
        const firstR = mine.slice(0, settings.edge)
        const lastR = mine.slice(-settings.edge)
        const holds = median(lastR.map((r) => r.rps)) / median(firstR.map((r) => r.rps))
        // The same, each round's req/s taken beside the control's in its paired measure: the
        // machine's drift between the first rounds and the last divided out.
        const besideControl = (rs: ReadonlyArray<Round>) => median(rs.map(pairedRatio).filter(Number.isFinite))
        const holdsBesideControl = besideControl(lastR) / besideControl(firstR)
        const sustained = rounds.filter((r) => r.phase === "sustained")
        const firstRounds = new Set(firstR.map((r) => r.round))
        const lastRounds = new Set(lastR.map((r) => r.round))
        const toRef = ratioToReference(sustained, c.name, "(b)")
        const toRefFirst = ratioToReference(sustained.filter((r) => firstRounds.has(r.round)), c.name, "(b)")
        const toRefLast = ratioToReference(sustained.filter((r) => lastRounds.has(r.round)), c.name, "(b)")
        // Retention: the store's rounds that ended with pre-aged rows still stored (deleting all
        // the round long) against its twin's rounds of the same number.
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
        const end = ends.get(store.name)
        const state = retention.get(store.name)
        perStore[store.name] = {
          rounds: mine,
          holds,
          holdsBesideControl,
          toRef,
          toRefFirst,
          toRefLast,
          toTwinDeleting,
          toTwinAfter,
          cpuDeleting,
          retentionCost,
          end,
          retention: state
        }
        lines.push(
          `### ${c.name}\n\n` +
            table(
              ["round", "req/s", "(b) req/s", "÷ (b)", "quotes so far", "p99 ms", "event loop µs/req", "busiest other thread µs/req", "other threads µs/req", "non-2xx"],
              mineAll.map((r) => {
                const ref = rounds.find((x) => (x.config === "(b)" || x.config === twinName) && x.round === r.round && x.phase === r.phase)
                return [
                  `${phaseLabel[r.phase]}${r.round + 1}` +
                    (r.agedLeft === undefined ? "" : ` (${r.agedLeft.toLocaleString("en-US")} old left)`),
                  fmt(r.rps),
                  ref === undefined ? "–" : fmt(ref.rps),
                  ref === undefined ? "–" : `×${(r.rps / ref.rps).toFixed(2)}`,
                  r.quotesSoFar.toLocaleString("en-US"),
                  fmt(r.p99),
                  fmt(r.mainCpuUs),
                  fmt(r.busiestThreadCpuUs),
                  fmt(r.otherCpuUs),
                  String(r.non2xx)
                ]
              })
            ) +
            `\n\nLast ${settings.edge} rounds ÷ first ${settings.edge}: ×${holds.toFixed(2)} in req/s; ` +
            `×${holdsBesideControl.toFixed(2)} in req/s ÷ the control's beside it (paired measures, ` +
            mine.map((r) => (r.paired === undefined ? "–" : `×${pairedRatio(r).toFixed(2)}`)).join(", ") + `). ` +
            `÷ (b): first rounds ${fmtRatio(toRefFirst)}, last rounds ${fmtRatio(toRefLast)}, all ${fmtRatio(toRef)}. ` +
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
                `${fmtRatio(toTwinDeleting)} (CPU per request ${fmtRatio(cpuDeleting)}), in the ${toTwinAfter.n} rounds once done ${fmtRatio(toTwinAfter)}. ` +
                `In the retention rows, the (b) columns hold the twin's round.`)
        )
        // Quotes recorded by the end of the sustained rounds (the retention rounds come after).
        const sustainedQuotes = mine.at(-1)?.quotesSoFar ?? 0
        targets.push(
          {
            what: `${store.name}: last ${settings.edge} rounds ÷ first ${settings.edge} after ${sustainedQuotes.toLocaleString("en-US")} quotes`,
            target: "≥ 0.9 after ≥ 1M quotes",
            value: `×${holdsBesideControl.toFixed(2)} beside the control (×${holds.toFixed(2)} in req/s alone)`,
            pass: !Number.isFinite(holdsBesideControl)
              ? undefined
              : holdsBesideControl >= 0.9 && sustainedQuotes >= 1_000_000
              ? true
              : holdsBesideControl < 0.9
              ? false
              : undefined
          },
          { what: `${store.name}: ÷ (b) over the long run`, target: "≥ 0.8", value: fmtRatio(toRef), pass: toRef.n === 0 ? undefined : toRef.median >= 0.8 },
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
        `Reference (b): ${reference.quotes.toLocaleString("en-US")} quotes on its own file in the same rounds. ` +
          `Rounds of ${settings.roundS} s, ${http.connections} connections, servers pinned to core ${http.serverCpu}, order rotating.` +
          (skipped.length > 0 ? ` Skipped: ${skipped.join(", ")}.` : "")
      ].join("\n\n")
      return { title: sustainedSection.title, table: text, results: { settings, rounds, perStore }, targets }
    } finally {
      for (const c of contenders) await c.server.stop()
      await reference?.server.stop()
      for (const server of controlServers) await server.stop()
    }
  }
}
