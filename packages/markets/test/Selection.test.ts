/**
 * One default for `serve` and `backtest`: the shipped markets without the sample fallback, found
 * from the installed package whatever the working directory; `--markets DIR` and
 * `--markets none` as documented.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { marketsSelection, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { MARKETS_COMMAND } from "./shippedScripts.js"


describe("which markets a command prices on", () => {
  it("no --markets: the shipped models, the sample fallback only when turned on", () => {
    expect(marketsSelection(undefined, undefined)).toEqual({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false })
    expect(marketsSelection(undefined, "on")).toEqual({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: true })
    expect(marketsSelection(undefined, "off")).toEqual({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false })
  })

  it("--markets DIR: DIR's models, the fallback only when asked for; --markets none: the sample market only", () => {
    expect(marketsSelection("my-markets", undefined)).toEqual({ dir: "my-markets", fallbackToSample: false })
    expect(marketsSelection("my-markets", "on")).toEqual({ dir: "my-markets", fallbackToSample: true })
    expect(marketsSelection("none", undefined)).toEqual({ fallbackToSample: true })
  })

  it("backtest run from another directory prices New York on the shipped nyc market, and --json gives the summary", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ridequote-selection-"))
    try {
      const trip = {
        id: "midtown",
        pickup: { latitude: 40.758, longitude: -73.9855 },
        destination: { latitude: 40.7128, longitude: -74.006 },
        distanceKm: 6.2,
        durationMinutes: 22,
        at: "2019-03-05T08:15:00-05:00"
      }
      writeFileSync(join(dir, "trips.jsonl"), `${JSON.stringify(trip)}\n`)
      const providers = async (...extra: Array<string>) => {
        const { stderr, stdout } = await promisify(execFile)(
          process.execPath,
          [MARKETS_COMMAND, "backtest", "--input", "trips.jsonl", "--output", "quotes.jsonl", "--json", "--quiet", ...extra],
          { cwd: dir, timeout: 120_000 }
        )
        expect(stderr).toBe("")
        expect(JSON.parse(stdout)).toMatchObject({ lines: 1, quoted: 1, errors: 0 })
        // marketPrices is keyed "<provider>/<service level>".
        const quote = JSON.parse(readFileSync(join(dir, "quotes.jsonl"), "utf8")) as { marketPrices: Record<string, unknown> }
        return [...new Set(Object.keys(quote.marketPrices).map((key) => key.split("/")[0]))].sort()
      }
      expect(await providers()).toEqual(["lyft", "uber", "via", "yellow-taxi"])
      expect(await providers("--markets", "none")).toEqual(["cityhop", "metrocab", "swiftride"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 240_000)
})
