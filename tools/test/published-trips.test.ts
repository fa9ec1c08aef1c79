/**
 * The trips behind docs/markets-basis.md's comparisons with published fares
 * (tools/markets/published/trips.jsonl) are what tools/markets/published/trips.mjs writes: a trip
 * changed in the script and not regenerated would leave the comparisons quoting other trips.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const FILE = "tools/markets/published/trips.jsonl"

describe("the published-fare comparison trips", () => {
  it("trips.jsonl is what trips.mjs writes (run node tools/markets/published/trips.mjs and commit when this fails)", async () => {
    const { render } = await import("../markets/published/trips.mjs")
    expect(readFileSync(FILE, "utf8")).toBe(render())
  })

  it("each trip has its own id, a dated moment with an offset, and both or neither of distance and duration", () => {
    const trips = readFileSync(FILE, "utf8").trim().split("\n").map((l) => JSON.parse(l))
    expect(new Set(trips.map((t) => t.id)).size).toBe(trips.length)
    for (const t of trips) {
      expect(t.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
      expect(t.distanceKm === undefined).toBe(t.durationMinutes === undefined)
    }
  })
})
