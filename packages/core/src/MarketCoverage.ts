/**
 * What a market covers, as its port describes it and `GET /v1/markets` lists it: the box of
 * its area and each (provider, service level) it offers with what its prices rest on. Both the
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
