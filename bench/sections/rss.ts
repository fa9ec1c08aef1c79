/**
 * RSS of the `ridequote serve` process as quotes accumulate: VmRSS (/proc/<pid>/status) after
 * BENCH_RSS_FIRST (200,000) and after BENCH_RSS_TOTAL (1,000,000) quotes, sent in bounded
 * autocannon batches (`-a`) on one server process; each figure is the median of 3 readings
 * 1 s apart. BENCH_RSS_MAX_SECONDS caps the section's wall time (the table then says how far
 * it got).
 */
import { join } from "node:path"
import { countQuoted } from "../lib/audit-count.js"
import { http, rss } from "../lib/config.js"
import { runLoad } from "../lib/load.js"
import { cpuMicros, makeTempDir, rssKb, sleep } from "../lib/procs.js"
import { createAccount, issueToken, probeQuote, quoteBody, startRidequote } from "../lib/ridequote.js"
import { log } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import { fmt, fmtSpread, median, type Spread, spread, table } from "../lib/stats.js"

interface Checkpoint {
  readonly quotes: number
  readonly rssMb: Spread
  readonly batchRps: number
  readonly batchP99: number
  readonly batchCpuPerRequestUs: number
  readonly non2xx: number
}

const readRss = async (pid: number): Promise<Spread> => {
  const xs: Array<number> = []
  for (let i = 0; i < 3; i++) {
    await sleep(1000)
    xs.push((rssKb(pid) ?? Number.NaN) / 1024)
  }
  return spread(xs)
}

/** At most `max` rows for the table: evenly spaced, always keeping `keep` and the last. */
const thin = <A>(xs: ReadonlyArray<A>, keep: A | undefined, max: number): ReadonlyArray<A> => {
  if (xs.length <= max) return xs
  const step = (xs.length - 1) / (max - 1)
  const picked = new Set<A>(Array.from({ length: max }, (_, i) => xs[Math.round(i * step)]).filter((x): x is A => x !== undefined))
  if (keep !== undefined) picked.add(keep)
  return xs.filter((x) => picked.has(x))
}

export const rssSection: Section = {
  id: "rss",
  title: `RSS of serve after ${rss.first.toLocaleString("en-US")} vs ${rss.total.toLocaleString("en-US")} quotes`,
  run: async () => {
    const deadline = Date.now() + rss.maxSeconds * 1000
    const dir = makeTempDir("rss")
    const database = join(dir, "ridequote.db")
    const account = await createAccount(database)
    const server = await startRidequote(dir, database)
    const checkpoints: Array<Checkpoint> = []
    let sent = 1
    let ok = 1
    let capped = false
    let audited = 0
    try {
      const token = await issueToken(server.url, account)
      const body = quoteBody()
      await probeQuote(server.url, token, body)
      const startRss = await readRss(server.pid)
      const spec = {
        path: "/v1/quote",
        method: "POST" as const,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body
      }
      // Batches of ~30 s at the last measured rate (at most a quarter of the first mark), so
      // the wall-clock cap is checked often and every batch leaves an RSS reading.
      const maxBatch = Math.max(1000, Math.floor(rss.first / 4))
      const marks = [rss.first, rss.total]
      let lastRps = 200
      while (sent < rss.total) {
        if (Date.now() >= deadline) {
          capped = true
          break
        }
        const next = marks.find((m) => m > sent) ?? rss.total
        const amount = Math.max(1, Math.min(maxBatch, next - sent, Math.max(1000, Math.round(lastRps * 30))))
        const cpu0 = cpuMicros(server.pid)
        const r = await runLoad(server.url, spec, { amount, connections: http.connections })
        const cpu1 = cpuMicros(server.pid)
        const answered = r.s2xx + r.non2xx
        if (answered === 0) throw new Error("no responses in a batch")
        sent += answered
        ok += r.s2xx
        lastRps = r.rps
        const rssMb = await readRss(server.pid)
        checkpoints.push({
          quotes: sent,
          rssMb,
          batchRps: r.rps,
          batchP99: r.p99,
          batchCpuPerRequestUs: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / answered : NaN,
          non2xx: r.non2xx + r.errors
        })
        log(`rss: ${sent} quotes, ${Math.round(r.rps)} req/s, RSS ${fmt(rssMb.median)} MB`)
      }
      audited = countQuoted(database)
      // The figure at the first mark (or, when the cap came first, the first batch: "partial").
      const first = checkpoints.find((c) => c.quotes >= rss.first) ?? checkpoints[0]
      const last = checkpoints.at(-1)
      const growth = first !== undefined && last !== undefined && last !== first ? last.rssMb.median / first.rssMb.median : NaN
      const reachedTotal = last !== undefined && last.quotes >= rss.total
      // RSS swings with the old generation's collections, so two single readings can differ by
      // 30 % with no trend. Shown beside the target (which stays the two readings): the median
      // of the checkpoints within ±25 % of each mark, a figure less bound to the collector's phase.
      const around = (mark: number) =>
        checkpoints.filter((c) => c.quotes >= mark * 0.75 && c.quotes <= mark * 1.25).map((c) => c.rssMb.median)
      const nearFirst = around(rss.first)
      const nearLast = around(last?.quotes ?? rss.total)
      const windowGrowth = nearFirst.length > 0 && nearLast.length > 0 ? median(nearLast) / median(nearFirst) : NaN
      const readings = spread(checkpoints.map((c) => c.rssMb.median))
      const targets: Array<Target> = [{
        what: `RSS after ${last?.quotes.toLocaleString("en-US") ?? "?"} ÷ after ${first?.quotes.toLocaleString("en-US") ?? "?"} quotes`,
        target: "≤ 1.10× (flat within 10 %)",
        value: Number.isNaN(growth) ? "–" : `×${growth.toFixed(3)}${reachedTotal ? "" : " (capped: partial)"}`,
        pass: Number.isNaN(growth) ? undefined : growth <= 1.1 && reachedTotal ? true : growth > 1.1 ? false : undefined
      }]
      const text = [
        table(
          ["quotes so far", "RSS MB, median [range] of 3", "last batch req/s", "last batch p99 ms", "server CPU µs/req", "non-2xx"],
          [
            ["1 (after start + 1 quote)", fmtSpread(startRss), "–", "–", "–", "–"],
            ...thin(checkpoints, first, 12).map((c) => [
              c.quotes.toLocaleString("en-US"),
              fmtSpread(c.rssMb),
              fmt(c.batchRps),
              fmt(c.batchP99),
              fmt(c.batchCpuPerRequestUs),
              String(c.non2xx)
            ])
          ]
        ),
        "",
        `One serve process, autocannon -a in batches of ~30 s (at most ${maxBatch.toLocaleString("en-US")}; ${http.connections} connections). ` +
          `Audit: ${audited.toLocaleString("en-US")} quoted rows for ${ok.toLocaleString("en-US")} 200s. ` +
          `Median RSS of the checkpoints within ±25 % of each mark: ×${Number.isNaN(windowGrowth) ? "–" : windowGrowth.toFixed(3)} ` +
          `(${nearLast.length} readings near the end against ${nearFirst.length} near ${rss.first.toLocaleString("en-US")}; ` +
          `all readings ${fmt(readings.min)}–${fmt(readings.max)} MB).` +
          (capped ? ` CAPPED by BENCH_RSS_MAX_SECONDS=${rss.maxSeconds} before ${rss.total.toLocaleString("en-US")} quotes.` : "")
      ].join("\n")
      return {
        title: rssSection.title,
        table: text,
        results: { startRssMb: startRss, checkpoints, capped, answered200: ok, auditedQuoted: audited, growth, windowGrowth },
        targets: [
          ...targets,
          {
            what: "RSS run: every 200 in the audit",
            target: "all",
            value: `${audited} of ${ok}`,
            pass: audited >= ok
          }
        ]
      }
    } finally {
      await server.stop()
    }
  }
}
