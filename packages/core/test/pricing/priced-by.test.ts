/**
 * Every quote says what priced it (additive response fields): `market` names the market and
 * whether it is sample data, `offers` gives, per marketPrices key, the product name and the
 * records behind it. The sample market is marked as sample data in the response and the audit.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Layer, TestClock } from "effect"
import type { Currency } from "../../src/Money.js"
import type { MarketId } from "../../src/Ids.js"
import { MarketData } from "../../src/ports/MarketData.js"
import type { Market } from "../../src/ports/MarketData.js"
import { Quotes } from "../../src/pricing/Quotes.js"
import { SAMPLE_DEMAND, sampleMarket, servingEverywhere } from "../../src/pricing/SampleMarket.js"
import { tariffMarket } from "../../src/pricing/TariffMarket.js"
import { InMemoryAudit } from "../../src/testing/pricing.js"
import type { QuoteRequest } from "../../src/Quote.js"
import { SERVICE_LEVELS } from "../../src/Quote.js"
import { account, BERLIN, BERLIN_WEST, context, engine } from "./fixtures.js"

const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0)
const request: QuoteRequest = { pickup: BERLIN, destination: BERLIN_WEST, distanceKm: 12.4, durationMinutes: 27 }
const tariff = { baseFare: 2, perKm: 1, perMinute: 0.2, minimumFare: 5, bookingFee: 1 }

/** A real-looking market of two products, one with its records' period. */
const fitted: Market = {
  ...tariffMarket({
    id: "somewhere" as MarketId,
    name: "Somewhere",
    currency: "USD" as Currency,
    routeProfile: sampleMarket.routeProfile,
    localTime: sampleMarket.localTime,
    offers: [
      { provider: "uber", serviceLevel: "Standard", tariff, spreadScale: 1, product: "UberX" },
      { provider: "uber", serviceLevel: "PremiumXL", tariff: { ...tariff, perKm: 3 }, spreadScale: 1, product: "Black SUV" }
    ],
    demand: SAMPLE_DEMAND
  })
}
const withRecords: Market = {
  ...fitted,
  offers: (trip) =>
    fitted.offers(trip).map((o) => ({ ...o, source: { ...o.source, records: { kind: "quotes", from: "2018-11-26", to: "2018-12-18" } } }))
}

const quote = (market: Market) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(NOW_MS)
    const quotes = yield* Quotes
    const exit = yield* Effect.exit(quotes.quote(account(), request, context(DateTime.unsafeMake(NOW_MS))))
    const records = yield* (yield* InMemoryAudit).records
    return { exit, records }
  }).pipe(Effect.provide(engine({ marketData: Layer.succeed(MarketData, servingEverywhere(market)) })))

describe("what priced a quote", () => {
  it.effect("the sample market answers with market.sampleData true, in the response and the audit decision", () =>
    Effect.gen(function*() {
      const { exit, records } = yield* quote(sampleMarket)
      if (!Exit.isSuccess(exit)) throw new Error("expected a quote")
      expect(exit.value.market).toEqual({ id: "global-sample", name: sampleMarket.name, sampleData: true })
      expect(Object.keys(exit.value.offers).sort()).toEqual(Object.keys(exit.value.marketPrices).sort())
      const decision = records[0]?.decision
      expect(decision?.outcome === "quoted" && decision.sampleData).toBe(true)
    }))

  it.effect("a fitted market: sampleData false, product names and records' period per provider/level key", () =>
    Effect.gen(function*() {
      const { exit, records } = yield* quote(withRecords)
      if (!Exit.isSuccess(exit)) throw new Error("expected a quote")
      expect(exit.value.market).toEqual({ id: "somewhere", name: "Somewhere", sampleData: false })
      expect(exit.value.offers).toEqual({
        "uber/Standard": { product: "UberX", records: { kind: "quotes", from: "2018-11-26", to: "2018-12-18" } },
        "uber/PremiumXL": { product: "Black SUV", records: { kind: "quotes", from: "2018-11-26", to: "2018-12-18" } }
      })
      // Recommendations for every level the market serves, not only Standard.
      expect(Object.keys(exit.value.recommendations)).toEqual(["Standard", "PremiumXL"])
      const decision = records[0]?.decision
      expect(decision?.outcome === "quoted" && "sampleData" in decision).toBe(false)
    }))

  it("the vocabulary keeps the contract's four levels and lists the cheapest kind of ride first", () => {
    for (const level of ["Economy", "Standard", "Comfort", "XL"] as const) expect(SERVICE_LEVELS).toContain(level)
    expect(SERVICE_LEVELS[0]).toBe("Shared")
    expect(SERVICE_LEVELS.indexOf("Premium")).toBeLessThan(SERVICE_LEVELS.indexOf("PremiumXL"))
  })
})
