import { spawnSync } from "node:child_process"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as FileSystem from "@effect/platform/FileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { MarketsLive, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { BacktestQuotesLive, runBacktest } from "@ridequote/calibration"
import { MARKETS_COMMAND } from "./shippedScripts.js"

const Markets = MarketsLive({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: true })
const Live = BacktestQuotesLive.pipe(Layer.provide(Markets), Layer.provideMerge(NodeFileSystem.layer))

const midtown = { latitude: 40.758, longitude: -73.9855 }
const downtown = { latitude: 40.7128, longitude: -74.006 }

const lines = [
  JSON.stringify({ id: "resolved", pickup: midtown, destination: downtown, at: "2019-03-05T08:15:00-05:00" }),
  JSON.stringify({ id: "supplied", pickup: midtown, destination: downtown, distanceKm: 6.2, durationMinutes: 22, at: "2019-03-05T08:15:00-05:00" }),
  "{ this is not json",
  "",
  JSON.stringify({ id: 7, pickup: midtown, destination: downtown, distanceKm: 6.2, at: "2019-03-05T08:15:00-05:00" }),
  JSON.stringify({ id: "no-time", pickup: midtown, destination: downtown }),
  JSON.stringify({ id: "lisbon", pickup: { latitude: 38.7223, longitude: -9.1393 }, destination: { latitude: 38.7436, longitude: -9.1602 }, at: "2019-03-05T08:15:00+00:00" })
]

const withFiles = <A, E, R>(input: string, body: (paths: { input: string; output: string }) => Effect.Effect<A, E, R>) =>
  Effect.scoped(Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const dir = yield* fs.makeTempDirectoryScoped()
    const paths = { input: `${dir}/trips.jsonl`, output: `${dir}/quotes.jsonl` }
    yield* fs.writeFileString(paths.input, input)
    return yield* body(paths)
  }))

const readLines = (path: string) =>
  Effect.map(FileSystem.FileSystem.pipe(Effect.flatMap((fs) => fs.readFileString(path))), (t) =>
    t.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>))

describe("backtest", () => {
  it.effect("writes one line per non-blank input line, in order, with the input's id", () =>
    withFiles(lines.join("\n") + "\n", ({ input, output }) =>
      Effect.gen(function*() {
        const summary = yield* runBacktest(input, output)
        const out = yield* readLines(output)
        expect(summary).toEqual({ lines: 6, quoted: 3, errors: 3 })
        expect(out.map((o) => o["id"])).toEqual(["resolved", "supplied", undefined, 7, "no-time", "lisbon"])
      })).pipe(Effect.provide(Live)))

  it.effect("a quote line has the fields of /v1/quote, priced in Realtime at the trip's moment", () =>
    withFiles(lines.slice(0, 2).join("\n"), ({ input, output }) =>
      Effect.gen(function*() {
        yield* runBacktest(input, output)
        const [resolved, supplied] = yield* readLines(output)
        for (const q of [resolved, supplied]) {
          expect(Object.keys(q ?? {}).sort()).toEqual(
            ["currency", "distanceKm", "durationMinutes", "id", "market", "marketPrices", "mode", "offers", "recommendations", "requestId"])
          expect(q?.["market"]).toEqual({ id: "nyc", name: "New York City", sampleData: false })
          expect(Object.keys(q?.["offers"] as object).sort()).toEqual(Object.keys(q?.["marketPrices"] as object).sort())
          expect(q?.["mode"]).toBe("Realtime")
          expect(q?.["currency"]).toBe("USD")
          expect(Object.keys(q?.["marketPrices"] as object).sort()).toEqual(["lyft/Standard", "uber/Standard", "via/Standard", "yellow-taxi/Standard"])
        }
        expect(supplied?.["distanceKm"]).toBe(6.2)
        expect(supplied?.["durationMinutes"]).toBe(22)
        // Resolved from coordinates with the nyc route profile.
        expect(resolved?.["distanceKm"]).not.toBe(6.2)
      })).pipe(Effect.provide(Live)))

  it.effect("prices each trip on the tariff regime of its own moment: the NYC congestion surcharge from 2 February 2019", () => {
    const at = (when: string) =>
      JSON.stringify({ pickup: midtown, destination: downtown, distanceKm: 6.2, durationMinutes: 22, at: when })
    return withFiles([at("2019-01-22T13:00:00-05:00"), at("2019-02-26T13:00:00-05:00")].join("\n"), ({ input, output }) =>
      Effect.gen(function*() {
        yield* runBacktest(input, output)
        const [before, after] = yield* readLines(output)
        const p50 = (q: Record<string, unknown> | undefined) =>
          ((q?.["marketPrices"] as Record<string, { p50: number }>)["yellow-taxi/Standard"])?.p50 ?? Number.NaN
        // Same weekday and hour, one month apart: the later trip pays the $2.50 surcharge on top.
        expect(p50(after) - p50(before)).toBeGreaterThan(2)
        expect(p50(after) - p50(before)).toBeLessThan(3.5)
      })).pipe(Effect.provide(Live))
  })

  it.effect("a malformed line becomes an error line with its line number and the run goes on", () =>
    withFiles(lines.join("\n"), ({ input, output }) =>
      Effect.gen(function*() {
        yield* runBacktest(input, output)
        const out = yield* readLines(output)
        expect(out[2]).toEqual({ line: 3, error: { code: "result:invalid-request", message: "line is not valid JSON" } })
        expect(out[3]).toMatchObject({ id: 7, line: 5, error: { code: "result:route-metadata-incomplete" } })
        expect(out[4]).toMatchObject({ id: "no-time", line: 6, error: { code: "result:invalid-request" } })
        expect(out[5]?.["requestId"]).toBeDefined() // Lisbon: the sample market
      })).pipe(Effect.provide(Live)))

  it.effect("is deterministic: the same input gives the same output, request ids included", () =>
    withFiles(lines.join("\n"), ({ input, output }) =>
      Effect.gen(function*() {
        yield* runBacktest(input, output)
        const first = yield* readLines(output)
        yield* runBacktest(input, output)
        expect(yield* readLines(output)).toEqual(first)
      })).pipe(Effect.provide(Live)))

  it.effect("streams in bounded memory: a file whose output dwarfs the heap limit goes through", () =>
    withFiles("", ({ input, output }) =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        // 45k lines ≈ 119 MB of output (2.65 KB a line: four NYC offers, each with the tariff,
        // records and level it rests on), more than twice the child's whole heap limit of 48 MB
        // (of which the runtime and the shipped markets use a good part): it only goes through
        // if lines are written as they are read. (100k lines took 70 s for the same proof.) The
        // child is the markets command bundled by the test run's global setup.
        const count = 45_000
        const chunk: Array<string> = []
        for (let i = 0; i < count; i++) {
          const lat = 40.70 + (i % 97) * 0.002, lon = -74.0 + (i % 89) * 0.002
          chunk.push(JSON.stringify({
            id: `t${i}`,
            pickup: { latitude: lat, longitude: lon },
            destination: { latitude: lat + 0.03, longitude: lon + 0.02 },
            at: "2019-03-05T08:15:00-05:00"
          }))
        }
        yield* fs.writeFileString(input, chunk.join("\n") + "\n")
        const run = spawnSync(
          process.execPath,
          ["--max-old-space-size=48", MARKETS_COMMAND, "backtest", "--input", input, "--output", output, "--quiet"],
          { encoding: "utf8", timeout: 900_000 }
        )
        expect(run.stderr).toBe("")
        expect(run.status).toBe(0)
        expect(run.stdout).toContain(`${count} lines: ${count} quoted, 0 errors`)
        const size = (yield* fs.stat(output)).size
        expect(Number(size)).toBeGreaterThan(2 * 48_000_000)
      })).pipe(Effect.provide(NodeFileSystem.layer)), { timeout: 900_000 })
})
