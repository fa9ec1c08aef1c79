/**
 * A market as a caller discovers it without quoting (`GET /v1/markets`, `ridequote markets
 * list`, the facade's `markets()`): where it serves, its currency and clock, and each offer with
 * what its prices rest on at a moment. Built from a market's `coverage` (ports/MarketData.ts).
 */
import { Schema } from "effect"
import type { DateTime } from "effect"
import { MarketId } from "./Ids.js"
import { CoverageBox, MarketAirport, MarketOffer } from "./MarketCoverage.js"
import { Currency } from "./Money.js"
import type { Market } from "./ports/MarketData.js"

/** A market served by the deployment, and the basis of its offers at a moment. */
export const MarketSummary = Schema.Struct({
  id: MarketId,
  name: Schema.String,
  /** True for the built-in sample market: its providers and prices are invented. */
  sampleData: Schema.Boolean,
  currency: Currency,
  timeZone: Schema.String.annotations({
    description: "IANA time zone of the market's clock; `solar` for the sample market (each place's solar offset)"
  }),
  area: CoverageBox,
  /** The market's airports; empty where it names none. */
  airports: Schema.Array(MarketAirport),
  reachKm: Schema.optional(Schema.Number.annotations({
    description: "How far (km) beyond the area (and the airport zones it serves) a destination may lie; a trip going " +
      "farther is refused with 422 result:market-not-served (reason destination-beyond-reach). Absent: no limit"
  })),
  offers: Schema.Array(MarketOffer)
}).annotations({
  identifier: "MarketSummary",
  description: "A market the deployment serves: its area, currency, clock, and each offer with what its prices rest on"
})
export type MarketSummary = typeof MarketSummary.Type

/**
 * The summary of a market at `at`, or undefined for a market that does not describe its
 * coverage (it is priced as usual, but cannot be listed).
 */
export const marketSummary = (market: Market, at: DateTime.Utc): MarketSummary | undefined => {
  const coverage = market.coverage
  if (coverage === undefined) return undefined
  return {
    id: market.id,
    name: market.name,
    sampleData: market.sampleData === true,
    currency: market.currency,
    timeZone: coverage.timeZone,
    area: coverage.area,
    airports: coverage.airports ?? [],
    ...(market.reach === undefined ? {} : { reachKm: market.reach.km }),
    offers: coverage.offers(at).map((offer) => ({
      key: `${offer.provider}/${offer.serviceLevel}`,
      provider: offer.provider,
      serviceLevel: offer.serviceLevel,
      source: offer.source
    }))
  }
}

/** The summaries of every market that describes its coverage, in the order given. */
export const marketSummaries = (markets: ReadonlyArray<Market>, at: DateTime.Utc): ReadonlyArray<MarketSummary> => {
  const out: Array<MarketSummary> = []
  for (const market of markets) {
    const summary = marketSummary(market, at)
    if (summary !== undefined) out.push(summary)
  }
  return out
}
