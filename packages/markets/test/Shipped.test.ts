/**
 * The shipped models are derived data, reproducible from a clone alone: `pnpm markets:build`
 * fits them from the trip records kept (compressed) in fares/, byte for byte; and the
 * documented evaluation (`pnpm markets:evaluate`) meets the targets on every forward split
 * but the known misses below.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Evaluation } from "@ridequote/markets/fitting"
import { targetMisses } from "@ridequote/markets/fitting"

const PACKAGE = join(import.meta.dirname, "..")
const scripts = (JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts

/** The commands of a package script, as argument lists after `tsx src/bin.ts`. */
const commandsOf = (script: string): Array<Array<string>> =>
  (scripts[script] ?? "").split("&&").map((part) => {
    const args = part.trim().split(/\s+/)
    expect(args.slice(0, 2)).toEqual(["tsx", "src/bin.ts"])
    return args.slice(2)
  })

/**
 * Forward splits that miss the targets today, and why (docs/pricing.md, "Forward
 * validation"). Listed so the test still fails on any other miss, and so that fixing one
 * fails this list until it is removed.
 *
 * - nyc, scored 2019-01-01 – 2019-02-02: January 2019 metered fares sit 0.6 % below the
 *   level of the second half of 2018 the model was fitted on (January 2018 was 0.3 % below
 *   its year too): with a supplied route NYC fares are nearly deterministic, so 0.6 % moves
 *   p50 coverage to 56.7 %.
 * - chicago, scored 2014-07-01 – 2015-01-01: Chicago's metered level fell through 2013–2015;
 *   p50 coverage 53.3 % (0.3 point beyond the ±3).
 */
const KNOWN_MISSES = new Set(["nyc 2019-01-01", "chicago 2014-07-01"])

/** Runs the markets program; asynchronously, so the test worker stays responsive meanwhile. */
const run = async (args: ReadonlyArray<string>): Promise<string> =>
  (await promisify(execFile)(process.execPath, ["--import", "tsx", "src/bin.ts", ...args], {
    cwd: PACKAGE,
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024
  })).stdout

describe("shipped market models", () => {
  it("models/*.json are byte for byte what `pnpm markets:build` fits from the records in fares/", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ridequote-markets-"))
    try {
      for (const args of commandsOf("markets:build")) {
        const out = args.indexOf("--out")
        const target = args[out + 1] ?? ""
        const copy = [...args]
        copy[out + 1] = join(dir, target.replace(/^models\//, ""))
        await run([...copy, "--quiet"])
        expect(readFileSync(copy[out + 1] ?? "", "utf8"), target).toBe(readFileSync(join(PACKAGE, target), "utf8"))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 400_000)

  it("`pnpm markets:evaluate` meets the targets on every forward split but the known misses", async () => {
    for (const args of commandsOf("markets:evaluate")) {
      const plot = args.indexOf("--plot")
      const withoutPlot = plot >= 0 ? [...args.slice(0, plot), ...args.slice(plot + 2)] : args
      const result = JSON.parse(await run([...withoutPlot, "--json", "--quiet"])) as { forward: ReadonlyArray<Evaluation> }
      expect(result.forward.length).toBeGreaterThanOrEqual(3)
      for (const split of result.forward) {
        const name = `${split.market} ${split.scoredOn.from}`
        expect(split.scoredRows, name).toBeGreaterThan(1000)
        if (KNOWN_MISSES.has(name)) expect(targetMisses(split), name).not.toEqual([])
        else expect(targetMisses(split), name).toEqual([])
        // Whatever the coverage, every split beats the per-km baseline by far.
        for (const route of split.routes) expect(route.improvement, name).toBeGreaterThan(0.4)
      }
    }
  }, 400_000)
})
