/**
 * Every shipped city answers a quote at a well-known place, in its currency: the shipped
 * folder quoted through the backtest, as a caller's file of trips would be.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as FileSystem from "@effect/platform/FileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { MarketsLive, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { BacktestQuotesLive, runBacktest } from "@ridequote/calibration"

const PLACES: ReadonlyArray<{ readonly market: string; readonly currency: string; readonly from: { latitude: number; longitude: number }; readonly to: { latitude: number; longitude: number }; readonly at: string }> = [
  // Union Square → Ferry Building
  { market: "san-francisco", currency: "USD", from: { latitude: 37.788, longitude: -122.4075 }, to: { latitude: 37.7955, longitude: -122.3937 }, at: "2026-03-03T11:00:00-08:00" },
  // Shibuya station → Tokyo station
  { market: "tokyo", currency: "JPY", from: { latitude: 35.658, longitude: 139.7016 }, to: { latitude: 35.6812, longitude: 139.7671 }, at: "2026-03-03T11:00:00+09:00" },
  // Berlin Hauptbahnhof → Alexanderplatz
  { market: "berlin", currency: "EUR", from: { latitude: 52.5251, longitude: 13.3694 }, to: { latitude: 52.5219, longitude: 13.4132 }, at: "2026-03-03T11:00:00+01:00" },
  // Union Station → CN Tower... → Royal Ontario Museum
  { market: "toronto", currency: "CAD", from: { latitude: 43.6453, longitude: -79.3806 }, to: { latitude: 43.6677, longitude: -79.3948 }, at: "2026-03-03T11:00:00-05:00" },
  // Raffles Place → Orchard Road (ION)
  { market: "singapore", currency: "SGD", from: { latitude: 1.2840, longitude: 103.8514 }, to: { latitude: 1.3040, longitude: 103.8318 }, at: "2026-03-03T11:00:00+08:00" },
  // SFO → Union Square: the airport outside the city is served (alsoServes) with its pick-up fee
  { market: "san-francisco", currency: "USD", from: { latitude: 37.6155, longitude: -122.39 }, to: { latitude: 37.788, longitude: -122.4075 }, at: "2026-03-03T11:00:00-08:00" },
  // Amsterdam Centraal → Rijksmuseum
  { market: "amsterdam", currency: "EUR", from: { latitude: 52.3791, longitude: 4.9003 }, to: { latitude: 52.36, longitude: 4.8852 }, at: "2026-03-03T11:00:00+01:00" },
  // Schiphol → Amsterdam Centraal
  { market: "amsterdam", currency: "EUR", from: { latitude: 52.3105, longitude: 4.7683 }, to: { latitude: 52.3791, longitude: 4.9003 }, at: "2026-03-03T11:00:00+01:00" },
  // Central (Hong Kong Island) → Tsim Sha Tsui
  { market: "hong-kong", currency: "HKD", from: { latitude: 22.282, longitude: 114.158 }, to: { latitude: 22.2975, longitude: 114.1722 }, at: "2026-03-03T11:00:00+08:00" },
  // Hong Kong airport → Central
  { market: "hong-kong", currency: "HKD", from: { latitude: 22.308, longitude: 113.9185 }, to: { latitude: 22.282, longitude: 114.158 }, at: "2026-03-03T11:00:00+08:00" }
]

describe("every shipped city answers a quote at a well-known place, in its currency", () => {
  const Live = BacktestQuotesLive.pipe(
    Layer.provide(MarketsLive({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false })),
    Layer.provideMerge(NodeFileSystem.layer)
  )
  it.effect("the shipped folder loads (fitted and tariff-defined markets) and each place is quoted by its city", () =>
    Effect.scoped(Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dir = yield* fs.makeTempDirectoryScoped()
      const lines = PLACES.map((p, i) => JSON.stringify({ id: i, pickup: p.from, destination: p.to, at: p.at }))
      yield* fs.writeFileString(`${dir}/in.jsonl`, lines.join("\n"))
      const summary = yield* runBacktest(`${dir}/in.jsonl`, `${dir}/out.jsonl`)
      expect(summary.errors).toBe(0)
      const out = (yield* fs.readFileString(`${dir}/out.jsonl`)).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as {
        market: { id: string }
        currency: string
        marketPrices: Record<string, Record<string, number>>
        offers: Record<string, { tariff?: { effectiveFrom: string } }>
      })
      expect(out).toHaveLength(PLACES.length)
      for (const [i, q] of out.entries()) {
        const place = PLACES[i]
        expect([i, q.market.id, q.currency]).toEqual([i, place?.market, place?.currency])
        for (const [key, prices] of Object.entries(q.marketPrices)) {
          const values = Object.values(prices)
          expect(values.length).toBeGreaterThan(0)
          // Non-decreasing percentiles, whole yen in Tokyo.
          for (let k = 1; k < values.length; k++) expect(values[k] ?? 0).toBeGreaterThanOrEqual(values[k - 1] ?? 0)
          if (q.currency === "JPY") for (const v of values) expect(Number.isInteger(v)).toBe(true)
          expect(q.offers[key]?.tariff?.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        }
      }
      // From SFO the $5.50 pick-up fee is in every percentile: the airport trip costs more than the city's.
      const sfo = out[5]?.marketPrices["sf-taxi/Standard"]
      expect(Object.keys(sfo ?? {})).toHaveLength(5)
      expect(Math.min(...Object.values(sfo ?? {}))).toBeGreaterThan(40)
    })).pipe(Effect.provide(Live)))
})
