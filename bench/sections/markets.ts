/**
 * Issues 22 and 33, "new markets cost nothing at quote time": `ridequote serve` with every
 * shipped market (the default folder) against the same program serving only the ten markets
 * shipped before the fifty-airport cities (issue 33: NYC, Chicago and Boston fitted on records
 * with their tariffs, and the seven cities priced from a tariff alone; `--markets` on a copy of
 * those files), measured in the same rounds; and a folder of fifty markets made of those ten
 * files five times over (ids renamed `<id>-copy1..4`: the same areas, so the originals still
 * win their pickups), so that the cost of fifty markets is measured before the new cities land.
 *
 * - Loading: `loadMarketModels` + `marketDataOf` on each folder in a child process (the markets
 *   package's own sources under tsx), cold (first load) and warm (median of the next ones), ms;
 *   every rule decoded at load (what `serve --markets DIR` does) and the tariff cities by their
 *   heads, rules on first use (what `serve` does with the shipped folder). `serve` below reads
 *   the ten and the ten ×5 with `--markets`, so at load: the start-up ratio of the fifty is the
 *   worst case.
 * - Quote throughput: POST /v1/quote for a New York trip (every configuration serves it),
 *   interleaved rounds (lib/rounds.ts): req/s and server CPU per request, ratios per round. Then
 *   each configuration served at once with the ten (lib/paired.ts), `BENCH_MARKETS_PAIRS` pairs of
 *   servers, each pair warmed up together and measured together for `BENCH_MARKETS_PAIR_S`: the
 *   ratio the target is judged on (rounds one after the other moved ×0.85–1.03 between runs on
 *   this host as its speed drifted). The three kinds of pair (every market, the ten ×5, the ten
 *   beside itself: the method's own noise) take turns; each ratio's median comes with its
 *   distribution-free 90 % interval, and server CPU per request is compared beside req/s.
 * - Start-up: `serve` on a new SQLite file until GET /health/ready answers 200, the
 *   configurations alternating (`BENCH_STARTUP_RUNS`, 5), ratio to the ten per pair.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { http, quick } from "../lib/config.js"
import { HALF_CONNECTIONS, loadTogether } from "../lib/paired.js"
import { cpuMicros, makeTempDir, runCaptured, waitQuiet } from "../lib/procs.js"
import { type Account, COMPILED_CMD, createAccount, issueToken, probeQuote, startRidequote } from "../lib/ridequote.js"
import { type Config, log, runRounds, summarize } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import { fmtRatio, fmtSpread, medianInterval, spread, table } from "../lib/stats.js"
import { readyTiming } from "./startup.js"

const MODELS = join(import.meta.dirname, "..", "..", "packages", "markets", "models")
/** The ten markets shipped before issue 33's cities: three fitted on records (and NYC's ride-hail joining NYC), seven from a tariff alone. */
const TEN = [
  "nyc.json", "nyc-tariff.json", "nyc-ride-hail.json", "chicago.json", "chicago-tariff.json", "boston.json", "boston-tariff.json",
  "san-francisco-tariff.json", "tokyo-tariff.json", "berlin-tariff.json", "toronto-tariff.json", "singapore-tariff.json",
  "amsterdam-tariff.json", "hong-kong-tariff.json"
]
/** How many times the ten are copied into the fifty-market folder. */
const COPIES = 5
/** The ten's tariff-only cities, copied `CITY_COPIES` times beside the fitted markets: 3 + 7 × 7 = 52 markets, the shape of the fifty cities. */
const TARIFF_CITIES = TEN.filter((f) => f.endsWith("-tariff.json") && !["nyc-tariff.json", "chicago-tariff.json", "boston-tariff.json"].includes(f))
const CITY_COPIES = 7
const CITIES = "the fitted three, the seven tariff cities ×7 (52 markets)"
/** Start-up rounds: single start-ups here range ±20 % (0.72–1.03 s for the same folder within a minute), so the median needs many. */
const RUNS = Math.max(3, Number(process.env["BENCH_STARTUP_RUNS"] ?? (quick ? "3" : "15")) || 15)
const PAIRS = Math.max(1, Number(process.env["BENCH_MARKETS_PAIRS"] ?? (quick ? "2" : "10")) || 10)
const PAIR_S = Math.max(1, Number(process.env["BENCH_MARKETS_PAIR_S"] ?? (quick ? "3" : "8")) || 8)

const ALL = "ridequote, every shipped market"
const FOUR = "ridequote, the ten markets of before"
const FIFTY = "ridequote, the ten ×5 (50 markets)"

/**
 * The ten files, then `copies` − 1 more copies of `which` of them, ids renamed (a model's id
 * and joins, a tariff's market): the ten ×5 (every file), or the shape the fifty cities will
 * have (the fitted markets once, the tariff cities many times).
 */
const writeCopies = (dir: string, copies: number, which: ReadonlyArray<string> = TEN): void => {
  for (const file of TEN) copyFileSync(join(MODELS, file), join(dir, file))
  for (let k = 1; k < copies; k++) {
    for (const file of which) {
      const json = JSON.parse(readFileSync(join(MODELS, file), "utf8")) as Record<string, unknown>
      const renamed = (id: unknown) => `${String(id)}-copy${k}`
      if (json["format"] === "ridequote-market") {
        json["id"] = renamed(json["id"])
        if (json["joins"] !== undefined) json["joins"] = renamed(json["joins"])
      } else {
        json["market"] = renamed(json["market"])
      }
      writeFileSync(join(dir, file.replace(/\.json$/, `-copy${k}.json`)), JSON.stringify(json))
    }
  }
}

/**
 * `loadMarketModels` then `marketDataOf` on each folder, in a child process on the markets
 * package's sources: the first load (cold: modules loaded, nothing cached) and the median of the
 * next `runs`, ms.
 */
const loadTimings = async (dirs: Record<string, string>, runs: number): Promise<Record<string, { markets: number; coldMs: number; warmMs: ReadonlyArray<number> }>> => {
  const code = `
    import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
    import { Effect } from "effect"
    import { loadMarketModels, marketDataOf } from "./src/index.ts"
    const dirs = ${JSON.stringify(dirs)}
    const out = {}
    for (const [key, dir] of Object.entries(dirs)) {
      const [name, mode] = key.split("|")
      const once = async () => {
        const t0 = performance.now()
        const markets = await Effect.runPromise(Effect.provide(loadMarketModels(dir, { rulesOnFirstUse: mode === "heads" }), NodeFileSystem.layer))
        const data = marketDataOf(markets, undefined)
        return { ms: performance.now() - t0, markets: data.markets.length }
      }
      const cold = await once()
      const warm = []
      for (let i = 0; i < ${runs}; i++) warm.push((await once()).ms)
      out[key] = { markets: cold.markets, coldMs: cold.ms, warmMs: warm }
    }
    console.log(JSON.stringify(out))
  `
  const r = await runCaptured(["sh", "-c", `cd packages/markets && exec node --import tsx --input-type=module -e "$0"`, code], {}, 300_000)
  if (r.code !== 0) throw new Error(`markets load timing failed: ${r.stderr.slice(-2000)}`)
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, { markets: number; coldMs: number; warmMs: ReadonlyArray<number> }>
}

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

type Ready = { seconds: number; cpuSeconds: number }

export const marketsSection: Section = {
  id: "markets",
  title: "Markets loaded (issues 22, 33): every shipped market, and the ten ×5, vs the ten of before — loading, NYC quote throughput and start-up",
  run: async () => {
    const dir = makeTempDir("markets")
    const ten = join(dir, "ten-markets")
    const fifty = join(dir, "fifty-markets")
    mkdirSync(ten)
    mkdirSync(fifty)
    for (const file of TEN) copyFileSync(join(MODELS, file), join(ten, file))
    writeCopies(fifty, COPIES)
    const cities = join(dir, "city-shaped")
    mkdirSync(cities)
    writeCopies(cities, CITY_COPIES, TARIFF_CITIES)
    const shipped = readdirSync(MODELS).filter((f) => f.endsWith(".json"))

    // Each folder decoded at once (what serve does with --markets DIR) and by heads, rules on first use (what it does with the shipped folder).
    const loads = await loadTimings({
      [`${FOUR}|all`]: ten, [`${FOUR}|heads`]: ten, [`${ALL}|all`]: MODELS, [`${ALL}|heads`]: MODELS, [`${FIFTY}|all`]: fifty, [`${FIFTY}|heads`]: fifty,
      [`${CITIES}|all`]: cities, [`${CITIES}|heads`]: cities
    }, quick ? 5 : 15)
    for (const [key, l] of Object.entries(loads)) {
      log(`markets load ${key}: ${l.markets} markets, cold ${l.coldMs.toFixed(1)} ms, warm median ${spread([...l.warmMs]).median.toFixed(1)} ms`)
    }

    const database = join(dir, "markets.db")
    const account = await createAccount(database)
    const body = nycQuote()
    const startAll = (options?: { readonly ownSession?: boolean }) => startRidequote(dir, database, [], options)
    const startTen = (options?: { readonly ownSession?: boolean }) => startRidequote(dir, database, ["--markets", ten], options)
    const startFifty = (options?: { readonly ownSession?: boolean }) => startRidequote(dir, database, ["--markets", fifty], options)
    const all = await probe(startAll, account, body)
    const four = await probe(startTen, account, body)
    const fiftyProbe = await probe(startFifty, account, body)
    log(`markets setup: ${all.markets} markets served by default (${all.offers} offers), ${four.markets} the ten (${four.offers} offers), ${fiftyProbe.markets} the ten ×${COPIES} (${fiftyProbe.offers} offers)`)
    const spec = {
      path: "/v1/quote",
      method: "POST" as const,
      headers: { authorization: `Bearer ${all.token}`, "content-type": "application/json" },
      body
    }
    const configs: Array<Config> = [
      { name: FOUR, start: startTen, spec },
      { name: ALL, start: startAll, spec },
      { name: FIFTY, start: startFifty, spec }
    ]
    const runs = await runRounds("markets", configs)
    const [fourSum, allSum, fiftySum] = [FOUR, ALL, FIFTY].map((c) => summarize(runs, c, [FOUR]))

    // Each configuration served at once with the ten: a new pair of servers each time, warmed up
    // together, then measured together. The three kinds of pair take turns (every market, the ten
    // ×5, the ten beside itself, then again), so that the host's drift over the minutes falls on
    // each alike and the A/A pairs measure the noise of the very minutes the others ran in.
    const kinds = [
      { label: "every market", start: startAll, rps: [] as Array<number>, cpu: [] as Array<number> },
      { label: "the ten ×5", start: startFifty, rps: [] as Array<number>, cpu: [] as Array<number> },
      // The method's own noise: the ten beside the ten, the same program and folder on both sides,
      // so any ratio away from 1 is the pairing's (two servers sharing one core), not the markets'.
      { label: "the ten (beside itself)", start: startTen, rps: [] as Array<number>, cpu: [] as Array<number> }
    ]
    for (let i = 0; i < PAIRS; i++) {
      for (const kind of kinds) {
        await waitQuiet(http.quietWaitS, http.quietPct)
        // Which server starts and is loaded first alternates from pair to pair, so that an
        // advantage of either place in the pair (start order, the load generator's order)
        // falls on both configurations alike.
        const swapped = i % 2 === 1
        const started = await Promise.all((swapped ? [startTen, kind.start] : [kind.start, startTen]).map((s) => s({ ownSession: true })))
        const [a, f] = swapped ? [started[1], started[0]] : [started[0], started[1]]
        if (a === undefined || f === undefined) throw new Error("markets: a server of the pair did not start")
        try {
          const pair = swapped ? ([{ server: f, spec }, { server: a, spec }] as const) : ([{ server: a, spec }, { server: f, spec }] as const)
          await loadTogether(pair, http.warmupS)
          const cpuBefore = [cpuMicros(a.pid), cpuMicros(f.pid)]
          const measured = await loadTogether(pair, PAIR_S)
          const cpuAfter = [cpuMicros(a.pid), cpuMicros(f.pid)]
          const [ra, rf] = swapped ? [measured[1], measured[0]] : [measured[0], measured[1]]
          // Server CPU per answered request over the measured seconds: the same comparison seen
          // from the servers' side (under a fair share of the core it tracks req/s inversely).
          const perRequest = (k: number, r: typeof ra) => ((cpuAfter[k] ?? Number.NaN) - (cpuBefore[k] ?? Number.NaN)) / (r.rps * r.durationS)
          const [ca, cf] = [perRequest(0, ra), perRequest(1, rf)]
          kind.rps.push(ra.rps / rf.rps)
          kind.cpu.push(ca / cf)
          log(`markets served at once ${i + 1}/${PAIRS}: ${kind.label} ${Math.round(ra.rps)} req/s ${Math.round(ca)} µs/req, the ten ${Math.round(rf.rps)} req/s ${Math.round(cf)} µs/req (req/s ×${(ra.rps / rf.rps).toFixed(3)}, CPU/req ×${(ca / cf).toFixed(3)}), non-2xx ${ra.non2xx + rf.non2xx}`)
        } finally {
          await Promise.all([a.stop(), f.stop()])
        }
      }
    }
    const [paired, pairedFifty, pairedSame] = kinds.map((k) => k.rps) as [Array<number>, Array<number>, Array<number>]
    const [pairedCpu, pairedFiftyCpu, pairedSameCpu] = kinds.map((k) => k.cpu) as [Array<number>, Array<number>, Array<number>]
    const pairedRatio = spread(paired)
    const pairedFiftyRatio = spread(pairedFifty)
    const pairedSameRatio = spread(pairedSame)
    /** The median's 90 % interval (distribution-free), when there are enough pairs for one. */
    const withinOf = (xs: ReadonlyArray<number>) => {
      const ci = medianInterval(xs)
      return ci === undefined ? "" : `, median's ${Math.round(ci.coverage * 100)} % interval ${ci.low.toFixed(3)}–${ci.high.toFixed(3)}`
    }

    // Start-up: the configurations rotate, each on a new file; ratio to the ten within each round.
    const ready: Record<string, Array<Ready>> = { [FOUR]: [], [ALL]: [], [FIFTY]: [] }
    const argsOf: Record<string, ReadonlyArray<string>> = { [FOUR]: ["--markets", ten], [ALL]: [], [FIFTY]: ["--markets", fifty] }
    const order = [FOUR, ALL, FIFTY]
    for (let i = 0; i < RUNS; i++) {
      const turn = [...order.slice(i % 3), ...order.slice(0, i % 3)]
      for (const [j, which] of turn.entries()) ready[which]?.push(await readyTiming(COMPILED_CMD, dir, 300 + 3 * i + j, argsOf[which]))
      log(`markets start-up ${i + 1}/${RUNS}: ${order.map((c) => `${c.replace("ridequote, ", "")} ${ready[c]?.at(-1)?.seconds.toFixed(3)} s (CPU ${ready[c]?.at(-1)?.cpuSeconds.toFixed(3)} s)`).join(", ")}`)
    }
    const readyTen = ready[FOUR] ?? []
    const ratiosTo = (config: string, pick: (r: Ready) => number) =>
      (ready[config] ?? []).map((r, i) => pick(r) / pick(readyTen[i] ?? { seconds: Number.NaN, cpuSeconds: Number.NaN }))
    const startRatios = ratiosTo(ALL, (r) => r.seconds)
    const startFiftyRatios = ratiosTo(FIFTY, (r) => r.seconds)
    const startRatio = spread(startRatios)
    const startCpuRatio = spread(ratiosTo(ALL, (r) => r.cpuSeconds))
    const startFiftyRatio = spread(startFiftyRatios)
    const startFiftyCpuRatio = spread(ratiosTo(FIFTY, (r) => r.cpuSeconds))
    const loadFifty = spread([...(loads[`${FIFTY}|heads`]?.warmMs ?? [])])
    const loadFiftyAll = spread([...(loads[`${FIFTY}|all`]?.warmMs ?? [])])
    const loadCities = spread([...(loads[`${CITIES}|heads`]?.warmMs ?? [])])
    const loadShipped = spread([...(loads[`${ALL}|heads`]?.warmMs ?? [])])
    const targets: Array<Target> = [
      {
        what: "NYC quote req/s, every market ÷ the ten, served at once",
        target: "≥ 0.97×",
        value: `${fmtRatio(pairedRatio)}${withinOf(paired)} (server CPU/req ÷ the ten ${fmtRatio(spread(pairedCpu))}; rounds one after the other: ${allSum?.rpsRatio[FOUR] === undefined ? "–" : fmtRatio(allSum.rpsRatio[FOUR])}; the ten beside itself: ${fmtRatio(pairedSameRatio)}${withinOf(pairedSame)})`,
        pass: Number.isNaN(pairedRatio.median) ? undefined : pairedRatio.median >= 0.97
      },
      {
        what: "NYC quote req/s, the ten ×5 (50 markets) ÷ the ten, served at once",
        target: "≥ 0.97×",
        value: `${fmtRatio(pairedFiftyRatio)}${withinOf(pairedFifty)} (server CPU/req ÷ the ten ${fmtRatio(spread(pairedFiftyCpu))}; rounds one after the other: ${fiftySum?.rpsRatio[FOUR] === undefined ? "–" : fmtRatio(fiftySum.rpsRatio[FOUR])})`,
        pass: Number.isNaN(pairedFiftyRatio.median) ? undefined : pairedFiftyRatio.median >= 0.97
      },
      {
        what: "serve until /health/ready, every market ÷ the ten (wall clock)",
        target: "≤ 1.10×",
        value: `${fmtRatio(startRatio)}${withinOf(startRatios)} (server CPU to ready ${fmtRatio(startCpuRatio)})`,
        pass: Number.isNaN(startRatio.median) ? undefined : startRatio.median <= 1.1
      },
      {
        what: "serve until /health/ready, the ten ×5 ÷ the ten (wall clock)",
        target: "≤ 1.10×",
        value: `${fmtRatio(startFiftyRatio)}${withinOf(startFiftyRatios)} (server CPU to ready ${fmtRatio(startFiftyCpuRatio)})`,
        pass: Number.isNaN(startFiftyRatio.median) ? undefined : startFiftyRatio.median <= 1.1
      },
      {
        what: "loading fifty markets' files (the ten ×5), tariff cities' rules on first use (as serve reads the shipped folder), warm median",
        target: "≤ 100 ms",
        value: `${loadFifty.median.toFixed(1)} ms (cold ${loads[`${FIFTY}|heads`]?.coldMs.toFixed(1) ?? "–"} ms; every rule at once: ${loadFiftyAll.median.toFixed(1)} ms, cold ${loads[`${FIFTY}|all`]?.coldMs.toFixed(1) ?? "–"} ms)`,
        pass: Number.isNaN(loadFifty.median) ? undefined : loadFifty.median <= 100
      },
      {
        what: "loading the shipped folder (every shipped market), rules on first use, as serve does, warm median",
        target: "≤ 100 ms",
        value: `${loadShipped.median.toFixed(1)} ms (cold ${loads[`${ALL}|heads`]?.coldMs.toFixed(1) ?? "–"} ms; every rule at once: ${spread([...(loads[`${ALL}|all`]?.warmMs ?? [])]).median.toFixed(1)} ms)`,
        pass: Number.isNaN(loadShipped.median) ? undefined : loadShipped.median <= 100
      },
      {
        what: "loading 52 markets shaped as the fifty cities will be (3 fitted, 49 tariff cities), rules on first use, warm median",
        target: "≤ 100 ms",
        value: `${loadCities.median.toFixed(1)} ms (cold ${loads[`${CITIES}|heads`]?.coldMs.toFixed(1) ?? "–"} ms; every rule at once: ${spread([...(loads[`${CITIES}|all`]?.warmMs ?? [])]).median.toFixed(1)} ms)`,
        pass: Number.isNaN(loadCities.median) ? undefined : loadCities.median <= 100
      }
    ]
    const row = (name: string, markets: number, sum: typeof fourSum, readyOf: Array<Ready>, ratios: { rps: string; cpu: string; ready: string; readyCpu: string }) => [
      name, String(markets), fmtSpread(sum?.rps ?? spread([])), fmtSpread(sum?.p99 ?? spread([])), String(sum?.non2xx ?? "–"), fmtSpread(sum?.cpuPerRequestUs ?? spread([])),
      ratios.rps, ratios.cpu, fmtSpread(spread(readyOf.map((r) => r.seconds)), 3), ratios.ready, fmtSpread(spread(readyOf.map((r) => r.cpuSeconds)), 3), ratios.readyCpu
    ]
    const ratioOr = (x: ReturnType<typeof spread> | undefined) => (x === undefined ? "–" : fmtRatio(x))
    const text = [
      table(
        ["config", "markets", "req/s", "p99 ms", "non-2xx", "server CPU µs/req", "req/s ÷ ten", "CPU/req ÷ ten", "ready s", "ready ÷ ten", "CPU to ready s", "÷ ten"],
        [
          row(FOUR, four.markets, fourSum, readyTen, { rps: "×1", cpu: "×1", ready: "×1", readyCpu: "×1" }),
          row(ALL, all.markets, allSum, ready[ALL] ?? [], { rps: ratioOr(allSum?.rpsRatio[FOUR]), cpu: ratioOr(allSum?.cpuRatio[FOUR]), ready: fmtRatio(startRatio), readyCpu: fmtRatio(startCpuRatio) }),
          row(FIFTY, fiftyProbe.markets, fiftySum, ready[FIFTY] ?? [], { rps: ratioOr(fiftySum?.rpsRatio[FOUR]), cpu: ratioOr(fiftySum?.cpuRatio[FOUR]), ready: fmtRatio(startFiftyRatio), readyCpu: fmtRatio(startFiftyCpuRatio) })
        ]
      ),
      "",
      table(
        ["folder", "rules decoded", "markets", "first load ms", "warm load ms (median, p10–p90)"],
        Object.entries(loads).map(([key, l]) => {
          const [name, mode] = key.split("|")
          return [name ?? key, mode === "heads" ? "on first use" : "at load", String(l.markets), l.coldMs.toFixed(1), fmtSpread(spread([...l.warmMs]), 1)]
        })
      ),
      "",
      `Served at once (${PAIRS} pairs of servers per kind, the kinds taking turns, ${HALF_CONNECTIONS} connections each, ${PAIR_S} s after ${http.warmupS} s together), req/s: every market ÷ the ten ${fmtRatio(pairedRatio)}${withinOf(paired)}; the ten ×${COPIES} ÷ the ten ${fmtRatio(pairedFiftyRatio)}${withinOf(pairedFifty)}; the ten ÷ the ten (the pairing's own noise) ${fmtRatio(pairedSameRatio)}${withinOf(pairedSame)}. ` +
        `Server CPU per request, ÷ the ten's: every market ${fmtRatio(spread(pairedCpu))}, the ten ×${COPIES} ${fmtRatio(spread(pairedFiftyCpu))}, the ten beside itself ${fmtRatio(spread(pairedSameCpu))}. ` +
        `Default folder: ${shipped.length} files (${shipped.join(", ")}); the ten: ${TEN.join(", ")} (--markets); the ten ×${COPIES}: the same files with ids renamed <id>-copy1..${COPIES - 1}. ` +
        `Quote: Times Square → Empire State Building, supplied route, ${all.offers} offers with every market, ${four.offers} with the ten. ` +
        `Start-up: ${RUNS} rounds, rotating order, compiled program, new SQLite file each. Loading: loadMarketModels + marketDataOf in one process on the package's sources (tsx); "on first use": the tariff cities by their heads (serve's shipped folder).`
    ].join("\n")
    return {
      title: marketsSection.title,
      table: text,
      results: { runs, summaries: [fourSum, allSum, fiftySum], paired, pairedRatio, pairedCpu, pairedFifty, pairedFiftyRatio, pairedFiftyCpu, pairedSame, pairedSameRatio, pairedSameCpu, ready, startRatio, startCpuRatio, startFiftyRatio, startFiftyCpuRatio, loads, markets: { all: all.markets, ten: four.markets, fifty: fiftyProbe.markets } },
      targets
    }
  }
}
