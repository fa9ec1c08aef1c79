/**
 * The model files shipped in `markets/` are derived data: they must be exactly what the
 * build command (`pnpm markets:build`) regenerates from the shared trip records, so nobody
 * can commit a model the repository cannot reproduce.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Evaluation } from "../src/index.js"
import { targetMisses } from "../src/index.js"

const DATA = "../shared/data/fares"
const haveData = existsSync(DATA)
if (!haveData) {
  if (process.env["CI"] === "true") throw new Error(`the shared fare data is missing at ${DATA}`)
  console.warn(`\n*** SKIPPING shipped-model reproducibility: no shared fare data at ${DATA} ***\n`)
}

const NYC_SOURCES = [
  "--format", "nyc-tlc",
  "--input", `${DATA}/nyc-yellow-2018-monthly-10k-samples-zones.csv`,
  "--input", `${DATA}/nyc-yellow-2019-monthly-10k-samples-zones.csv`,
  "--zones", `${DATA}/nyc-taxi-zones-with-centroids.csv`
]
const CHICAGO_SOURCES = ["--format", "chicago", "--input", `${DATA}/chicago-taxi-2013-2016-tfx-sample-15k.csv`]

const evaluateShipped = (model: string, sources: ReadonlyArray<string>): Evaluation =>
  JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", "packages/markets/src/bin.ts", "market", "evaluate", "--model", model, ...sources, "--json"], {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 180_000
    }).toString("utf8")
  ) as Evaluation

const fit = (out: string, args: ReadonlyArray<string>) =>
  execFileSync(process.execPath, ["--import", "tsx", "packages/markets/src/bin.ts", "market", "fit", ...args, "--out", out], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 180_000
  })

describe.runIf(haveData)("shipped market models", () => {
  it("markets/nyc.json and markets/chicago.json are byte for byte what the build command fits from the shared data", () => {
    const dir = mkdtempSync(join(tmpdir(), "ridequote-markets-"))
    try {
      fit(join(dir, "nyc.json"), NYC_SOURCES)
      fit(join(dir, "chicago.json"), CHICAGO_SOURCES)
      for (const name of ["nyc.json", "chicago.json"]) {
        expect(readFileSync(join(dir, name), "utf8"), name).toBe(readFileSync(join("markets", name), "utf8"))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 400_000)

  // Issue 4's targets on the held-out rows the fit never saw: coverage within 3 points of
  // nominal for supplied routes and 5 for inferred ones, pinball loss ≥ 25 % below the baseline.
  it("the shipped models meet the calibration targets on held-out trips", () => {
    for (const [model, sources] of [["markets/nyc.json", NYC_SOURCES], ["markets/chicago.json", CHICAGO_SOURCES]] as const) {
      const evaluation = evaluateShipped(model, sources)
      expect(evaluation.heldOutRows, model).toBeGreaterThan(1000)
      expect(targetMisses(evaluation), model).toEqual([])
    }
  }, 400_000)
})
