/**
 * The HTTP sections: the real `ridequote serve` (SQLite, durable audit) under autocannon,
 * against reference servers (a) fixed body and (b) the same work by hand, measured in the
 * same rounds.
 *   http     POST /v1/quote: (a), ridequote, (b); audit completeness afterwards
 *   layers   GET /health/live and GET /v1/customer/me against (a): host, bearer, quote costs
 *   latency  p50/p99 at a fixed offered rate (1,000 req/s): ridequote vs (b)
 *   token    POST /v1/auth/token against (a)
 */
import { join } from "node:path"
import { countQuoted } from "../lib/audit-count.js"
import { http } from "../lib/config.js"
import type { LoadResult, LoadSpec } from "../lib/load.js"
import { hasTaskset, makeTempDir } from "../lib/procs.js"
import { startFixed, startSameWork } from "../lib/references.js"
import {
  type Account,
  createAccount,
  issueToken,
  JWT_SECRET,
  probeQuote,
  quoteBody,
  type Server,
  serverCommand,
  startRidequote
} from "../lib/ridequote.js"
import { type Config, log, type Run, runRounds, type Summary, summarize } from "../lib/rounds.js"
import type { Section, Shared, Target } from "../lib/section.js"
import { fmt, fmtRatio, fmtSpread, table } from "../lib/stats.js"

interface Setup {
  readonly dir: string
  readonly database: string
  readonly refDatabase: string
  readonly account: Account
  readonly token: string
  readonly body: string
  readonly quoteBytes: number
  readonly refBytes: number
}

/** Once per invocation: a database with one account, a token, and one checked quote from each server. */
const setup = async (shared: Shared): Promise<Setup> => {
  const cached = shared.get("http-setup") as Setup | undefined
  if (cached !== undefined) return cached
  const dir = makeTempDir("http")
  const database = join(dir, "ridequote.db")
  const refDatabase = join(dir, "reference-b.db")
  log(`http setup: ${serverCommand().join(" ")} accounts create / serve on ${database}`)
  const account = await createAccount(database)
  const server = await startRidequote(dir, database)
  let token: string
  let body: string
  let quote: string
  try {
    token = await issueToken(server.url, account)
    body = quoteBody()
    quote = await probeQuote(server.url, token, body)
  } finally {
    await server.stop()
  }
  const ref = await startSameWork(dir, refDatabase, JWT_SECRET, account.id)
  let refQuote: string
  try {
    refQuote = await probeQuote(ref.url, token, body)
  } finally {
    await ref.stop()
  }
  const s: Setup = {
    dir,
    database,
    refDatabase,
    account,
    token,
    body,
    quoteBytes: Buffer.byteLength(quote),
    refBytes: Buffer.byteLength(refQuote)
  }
  log(`http setup: quote response ${s.quoteBytes} B from ridequote, ${s.refBytes} B from reference (b)`)
  shared.set("http-setup", s)
  return s
}

const quoteSpec = (s: Setup): LoadSpec => ({
  path: "/v1/quote",
  method: "POST",
  headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
  body: s.body
})

/** After each run: the audit rows added since the previous run vs the 200s answered (warm-up included). */
const auditTracker = (file: string) => {
  let last = countQuoted(file)
  let answered = 0
  let audited = 0
  return {
    after: (_server: Server, r: { warmup: LoadResult; measured: LoadResult }): Promise<Record<string, number>> => {
      const now = countQuoted(file)
      const ok = r.warmup.s2xx + r.measured.s2xx
      const rows = now - last
      last = now
      answered += ok
      audited += Math.min(rows, ok)
      return Promise.resolve({ answered200: ok, auditRowsAdded: rows })
    },
    totals: () => ({ answered200: answered, audited200: audited, missing: answered - audited })
  }
}

const A = "(a) node:http fixed body"
const B = "(b) node:http same work"
const RQ_QUOTE = "ridequote POST /v1/quote"

const fixedConfig = (s: Setup, spec: LoadSpec): Config => ({
  name: A,
  start: () => startFixed(s.dir, s.quoteBytes),
  spec
})
const sameWorkConfig = (s: Setup, extra: Partial<Config> = {}): Config => ({
  name: B,
  start: () => startSameWork(s.dir, s.refDatabase, JWT_SECRET, s.account.id),
  spec: quoteSpec(s),
  ...extra
})

const none = { median: NaN, min: NaN, max: NaN, n: 0 }

/** Columns: config, req/s, p50, p99, non-2xx, CPU/req, req/s ÷ each baseline, CPU/req ÷ the last baseline. */
const loadRow = (sum: Summary, ratios: ReadonlyArray<string>): Array<string> => [
  sum.config,
  fmtSpread(sum.rps),
  fmtSpread(sum.p50),
  fmtSpread(sum.p99),
  `${sum.non2xx}${sum.errors > 0 ? ` (+${sum.errors} errors)` : ""}`,
  fmtSpread(sum.cpuPerRequestUs),
  ...ratios.map((b) => (b === sum.config ? "×1" : fmtRatio(sum.rpsRatio[b] ?? none))),
  ...ratios.slice(-1).map((b) => (b === sum.config ? "×1" : fmtRatio(sum.cpuRatio[b] ?? none)))
]

const methodNote = (): string =>
  `${http.rounds} rounds × ${http.durationS} s measured (after ${http.warmupS} s warm-up), ${http.connections} connections, ` +
  `fresh server process per run, order rotated per round; ` +
  (hasTaskset ? `server on core ${http.serverCpu}, autocannon on core ${http.loadCpu}` : "no taskset: not pinned") +
  `. Figures: median [min–max] over runs; ratios: per round, then median [range].`

// ---- http ------------------------------------------------------------------------------------

export const httpSection: Section = {
  id: "http",
  title: "HTTP quote: POST /v1/quote, ridequote vs (a) fixed body and (b) same work",
  run: async (shared) => {
    const s = await setup(shared)
    const tracker = auditTracker(s.database)
    const refTracker = auditTracker(s.refDatabase)
    const spec = quoteSpec(s)
    const configs: Array<Config> = [
      fixedConfig(s, spec),
      { name: RQ_QUOTE, start: () => startRidequote(s.dir, s.database), spec, after: tracker.after },
      sameWorkConfig(s, { after: refTracker.after })
    ]
    const runs = await runRounds("http", configs)
    const sums = [A, RQ_QUOTE, B].map((c) => summarize(runs, c, [A, B]))
    const rq = sums[1]
    const audit = tracker.totals()
    const refAudit = refTracker.totals()
    shared.set("http-quote-summary", rq)
    shared.set("http-a-summary", sums[0])
    const vsB = rq?.rpsRatio[B]
    const targets: Array<Target> = [
      {
        what: "HTTP quote req/s ÷ (b)",
        target: "≥ 0.5× (aim 0.8×)",
        value: vsB === undefined ? "–" : fmtRatio(vsB),
        pass: vsB === undefined || Number.isNaN(vsB.median) ? undefined : vsB.median >= 0.5
      },
      {
        what: "HTTP quote non-2xx + socket errors",
        target: "0",
        value: rq === undefined ? "–" : String(rq.non2xx + rq.errors),
        pass: rq === undefined ? undefined : rq.non2xx + rq.errors === 0
      },
      {
        what: "every 200 in the audit",
        target: "all",
        value: `${audit.audited200} of ${audit.answered200}`,
        pass: audit.answered200 > 0 ? audit.missing === 0 : undefined
      }
    ]
    const text = [
      table(
        ["config", "req/s", "p50 ms", "p99 ms", "non-2xx", "server CPU µs/req", "req/s ÷ (a)", "req/s ÷ (b)", "CPU/req ÷ (b)"],
        sums.map((x) => loadRow(x, [A, B]))
      ),
      "",
      `Audit: ${audit.audited200} of ${audit.answered200} ridequote 200s (warm-ups included) found in the SQLite audit ` +
        `right after each run, server still running${audit.missing > 0 ? ` — ${audit.missing} MISSING` : ""}; ` +
        `reference (b): ${refAudit.audited200} of ${refAudit.answered200}.`,
      `Response bytes: ridequote ${s.quoteBytes}, (a) ${s.quoteBytes}, (b) ${s.refBytes}. ${methodNote()}`
    ].join("\n")
    return {
      title: httpSection.title,
      table: text,
      results: { summaries: sums, audit, referenceAudit: refAudit, runs, quoteBytes: s.quoteBytes, refBytes: s.refBytes },
      targets
    }
  }
}

// ---- layers ----------------------------------------------------------------------------------

const HEALTH = "ridequote GET /health/live"
const ME = "ridequote GET /v1/customer/me"

export const layersSection: Section = {
  id: "layers",
  title: "Per-layer cost: /health/live (host), /v1/customer/me (+ bearer auth), vs (a)",
  run: async (shared) => {
    const s = await setup(shared)
    const rqStart = () => startRidequote(s.dir, s.database)
    const configs: Array<Config> = [
      fixedConfig(s, { path: "/health/live", method: "GET", headers: {} }),
      { name: HEALTH, start: rqStart, spec: { path: "/health/live", method: "GET", headers: {} } },
      { name: ME, start: rqStart, spec: { path: "/v1/customer/me", method: "GET", headers: { authorization: `Bearer ${s.token}` } } }
    ]
    const runs = await runRounds("layers", configs)
    const sums = [A, HEALTH, ME].map((c) => summarize(runs, c, [A]))
    const quote = shared.get("http-quote-summary") as Summary | undefined
    const cpu = (x: Summary | undefined) => x?.cpuPerRequestUs.median ?? Number.NaN
    const [a, health, me] = sums
    const health_a = health?.rpsRatio[A]
    const layerRows = [
      ["Node HTTP alone ((a))", fmt(cpu(a))],
      ["host: routing, middleware, logging, response (/health/live − (a))", fmt(cpu(health) - cpu(a))],
      ["bearer auth + account read (/v1/customer/me − /health/live)", fmt(cpu(me) - cpu(health))],
      [
        "quote: body, pricing, audit commit (POST /v1/quote − /v1/customer/me)",
        quote === undefined ? "– (run the http section in the same invocation)" : fmt(cpu(quote) - cpu(me))
      ]
    ]
    const targets: Array<Target> = [{
      what: "/health/live req/s ÷ (a)",
      target: "≥ 0.5×",
      value: health_a === undefined ? "–" : fmtRatio(health_a),
      pass: health_a === undefined || Number.isNaN(health_a.median) ? undefined : health_a.median >= 0.5
    }]
    const text = [
      table(["config", "req/s", "p50 ms", "p99 ms", "non-2xx", "server CPU µs/req", "req/s ÷ (a)", "CPU/req ÷ (a)"], sums.map((x) => loadRow(x, [A]))),
      "",
      table(["layer (server CPU per request, medians)", "µs/req"], layerRows),
      "",
      methodNote()
    ].join("\n")
    return { title: layersSection.title, table: text, results: { summaries: sums, layersCpuUs: Object.fromEntries(layerRows), runs }, targets }
  }
}

// ---- latency at a fixed rate -------------------------------------------------------------------

export const latencySection: Section = {
  id: "latency",
  title: `Latency at a fixed offered rate: POST /v1/quote at ${http.rate} req/s, ridequote vs (b)`,
  run: async (shared) => {
    const s = await setup(shared)
    const tracker = auditTracker(s.database)
    const load = { rate: http.rate }
    const configs: Array<Config> = [
      sameWorkConfig(s, { load }),
      { name: RQ_QUOTE, start: () => startRidequote(s.dir, s.database), spec: quoteSpec(s), load, after: tracker.after }
    ]
    const runs = await runRounds("latency", configs)
    const sums = [B, RQ_QUOTE].map((c) => summarize(runs, c, [B]))
    const rq = sums[1]
    const ratio = rq?.p99Ratio[B]
    const audit = tracker.totals()
    const targets: Array<Target> = [{
      what: `p99 at ${http.rate} req/s ÷ (b) p99`,
      target: "≤ 1.5×",
      value: ratio === undefined
        ? "–"
        : `${fmtRatio(ratio)} (achieved ${fmt(rq?.rps.median ?? NaN)} and ${fmt(sums[0]?.rps.median ?? NaN)} req/s for (b))`,
      pass: ratio === undefined || Number.isNaN(ratio.median) ? undefined : ratio.median <= 1.5
    }]
    const text = [
      table(
        ["config", "achieved req/s", "p50 ms", "p99 ms", "non-2xx", "server CPU µs/req", "server CPU % of core", "p99 ÷ (b)"],
        sums.map((x) => [
          x.config,
          fmtSpread(x.rps),
          fmtSpread(x.p50),
          fmtSpread(x.p99),
          String(x.non2xx + x.errors),
          fmtSpread(x.cpuPerRequestUs),
          fmtSpread(x.serverCpuPct),
          x.config === B ? "×1" : fmtRatio(x.p99Ratio[B] ?? none)
        ])
      ),
      "",
      `autocannon -R ${http.rate} (overall rate over ${http.connections} connections; it sends in bursts, and corrects for ` +
        `coordinated omission). Audit: ${audit.audited200} of ${audit.answered200} ridequote 200s found. ${methodNote()}`
    ].join("\n")
    return { title: latencySection.title, table: text, results: { summaries: sums, audit, runs }, targets }
  }
}

// ---- token issue -------------------------------------------------------------------------------

const TOKEN = "ridequote POST /v1/auth/token"

export const tokenSection: Section = {
  id: "token",
  title: "Token issue: POST /v1/auth/token vs (a)",
  run: async (shared) => {
    const s = await setup(shared)
    const spec: LoadSpec = {
      path: "/v1/auth/token",
      method: "POST",
      headers: { "x-api-key": s.account.apiKey, "x-api-secret": s.account.apiSecret }
    }
    const configs: Array<Config> = [
      fixedConfig(s, spec),
      { name: TOKEN, start: () => startRidequote(s.dir, s.database), spec }
    ]
    const runs: Array<Run> = await runRounds("token", configs)
    const sums = [A, TOKEN].map((c) => summarize(runs, c, [A]))
    const text = [
      table(["config", "req/s", "p50 ms", "p99 ms", "non-2xx", "server CPU µs/req", "req/s ÷ (a)", "CPU/req ÷ (a)"], sums.map((x) => loadRow(x, [A]))),
      "",
      `Every issue reads the account and stores a token row (no target in issue 7). ${methodNote()}`
    ].join("\n")
    return { title: tokenSection.title, table: text, results: { summaries: sums, runs } }
  }
}
