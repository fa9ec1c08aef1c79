/**
 * Test markets for the HTTP suites: two cities with areas of their own (Berlin, Paris; tariffs
 * from core's sample data in EUR), so that a point outside both is refused, and a tariff that
 * changed on 2020-01-01 so that `GET /v1/markets?at=` has a basis to tell apart.
 */
import {
  greatCircleKm,
  MarketData,
  MarketId,
  marketNotServed,
  SAMPLE_DEMAND,
  SAMPLE_OFFERS,
  SAMPLE_ROUTE_PROFILE,
  solarLocalTime,
  tariffMarket
} from "@ridequote/core"
import type { Coordinates, Currency, Market } from "@ridequote/core"
import { DateTime, Effect, Layer } from "effect"

/** The moment the test markets' tariff changed (unless told another). */
export const TARIFF_CHANGE = DateTime.unsafeMake("2020-01-01T00:00:00Z")

interface Box {
  readonly south: number
  readonly west: number
  readonly north: number
  readonly east: number
}

/** Berlin's airport as the test market lists it. */
export const BER = { iata: "BER", name: "Berlin Brandenburg", latitude: 52.3667, longitude: 13.5033 }

const city = (
  id: string,
  name: string,
  timeZone: string,
  area: Box,
  change: DateTime.Utc,
  airports: ReadonlyArray<typeof BER> = []
): Market => {
  const market = tariffMarket({
    id: MarketId.make(id),
    name,
    currency: "EUR" as Currency,
    routeProfile: SAMPLE_ROUTE_PROFILE,
    localTime: solarLocalTime,
    offers: SAMPLE_OFFERS.filter((o) => o.provider !== "metrocab"),
    demand: SAMPLE_DEMAND,
    coverage: { area, timeZone }
  })
  const tariffAt = (at: DateTime.Utc) => {
    const year = DateTime.lessThan(at, change) ? 2019 : 2020
    return { name: `${name} tariff of ${year}`, effectiveFrom: `${year}-01-01`, authority: `${name} (test)`, rule: "test rule", url: "https://example.org/test-rule" }
  }
  return {
    ...market,
    // Destinations up to 150 km beyond the box are served; farther ones are refused.
    reach: { km: 150, distanceKm: (p) => kmTo(area, p) },
    coverage: {
      area,
      timeZone,
      airports,
      offers: (at) => (market.coverage?.offers(at) ?? []).map((o) => ({ ...o, source: { ...o.source, tariff: tariffAt(at) } }))
    }
  }
}

const BERLIN: Box = { south: 52.3, west: 13.0, north: 52.7, east: 13.8 }
const PARIS: Box = { south: 48.7, west: 2.2, north: 49.0, east: 2.5 }

const inside = (box: Box, p: Coordinates) =>
  p.latitude >= box.south && p.latitude <= box.north && p.longitude >= box.west && p.longitude <= box.east

const kmTo = (box: Box, p: Coordinates) =>
  greatCircleKm(p, {
    latitude: Math.min(box.north, Math.max(box.south, p.latitude)),
    longitude: Math.min(box.east, Math.max(box.west, p.longitude))
  })

/** Berlin and Paris only, their tariff changed at `change`: every other point is refused, naming both. */
export const twoCities = (change: DateTime.Utc = TARIFF_CHANGE): Layer.Layer<MarketData> => {
  const areas: ReadonlyArray<readonly [Market, Box]> = [
    [city("berlin", "Berlin", "Europe/Berlin", BERLIN, change, [BER]), BERLIN],
    [city("paris", "Paris", "Europe/Paris", PARIS, change), PARIS]
  ]
  return Layer.succeed(MarketData, {
    markets: areas.map(([m]) => m),
    marketAt: (p) => {
      const found = areas.find(([, box]) => inside(box, p))
      return found !== undefined
        ? Effect.succeed(found[0])
        : Effect.fail(marketNotServed(p, areas.map(([m, box]) => ({ id: m.id, name: m.name, distanceKm: kmTo(box, p) }))))
    }
  })
}

/** `twoCities()`: the tariff changed on 2020-01-01. */
export const TwoCitiesLive: Layer.Layer<MarketData> = twoCities()
