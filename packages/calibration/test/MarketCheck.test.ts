/**
 * `market check FILE`: what an operator runs on a tariff file before serving its folder
 * (docs/pricing.md, "Adding a city"): a valid file is described with sample quotes and their
 * receipts; an invalid one is refused with the file named and a non-zero exit.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { run } from "./shippedScripts.js"

describe("market check", () => {
  it("describes a valid tariff and prints sample quotes with their receipts", async () => {
    const out = await run(["market", "check", "../markets/models/tokyo-tariff.json", "--at", "2026-03-03"])
    expect(out).toContain(`../markets/models/tokyo-tariff.json: valid tariff for market "tokyo"`)
    expect(out).toContain("JPY")
    // The meter at 23:30 carries the night surcharge; a Haneda fixed fare is its table's amount.
    expect(out).toMatch(/5 km in 12 min at 23:30: .*\n\s+meter 2200\s+\+ late night and early morning \+20 % 440\s+= 2640/)
    expect(out).toMatch(/Haneda fixed fare, 渋谷区 Shibuya, late night 22:00–05:00 at 23:30: 9200 \/ 9200 \/ 9200 JPY/)
    // On a date of the 2026 fare, its meter and its table.
    const later = await run(["market", "check", "../markets/models/tokyo-tariff.json", "--at", "2026-11-24"])
    expect(later).toMatch(/5 km in 12 min at 23:30: .*\n\s+meter 2400\s+\+ late night and early morning \+20 % 480\s+= 2880/)
    expect(later).toMatch(/Haneda fixed fare, 渋谷区 Shibuya, late night 22:00–05:00 at 23:30: 10000 \/ 10000 \/ 10000 JPY/)
  }, 60_000)

  it("prints metered samples only where the version in force has a meter: flat fares alone (Chicago's shared ride) and ride-hail levels get none", async () => {
    const chicago = await run(["market", "check", "../markets/models/chicago-tariff.json", "--at", "2026-11-24"])
    expect(chicago).toMatch(/chicago-taxi\/Standard 5 km in 15 min at 11:00: [\d.]+ \/ [\d.]+ \/ [\d.]+ USD/)
    expect(chicago).not.toMatch(/chicago-taxi\/Shared \d+ km in/)
    // The 2025 ordinance's shared fees, in force from 2026-07-01.
    expect(chicago).toContain("chicago-taxi/Shared O'Hare to Downtown or McCormick Place, shared ride (per person) at 11:00: 30 / 30 / 30 USD")
    expect(chicago).toContain("chicago-taxi/Shared Between O'Hare and Midway, shared ride (per person) at 23:30: 45 / 45 / 45 USD")
    // Its overnight surcharge on the meter at 23:30.
    expect(chicago).toMatch(/chicago-taxi\/Standard 5 km in 12 min at 23:30: .*\n\s+meter [\d.]+\s+\+ overnight surcharge 1\s+= [\d.]+/)
    const nyc = await run(["market", "check", "../markets/models/nyc-tariff.json", "--at", "2026-11-24"])
    expect(nyc).toMatch(/yellow-taxi\/Standard 5 km in 15 min at 11:00/)
    expect(nyc).not.toMatch(/(uber|lyft)\/Standard \d+ km in/)
    expect(nyc).not.toContain(" 0 / 0 / 0 ")
  }, 60_000)

  it("a flat fare a fee the rule leaves open may add to prints its spread, not one amount (Dallas)", async () => {
    const dallas = await run(["market", "check", "../markets/models/dallas-tariff.json", "--at", "2026-12-08"])
    expect(dallas).toContain("DFW Airport ↔ Dallas Central Business District flat rate at 11:00: 55 / 57.5 / 60 USD")
    expect(dallas).toMatch(/flat fare 55\s+\+ DFW Airport exit fee 5\s+= 60/)
  }, 60_000)

  it("refuses an invalid file, naming it, with a non-zero exit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ridequote-check-"))
    const file = join(dir, "city-tariff.json")
    writeFileSync(file, JSON.stringify({ format: "ridequote-tariff", version: 1 }))
    try {
      const failure = await run(["market", "check", file]).then(
        () => undefined,
        (e: { code?: number; stderr?: string; stdout?: string }) => e
      )
      expect(failure?.code).toBe(1)
      expect(`${failure?.stderr ?? ""}${failure?.stdout ?? ""}`).toContain(file)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
