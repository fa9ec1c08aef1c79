/**
 * The bench's own arithmetic and load plumbing: the figures `pnpm bench` prints are ratios taken
 * within a round (or between two servers served at once), so these are the parts a wrong
 * figure would come from. Speed itself is never asserted here.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { selected } from "../lib/config.js"
import type { LoadResult } from "../lib/load.js"
import { runLoad } from "../lib/load.js"
import { loadTogether } from "../lib/paired.js"
import type { Run } from "../lib/rounds.js"
import { summarize } from "../lib/rounds.js"
import { fmt, fmtRatio, median, medianInterval, spread, table } from "../lib/stats.js"

const result = (rps: number, p99: number): LoadResult => ({
  rps,
  p50: p99 / 2,
  p99,
  latencyMean: p99 / 2,
  s2xx: Math.round(rps),
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  durationS: 1,
  statusCodes: { "200": Math.round(rps) }
})

const run = (round: number, config: string, rps: number, p99: number, cpuPerRequestUs: number): Run => ({
  round,
  config,
  warmup: result(rps, p99),
  measured: result(rps, p99),
  cpuPerRequestUs,
  serverCpuPct: 100,
  coresBusyPct: {},
  coresBusyBeforePct: {},
  extra: {}
})

describe("bench statistics", () => {
  it("medians and spreads skip what is not a number", () => {
    expect(median([3, Number.NaN, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNaN()
    expect(spread([2, Number.POSITIVE_INFINITY, 1, 5])).toEqual({ median: 2, min: 1, max: 5, n: 3 })
  })

  it("gives the median a distribution-free interval from order statistics", () => {
    // Ten values: below 5 or 2 = k+1 order statistics from each end the coverage falls under
    // 90 %; [2nd, 9th] covers the median with probability 1 − 2·P(Bin(10, ½) ≤ 1) = 0.979.
    const ten = [1.04, 0.95, 0.99, 1.01, 0.97, 1.0, 0.98, 1.02, 0.96, 1.03]
    const ci = medianInterval(ten)
    expect(ci?.low).toBe(0.96)
    expect(ci?.high).toBe(1.03)
    expect(ci?.coverage).toBeCloseTo(1 - 2 * (1 + 10) / 1024, 10)
    // Twelve: [3rd, 10th], 1 − 2·(1 + 12 + 66)/4096 = 0.961; a lower level narrows it.
    const twelve = [...ten, 0.9, 1.1]
    expect(medianInterval(twelve)).toEqual({ low: 0.96, high: 1.03, coverage: 1 - (2 * 79) / 4096 })
    expect(medianInterval(twelve, 0.8)?.low).toBe(0.97)
    // Four values cannot give 90 %: [min, max] covers it with 1 − 2/16 = 0.875 only.
    expect(medianInterval([1, 2, 3, 4])).toBeUndefined()
    expect(medianInterval([1, 2, 3, 4, 5])?.coverage).toBeCloseTo(0.9375, 10)
  })

  it("prints figures with sensible precision, ratios with two digits and their range", () => {
    expect([fmt(12_345.6), fmt(123.4), fmt(12.34), fmt(1.234), fmt(0.1234), fmt(Number.NaN)]).toEqual(["12,346", "123", "12.3", "1.23", "0.123", "–"])
    expect(fmtRatio(spread([0.94, 0.99, 1.03]))).toBe("×0.99 [0.94–1.03]")
    expect(fmtRatio(spread([1.2]))).toBe("×1.20")
    expect(fmtRatio(spread([]))).toBe("–")
    expect(table(["a", "long"], [["xyz", "1"]])).toBe("| a   | long |\n|-----|------|\n| xyz | 1    |")
  })

  it("takes each ratio within a round, so drift between rounds cancels", () => {
    // The machine halves its speed in round 1 and recovers in round 2: the target is 0.9 of
    // the baseline in every round, though its own req/s swing ×2.
    const runs = [
      run(0, "baseline", 1000, 10, 100), run(0, "target", 900, 12, 110),
      run(1, "baseline", 500, 20, 200), run(1, "target", 450, 24, 220),
      run(2, "target", 880, 11, 108), run(2, "baseline", 1000, 10, 100)
    ]
    const s = summarize(runs, "target", ["baseline"])
    expect(s.rps.median).toBe(880)
    expect(s.rps.min).toBe(450)
    expect(s.rpsRatio["baseline"]?.median).toBeCloseTo(0.9, 10)
    expect(s.rpsRatio["baseline"]?.min).toBeCloseTo(0.88, 10)
    expect(s.rpsRatio["baseline"]?.max).toBeCloseTo(0.9, 10)
    expect(s.p99Ratio["baseline"]?.median).toBeCloseTo(1.2, 10)
    expect(s.cpuRatio["baseline"]?.median).toBeCloseTo(1.1, 10)
    expect(s.s2xx).toBe(2 * (900 + 450 + 880))
  })

  it("leaves out a round whose baseline did not run", () => {
    const s = summarize([run(0, "target", 900, 1, 1), run(1, "target", 800, 1, 1), run(1, "baseline", 1000, 1, 1)], "target", ["baseline"])
    expect(s.rpsRatio["baseline"]).toEqual({ median: 0.8, min: 0.8, max: 0.8, n: 1 })
  })

  it("selects sections from the arguments, comma lists included", () => {
    expect(selected(["http,markets", "--", " sustained "])).toEqual(["http", "markets", "sustained"])
  })
})

/** A server answering 200 on `/ok` and 404 elsewhere, recording when it answered. */
const recordingServer = async () => {
  const times: Array<number> = []
  const server = createServer((req, res) => {
    times.push(performance.now())
    res.writeHead(req.url === "/ok" ? 200 : 404, { "content-type": "text/plain" }).end("x")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, times, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe("bench load", () => {
  it("counts 2xx and other answers apart", async () => {
    const s = await recordingServer()
    try {
      const ok = await runLoad(s.url, { path: "/ok", method: "GET", headers: {} }, { amount: 200, connections: 2 })
      const missing = await runLoad(s.url, { path: "/nope", method: "GET", headers: {} }, { amount: 100, connections: 2 })
      expect([ok.s2xx, ok.non2xx, ok.errors]).toEqual([200, 0, 0])
      expect([missing.s2xx, missing.non2xx, missing.statusCodes["404"]]).toEqual([0, 100, 100])
      expect(s.times.length).toBe(300)
    } finally {
      await s.close()
    }
  })

  it("loads two servers at the same time, half the connections each", async () => {
    const a = await recordingServer(), b = await recordingServer()
    try {
      const spec = { path: "/ok", method: "GET" as const, headers: {} }
      const [ra, rb] = await loadTogether([{ server: a, spec }, { server: b, spec }], 1)
      expect(ra.s2xx).toBeGreaterThan(0)
      expect(rb.s2xx).toBeGreaterThan(0)
      // Served at once: each server's answers began before the other's ended.
      const span = (t: ReadonlyArray<number>) =>
        t.reduce<readonly [number, number]>(([lo, hi], x) => [Math.min(lo, x), Math.max(hi, x)], [Infinity, -Infinity])
      const [a0, a1] = span(a.times), [b0, b1] = span(b.times)
      expect(a0).toBeLessThan(b1)
      expect(b0).toBeLessThan(a1)
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })
})
