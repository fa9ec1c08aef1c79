import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it, layer } from "@effect/vitest"
import { DateTime, Effect, Either, Layer } from "effect"
import { MarketData, SAMPLE_MARKET_ID } from "@ridequote/core"
import { MarketsLive, SHIPPED_MARKETS_DIR } from "@ridequote/markets"

/** The shipped models, relative to the repository root (where vitest runs). */
const SHIPPED = SHIPPED_MARKETS_DIR

const TIMES_SQUARE = { latitude: 40.758, longitude: -73.9855 }
const JFK = { latitude: 40.6413, longitude: -73.7781 }
const CHICAGO_LOOP = { latitude: 41.8781, longitude: -87.6298 }
const PARIS = { latitude: 48.8566, longitude: 2.3522 }

describe("market selection by pickup", () => {
  layer(MarketsLive({ dir: SHIPPED, fallbackToSample: true }).pipe(Layer.provide(NodeFileSystem.layer)))((it) => {
    it.effect("a New York pickup is priced in the nyc market", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        expect((yield* markets.marketAt(TIMES_SQUARE)).id).toBe("nyc")
        expect((yield* markets.marketAt(JFK)).id).toBe("nyc")
      }))

    it.effect("a Chicago pickup is priced in the chicago market", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        expect((yield* markets.marketAt(CHICAGO_LOOP)).id).toBe("chicago")
      }))

    it.effect("a Paris pickup falls back to the sample market", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        expect((yield* markets.marketAt(PARIS)).id).toBe(SAMPLE_MARKET_ID)
      }))

    it.effect("calibrated markets quote USD from the real providers of their city", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        const nyc = yield* markets.marketAt(TIMES_SQUARE)
        expect(nyc.currency).toBe("USD")
        const trip = {
          pickup: TIMES_SQUARE,
          destination: JFK,
          distanceKm: 27,
          durationMinutes: 45,
          mode: "Realtime" as const,
          routeSource: "supplied" as const,
          localTime: nyc.localTime(DateTime.unsafeMake("2019-03-05T13:15:00Z"), TIMES_SQUARE)
        }
        expect(nyc.offers(trip).map((o) => `${o.provider}/${o.serviceLevel}`).sort()).toEqual([
          "creative-mobile/Standard",
          "curb/Standard"
        ])
      }))
  })

  layer(MarketsLive({ dir: SHIPPED, fallbackToSample: false }).pipe(Layer.provide(NodeFileSystem.layer)))((it) => {
    it.effect("without the fallback a place no market serves is MarketNotServed", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        const result = yield* Effect.either(markets.marketAt(PARIS))
        expect(Either.isLeft(result) && result.left._tag).toBe("MarketNotServed")
        expect((yield* markets.marketAt(TIMES_SQUARE)).id).toBe("nyc")
      }))
  })

  it.effect("a folder with a bad model fails to load, naming the file", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(
        Effect.provide(MarketData, MarketsLive({ dir: "packages/markets/test/fixtures/bad-markets", fallbackToSample: true }))
      )
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(result.left.message).toContain("bad-markets/wrong-version.json")
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
