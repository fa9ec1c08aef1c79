/**
 * The backtest prices on the same markets as `serve` by default: the shipped models, found
 * from the installed package whatever the working directory; `--markets none` the sample.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { MARKETS_COMMAND } from "./shippedScripts.js"

describe("which markets the backtest prices on", () => {
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
