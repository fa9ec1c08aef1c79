/**
 * A market as a caller discovers it without quoting (`GET /v1/markets`, `ridequote markets
 * list`, the facade's `markets()`): where it serves, its currency and clock, and each offer with
 * what its prices rest on at a moment. Built from a market's `coverage` (ports/MarketData.ts).
 */
import { Schema } from "effect"
import type { DateTime } from "effect"
import { Latitude, Longitude } from "./Geo.js"
import { MarketId } from "./Ids.js"
import { Currency } from "./Money.js"
import type { Market } from "./ports/MarketData.js"
import { OfferSource, ServiceLevel } from "./Quote.js"

/** The bounding box of a market's area, in degrees. */
export const CoverageBox = Schema.Struct({
  south: Latitude,
  west: Longitude,
  north: Latitude,
  east: Longitude
}).annotations({ identifier: "CoverageBox", description: "Bounding box of the area served, in degrees" })
export type CoverageBox = typeof CoverageBox.Type

/** One (provider, service level) a market offers, keyed as in a quote's `marketPrices`. */
export const MarketOffer = Schema.Struct({
  key: Schema.String.annotations({ description: "\"<provider>/<serviceLevel>\", the key of marketPrices and offers in a quote" }),
  provider: Schema.String,
  serviceLevel: ServiceLevel,
  source: OfferSource
}).annotations({ identifier: "MarketOffer" })
export type MarketOffer = typeof MarketOffer.Type

/**
 * An airport a market serves, as a caller names it: its IATA code, its name and a reference
 * point among its terminals. A trip is "at" the airport when its pickup or destination lies in
 * the zone the market's rules draw around the terminals (docs/airports.md); the point is where
 * that zone is, not its extent.
 */
export const MarketAirport = Schema.Struct({
  iata: Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/)).annotations({ description: "IATA airport code" }),
  name: Schema.String,
  latitude: Latitude,
  longitude: Longitude
}).annotations({ identifier: "MarketAirport", description: "An airport of the market: IATA code, name, a reference point among its terminals" })
export type MarketAirport = typeof MarketAirport.Type

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
