/**
 * What a market covers, as its port describes it and `GET /v1/markets` lists it: the box of
 * its area, each (provider, service level) it offers with what its prices rest on, and its
 * airports. Both the
 * port (ports/MarketData.ts) and the summary (MarketSummary.ts) are built on these.
 */
import { Schema } from "effect"
import { Latitude, Longitude } from "./Geo.js"
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
