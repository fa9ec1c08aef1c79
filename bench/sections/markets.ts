/**
 * Issue 22, "new markets cost nothing at quote time": `ridequote serve` with every shipped
 * market (the default folder: the four markets fitted on trip records, their tariffs, and the
 * cities priced from a tariff alone) against the same program serving only the four fitted
 * markets and their tariffs (`--markets` on a copy of those files: what it served before the
 * tariff-only cities), measured in the same rounds.
 *
 * - Quote throughput: POST /v1/quote for a New York trip (both serve it), interleaved rounds
 *   (lib/rounds.ts): req/s and server CPU per request, ratios per round. Then the two served at
 *   once (lib/paired.ts), `BENCH_MARKETS_PAIRS` pairs of servers, each pair warmed up together
 *   and measured together for `BENCH_MARKETS_PAIR_S`: the ratio the target is judged on (rounds
 *   one after the other moved ×0.85–1.03 between runs on this host as its speed drifted).
 * - Start-up: `serve` on a new SQLite file until GET /health/ready answers 200, the two
 *   configurations alternating (`BENCH_STARTUP_RUNS`, 5), ratio per pair.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { http, quick } from "../lib/config.js"
import { HALF_CONNECTIONS, loadTogether } from "../lib/paired.js"
import { makeTempDir, waitQuiet } from "../lib/procs.js"
import { type Account, COMPILED_CMD, createAccount, issueToken, probeQuote, startRidequote } from "../lib/ridequote.js"
import { type Config, log, runRounds, summarize } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import { fmtRatio, fmtSpread, spread, table } from "../lib/stats.js"
import { readyTiming } from "./startup.js"

const MODELS = join(import.meta.dirname, "..", "..", "packages", "markets", "models")
/** The markets fitted on trip records, with the tariffs that bring them to today's prices. */
const FITTED = ["nyc.json", "nyc-tariff.json", "chicago.json", "chicago-tariff.json", "boston.json", "boston-tariff.json", "nyc-ride-hail.json"]
const RUNS = Math.max(3, Number(process.env["BENCH_STARTUP_RUNS"] ?? "5") || 5)
const PAIRS = Math.max(1, Number(process.env["BENCH_MARKETS_PAIRS"] ?? (quick ? "2" : "5")) || 5)
const PAIR_S = Math.max(1, Number(process.env["BENCH_MARKETS_PAIR_S"] ?? (quick ? "3" : "10")) || 10)

const ALL = "ridequote, every shipped market"
const FOUR = "ridequote, the four fitted markets"

/** Times Square → Empire State Building, supplied route, two hours ahead: priced by NYC's taxi and ride-hail. */
const nycQuote = (): string =>
  JSON.stringify({
    pickup: { latitude: 40.758, longitude: -73.9855 },
    destination: { latitude: 40.7484, longitude: -73.9857 },
    distanceKm: 1.6,
    durationMinutes: 9,
    scheduledAt: new Date(Date.now() + 2 * 3_600_000).toISOString()
  })

/** Markets served (GET /v1/markets) and offers in the probe quote, as a check that each configuration serves what it says. */
const probe = async (start: () => ReturnType<typeof startRidequote>, account: Account, body: string) => {
  const server = await start()
  try {
    const token = await issueToken(server.url, account)
    const quote = JSON.parse(await probeQuote(server.url, token, body)) as { marketPrices?: Record<string, unknown> }
    const res = await fetch(`${server.url}/v1/markets`, { headers: { authorization: `Bearer ${token}` } })
    const markets = (await res.json()) as ReadonlyArray<{ readonly sampleData?: boolean }>
    // The sample market (the bench serves with --sample-fallback on) is not one of ours.
    return { token, markets: markets.filter((m) => m.sampleData !== true).length, offers: Object.keys(quote.marketPrices ?? {}).length }
  } finally {
    await server.stop()
  }
}

export const marketsSection: Section = {
  id: "markets",
  title: "Markets loaded (issue 22): every shipped market vs the four fitted ones — NYC quote throughput and start-up",
  run: async () => {
    const dir = makeTempDir("markets")
    const fitted = join(dir, "fitted-markets")
    mkdirSync(fitted)
    for (const file of FITTED) copyFileSync(join(MODELS, file), join(fitted, file))
    const shipped = readdirSync(MODELS).filter((f) => f.endsWith(".json"))
    const database = join(dir, "markets.db")
    const account = await createAccount(database)
    const body = nycQuote()
    const startAll = (options?: { readonly ownSession?: boolean }) => startRidequote(dir, database, [], options)
    const startFour = (options?: { readonly ownSession?: boolean }) => startRidequote(dir, database, ["--markets", fitted], options)
    const all = await probe(startAll, account, body)
    const four = await probe(startFour, account, body)
    log(`markets setup: ${all.markets} markets served by default (${all.offers} offers), ${four.markets} with --markets (${four.offers} offers)`)
    const spec = {
      path: "/v1/quote",
      method: "POST" as const,
      headers: { authorization: `Bearer ${all.token}`, "content-type": "application/json" },
      body
    }
    const configs: Array<Config> = [
      { name: FOUR, start: startFour, spec },
      { name: ALL, start: startAll, spec }
    ]
    const runs = await runRounds("markets", configs)
    const [fourSum, allSum] = [FOUR, ALL].map((c) => summarize(runs, c, [FOUR]))

    // The two served at once: a new pair of servers each time, warmed up together, then measured together.
    const paired: Array<number> = []
    for (let i = 0; i < PAIRS; i++) {
      await waitQuiet(http.quietWaitS, http.quietPct)
      const [a, f] = await Promise.all([startAll, startFour].map((start) => start({ ownSession: true })))
      if (a === undefined || f === undefined) throw new Error("markets: a server of the pair did not start")
      try {
        const pair = [{ server: a, spec }, { server: f, spec }] as const
        await loadTogether(pair, http.warmupS)
        const [ra, rf] = await loadTogether(pair, PAIR_S)
        paired.push(ra.rps / rf.rps)
        log(`markets served at once ${i + 1}/${PAIRS}: every market ${Math.round(ra.rps)} req/s, the four ${Math.round(rf.rps)} req/s (×${(ra.rps / rf.rps).toFixed(2)}), non-2xx ${ra.non2xx + rf.non2xx}`)
      } finally {
        await Promise.all([a.stop(), f.stop()])
      }
    }
    const pairedRatio = spread(paired)

    // Start-up: the two configurations alternate, each on a new file; ratio within each pair.
    const readyAll: Array<{ seconds: number; cpuSeconds: number }> = []
    const readyFour: Array<{ seconds: number; cpuSeconds: number }> = []
    for (let i = 0; i < RUNS; i++) {
      const pair = i % 2 === 0 ? ["four", "all"] : ["all", "four"]
      for (const which of pair) {
        if (which === "all") readyAll.push(await readyTiming(COMPILED_CMD, dir, 300 + 2 * i))
        else readyFour.push(await readyTiming(COMPILED_CMD, dir, 301 + 2 * i, ["--markets", fitted]))
      }
      const [a, f] = [readyAll.at(-1), readyFour.at(-1)]
      log(`markets start-up ${i + 1}/${RUNS}: all ${a?.seconds.toFixed(3)} s (CPU ${a?.cpuSeconds.toFixed(3)} s), four ${f?.seconds.toFixed(3)} s (CPU ${f?.cpuSeconds.toFixed(3)} s)`)
    }
    const pairRatio = (pick: (r: { seconds: number; cpuSeconds: number }) => number) =>
      spread(readyAll.map((r, i) => pick(r) / pick(readyFour[i] ?? { seconds: Number.NaN, cpuSeconds: Number.NaN })))
    const startRatio = pairRatio((r) => r.seconds)
    const startCpuRatio = pairRatio((r) => r.cpuSeconds)
    const rpsRatio = allSum?.rpsRatio[FOUR]
    const cpuRatio = allSum?.cpuRatio[FOUR]
    const targets: Array<Target> = [
      {
        what: "NYC quote req/s, every market ÷ the four fitted, served at once",
        target: "≥ 0.95×",
        value: `${fmtRatio(pairedRatio)} (rounds one after the other: ${rpsRatio === undefined ? "–" : fmtRatio(rpsRatio)})`,
        pass: Number.isNaN(pairedRatio.median) ? undefined : pairedRatio.median >= 0.95
      },
      {
        what: "serve until /health/ready, every market ÷ the four fitted (wall clock)",
        target: "≤ 1.10×",
        value: fmtRatio(startRatio),
        pass: Number.isNaN(startRatio.median) ? undefined : startRatio.median <= 1.1
      },
      {
        what: "serve until /health/ready, every market ÷ the four fitted (server CPU)",
        target: "≤ 1.10×",
        value: fmtRatio(startCpuRatio),
        pass: Number.isNaN(startCpuRatio.median) ? undefined : startCpuRatio.median <= 1.1
      }
    ]
    const text = [
      table(
        ["config", "markets", "req/s", "p99 ms", "non-2xx", "server CPU µs/req", "req/s ÷ four", "CPU/req ÷ four", "ready s", "ready ÷ four", "CPU to ready s", "÷ four"],
        [
          [FOUR, String(four.markets), fmtSpread(fourSum?.rps ?? spread([])), fmtSpread(fourSum?.p99 ?? spread([])), String(fourSum?.non2xx ?? "–"), fmtSpread(fourSum?.cpuPerRequestUs ?? spread([])), "×1", "×1", fmtSpread(spread(readyFour.map((r) => r.seconds)), 3), "×1", fmtSpread(spread(readyFour.map((r) => r.cpuSeconds)), 3), "×1"],
          [ALL, String(all.markets), fmtSpread(allSum?.rps ?? spread([])), fmtSpread(allSum?.p99 ?? spread([])), String(allSum?.non2xx ?? "–"), fmtSpread(allSum?.cpuPerRequestUs ?? spread([])), rpsRatio === undefined ? "–" : fmtRatio(rpsRatio), cpuRatio === undefined ? "–" : fmtRatio(cpuRatio), fmtSpread(spread(readyAll.map((r) => r.seconds)), 3), fmtRatio(startRatio), fmtSpread(spread(readyAll.map((r) => r.cpuSeconds)), 3), fmtRatio(startCpuRatio)]
        ]
      ),
      "",
      `Served at once (${PAIRS} pairs of servers, ${HALF_CONNECTIONS} connections each, ${PAIR_S} s after ${http.warmupS} s together): every market ÷ the four ${fmtRatio(pairedRatio)}. ` +
        `Default folder: ${shipped.length} files (${shipped.join(", ")}); the four fitted: ${FITTED.join(", ")} (--markets). ` +
        `Quote: Times Square → Empire State Building, supplied route, ${all.offers} offers with every market, ${four.offers} with four. ` +
        `Start-up: ${RUNS} pairs, alternating order, compiled program, new SQLite file each.`
    ].join("\n")
    return {
      title: marketsSection.title,
      table: text,
      results: { runs, summaries: [fourSum, allSum], paired, pairedRatio, readyAll, readyFour, startRatio, startCpuRatio, markets: { all: all.markets, four: four.markets } },
      targets
    }
  }
}
