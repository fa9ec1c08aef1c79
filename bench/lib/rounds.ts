/**
 * Interleaved load-test rounds: in every round each configuration gets a fresh server process,
 * a warm-up (discarded) and one measured run; the order rotates from round to round so that
 * drift on the shared machine hits every configuration alike. Ratios are taken within a round.
 */
import { http } from "./config.js"
import { type LoadOptions, type LoadResult, type LoadSpec, runLoad } from "./load.js"
import { coreBusy, cpuMicros, waitQuiet } from "./procs.js"
import type { Server } from "./ridequote.js"
import { type Spread, spread } from "./stats.js"

export interface Config {
  readonly name: string
  readonly start: () => Promise<Server>
  /** The request, given the running server. */
  readonly spec: LoadSpec
  readonly load?: LoadOptions
  /** After the measured run, while the server still runs (e.g. the audit count). */
  readonly after?: (server: Server, runs: { warmup: LoadResult; measured: LoadResult }) => Promise<Record<string, number>>
}

export interface Run {
  readonly round: number
  readonly config: string
  readonly warmup: LoadResult
  readonly measured: LoadResult
  /** Server process CPU (user + sys) per answered request of the measured run, µs. */
  readonly cpuPerRequestUs: number
  /** Server CPU use during the measured run, % of one core. */
  readonly serverCpuPct: number
  /** Per-core busy % during the measured run (everything on the machine). */
  readonly coresBusyPct: Record<string, number>
  /** Per-core busy % in the second before the run. */
  readonly coresBusyBeforePct: Record<string, number>
  readonly extra: Record<string, number>
}

export const log = (line: string): void => {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`)
}

export const runRounds = async (title: string, configs: ReadonlyArray<Config>, rounds = http.rounds): Promise<Array<Run>> => {
  const runs: Array<Run> = []
  for (let round = 0; round < rounds; round++) {
    const order = configs.map((_, i) => configs[(i + round) % configs.length]).filter((c): c is Config => c !== undefined)
    for (const config of order) {
      const server = await config.start()
      try {
        const before = await waitQuiet(http.quietWaitS, http.quietPct)
        const warmup = await runLoad(server.url, config.spec, { ...config.load, durationS: http.warmupS })
        const busy = coreBusy()
        const cpu0 = cpuMicros(server.pid)
        const t0 = process.hrtime.bigint()
        const measured = await runLoad(server.url, config.spec, config.load ?? {})
        const wallUs = Number(process.hrtime.bigint() - t0) / 1000
        const cpu1 = cpuMicros(server.pid)
        const coresBusyPct = busy()
        const answered = measured.s2xx + measured.non2xx
        const cpuUs = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : Number.NaN
        const extra = (await config.after?.(server, { warmup, measured })) ?? {}
        const run: Run = {
          round,
          config: config.name,
          warmup,
          measured,
          cpuPerRequestUs: answered > 0 ? cpuUs / answered : Number.NaN,
          serverCpuPct: (cpuUs / wallUs) * 100,
          coresBusyPct,
          coresBusyBeforePct: before,
          extra
        }
        runs.push(run)
        log(
          `${title} round ${round + 1}/${rounds} ${config.name}: ${Math.round(measured.rps)} req/s, p50 ${measured.p50} ms, ` +
            `p99 ${measured.p99} ms, non-2xx ${measured.non2xx}, errors ${measured.errors}, ` +
            `${Math.round(run.cpuPerRequestUs)} µs CPU/req, cores ${JSON.stringify(coresBusyPct)}`
        )
      } finally {
        await server.stop()
      }
    }
  }
  return runs
}

export interface Summary {
  readonly config: string
  readonly rps: Spread
  readonly p50: Spread
  readonly p99: Spread
  readonly cpuPerRequestUs: Spread
  readonly serverCpuPct: Spread
  readonly non2xx: number
  readonly errors: number
  readonly s2xx: number
  /** Per-round ratio of req/s to each baseline config (keyed by its name). */
  readonly rpsRatio: Record<string, Spread>
  /** Per-round ratio of p99 to each baseline config. */
  readonly p99Ratio: Record<string, Spread>
  /** Per-round ratio of server CPU per request to each baseline config (steadier than req/s). */
  readonly cpuRatio: Record<string, Spread>
}

const byRound = (runs: ReadonlyArray<Run>, config: string): Map<number, Run> =>
  new Map(runs.filter((r) => r.config === config).map((r) => [r.round, r]))

export const summarize = (runs: ReadonlyArray<Run>, config: string, baselines: ReadonlyArray<string>): Summary => {
  const mine = runs.filter((r) => r.config === config)
  const rpsRatio: Record<string, Spread> = {}
  const p99Ratio: Record<string, Spread> = {}
  const cpuRatio: Record<string, Spread> = {}
  for (const b of baselines) {
    const base = byRound(runs, b)
    const pairs = mine.flatMap((r) => {
      const o = base.get(r.round)
      return o === undefined ? [] : [[r, o] as const]
    })
    rpsRatio[b] = spread(pairs.map(([r, o]) => r.measured.rps / o.measured.rps))
    p99Ratio[b] = spread(pairs.map(([r, o]) => r.measured.p99 / o.measured.p99))
    cpuRatio[b] = spread(pairs.map(([r, o]) => r.cpuPerRequestUs / o.cpuPerRequestUs))
  }
  return {
    config,
    rps: spread(mine.map((r) => r.measured.rps)),
    p50: spread(mine.map((r) => r.measured.p50)),
    p99: spread(mine.map((r) => r.measured.p99)),
    cpuPerRequestUs: spread(mine.map((r) => r.cpuPerRequestUs)),
    serverCpuPct: spread(mine.map((r) => r.serverCpuPct)),
    non2xx: mine.reduce((a, r) => a + r.measured.non2xx + r.warmup.non2xx, 0),
    errors: mine.reduce((a, r) => a + r.measured.errors + r.measured.timeouts + r.warmup.errors + r.warmup.timeouts, 0),
    s2xx: mine.reduce((a, r) => a + r.measured.s2xx + r.warmup.s2xx, 0),
    rpsRatio,
    p99Ratio,
    cpuRatio
  }
}
