import { MemoryEngineLive } from "@ridequote/compose"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { walkthrough } from "../src/program.js"

describe("example: embed in process", () => {
  it.effect("creates an account, issues and verifies a token, quotes, and finds the quote in the audit", () =>
    Effect.gen(function*() {
      const { audit, quote, token } = yield* walkthrough
      expect(token.ttlSeconds).toBe(86_400)
      expect(quote.mode).toBe("Realtime")
      expect(quote.recommendations["Standard"]?.map((r) => r.label)).toEqual(["saver", "balanced", "priority"])
      expect(Object.keys(quote.marketPrices).length).toBeGreaterThan(0)
      // Times Square to JFK: the shipped New York market prices it (real records, not sample data),
      // the yellow taxi on the TLC's JFK flat fare in force beside the ride-hail providers.
      expect(quote.market).toMatchObject({ id: "nyc", sampleData: false })
      expect(Object.keys(quote.marketPrices)).toContain("yellow-taxi/Standard")
      expect(quote.offers["yellow-taxi/Standard"]?.fare).toMatch(/flat fare/)
      expect(quote.offers["yellow-taxi/Standard"]?.tariff?.authority).toBe("NYC Taxi and Limousine Commission")
      expect(audit.map((e) => e.requestId)).toEqual([quote.requestId])
      expect(audit[0]?.decision).toMatchObject({ outcome: "quoted", market: "nyc", route: { source: "resolved" } })
    }).pipe(Effect.provide(MemoryEngineLive())))
})
