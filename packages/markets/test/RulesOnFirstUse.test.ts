/**
 * The shipped folder's tariff-defined markets are found by their heads (area, clock, zones,
 * airports) and their rules decoded when a trip or a listing first needs them
 * (`loadMarketModels(dir, { rulesOnFirstUse: true })`, what `MarketsLive` does for the shipped
 * folder): the same markets, the same prices, the same listing as decoding every file at once.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either } from "effect"
import { marketSummaries } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { loadMarketModels, marketDataOf, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { suppliedTrip } from "./trips.js"

const load = (dir: string, rulesOnFirstUse: boolean) =>
  loadMarketModels(dir, { rulesOnFirstUse }).pipe(Effect.provide(NodeFileSystem.layer))

const HANEDA = { latitude: 35.5533, longitude: 139.7811 }
const CHIYODA = { latitude: 35.694, longitude: 139.7536 }
const SFO = { latitude: 37.6189, longitude: -122.375 }
const UNION_SQUARE = { latitude: 37.788, longitude: -122.4075 }
const TIMES_SQUARE = { latitude: 40.758, longitude: -73.9855 }

describe("tariff rules read on first use", () => {
  it.effect("the same markets, prices and listing as a folder decoded at once", () =>
    Effect.gen(function*() {
      const eager = marketDataOf(yield* load(SHIPPED_MARKETS_DIR, false), undefined)
      const lazy = marketDataOf(yield* load(SHIPPED_MARKETS_DIR, true), undefined)
      expect(lazy.markets.map((m) => m.id)).toEqual(eager.markets.map((m) => m.id))
      const trips: ReadonlyArray<readonly [Coordinates, Coordinates, string]> = [
        [HANEDA, CHIYODA, "2026-12-08T14:00:00Z"],
        [SFO, UNION_SQUARE, "2026-12-08T18:00:00Z"],
        [TIMES_SQUARE, { latitude: 40.6413, longitude: -73.7781 }, "2026-12-08T15:00:00Z"]
      ]
      for (const [pickup, destination, iso] of trips) {
        const [e, l] = yield* Effect.all([eager.marketAt(pickup), lazy.marketAt(pickup)])
        expect(l.id).toBe(e.id)
        const price = (m: typeof e) => m.offers(suppliedTrip(m, pickup, destination, 20, 30)(iso))
          .map((o) => [o.provider, o.serviceLevel, o.source, [0.05, 0.5, 0.95].map((q) => o.distribution.quantile(q))])
        expect(price(l)).toEqual(price(e))
        expect(l.reach?.km).toBe(e.reach?.km)
        expect(l.reach?.distanceKm(TIMES_SQUARE)).toBe(e.reach?.distanceKm(TIMES_SQUARE))
      }
      const at = DateTime.unsafeMake("2026-12-08T12:00:00Z")
      expect(marketSummaries(lazy.markets, at)).toEqual(marketSummaries(eager.markets, at))
    }))

  it.effect("a city's rules are not read until a trip there needs them: a folder with a broken rule loads, and only that city's first trip fails", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "ridequote-rules-on-first-use-"))
      try {
        copyFileSync(join(SHIPPED_MARKETS_DIR, "berlin-tariff.json"), join(dir, "berlin-tariff.json"))
        const tokyo = JSON.parse(readFileSync(join(SHIPPED_MARKETS_DIR, "tokyo-tariff.json"), "utf8")) as { tariffs: Array<{ versions: Array<{ meter?: unknown }> }> }
        const first = tokyo.tariffs[0]?.versions[0]
        if (first !== undefined) first.meter = { initial: "not a number" }
        writeFileSync(join(dir, "tokyo-tariff.json"), JSON.stringify(tokyo))
        // Decoded at once: the folder is refused, naming the file.
        const refused = yield* Effect.either(load(dir, false))
        expect(Either.isLeft(refused) && refused.left.message).toMatch(/tokyo-tariff\.json/)
        // Heads only: it loads; Berlin prices; Tokyo's first trip is a defect naming the file.
        const data = marketDataOf(yield* load(dir, true), undefined)
        expect(data.markets.map((m) => m.id).sort()).toEqual(["berlin", "tokyo"])
        const berlin = yield* data.marketAt({ latitude: 52.52, longitude: 13.405 })
        expect(berlin.offers(suppliedTrip(berlin, { latitude: 52.52, longitude: 13.405 }, { latitude: 52.5, longitude: 13.35 }, 5, 15)("2026-12-08T11:00:00Z")).length).toBeGreaterThan(0)
        const tokyoMarket = yield* data.marketAt(CHIYODA)
        expect(() => tokyoMarket.offers(suppliedTrip(tokyoMarket, CHIYODA, HANEDA, 18, 30)("2026-12-08T03:00:00Z"))).toThrow(/tokyo-tariff\.json/)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }))
})
