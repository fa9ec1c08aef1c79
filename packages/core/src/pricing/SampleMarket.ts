/**
 * The built-in sample market, "global-sample": serves every coordinate on Earth so the service
 * answers anywhere out of the box.
 *
 * SAMPLE DATA. The providers (swiftride, cityhop, metrocab) and every tariff and demand figure
 * below are invented, shaped like public ride-hailing rate cards but not taken from any real
 * company or city. They make the engine's behaviour visible and testable; they are not market
 * prices. Calibrated markets (fitted from real trip records) replace them where they exist.
 */
import { Effect, Layer } from "effect"
import type { MarketId } from "../Ids.js"
import type { Currency } from "../Money.js"
import type { Market, RouteProfile } from "../ports/MarketData.js"
import { MarketData } from "../ports/MarketData.js"
import { solarLocalTime } from "./LocalClock.js"
import type { DemandProfile, Tariff, TariffOffer } from "./TariffMarket.js"
import { tariffMarket } from "./TariffMarket.js"

/** The `timeZone` a listing gives the sample market: its clock is each place's solar offset (LocalClock.ts). */
export const SOLAR_TIME_ZONE = "solar"

/** The sample market's id, as quotes and the audit name it. */
export const SAMPLE_MARKET_ID = "global-sample" as MarketId

/**
 * How a route resolver estimates routes in the sample market (docs/pricing.md, "Route
 * resolution"). Detour factor: road distance ÷ great-circle distance; circuity studies put it
 * around 1.2–1.4 (Ballou et al. 2002: ~1.2 for the US, higher elsewhere; Boscoe et al. 2012:
 * ~1.4 for US trips to hospitals; short urban trips sit at the high end), so 1.35. Speeds:
 * average door-to-door km/h by local hour for a generic city, ~33 at night, ~18–19 in the
 * peaks, ~21 through the day; slightly faster than the dense taxi cores of the bundled NYC and
 * Chicago records, since the sample market serves every place, suburbs included.
 */
export const SAMPLE_ROUTE_PROFILE: RouteProfile = {
  detourFactor: 1.35,
  speedKmhByHour: [30, 32, 33, 34, 34, 32, 26, 21, 19, 20, 21, 21, 21, 21, 21, 20, 19, 18, 19, 21, 24, 26, 27, 29]
}

const tariff = (baseFare: number, perKm: number, perMinute: number, minimumFare: number, bookingFee: number): Tariff => ({
  baseFare,
  perKm,
  perMinute,
  minimumFare,
  bookingFee
})

/**
 * SAMPLE DATA (invented). swiftride surges most (spread × 1.2), cityhop is the value brand,
 * metrocab behaves like a metered cab (spread × 0.5). Not every provider offers every level:
 * cityhop has no Comfort, metrocab no Economy.
 */
export const SAMPLE_OFFERS: ReadonlyArray<TariffOffer> = [
  { provider: "swiftride", serviceLevel: "Economy", tariff: tariff(1.8, 0.7, 0.18, 6.5, 1.95), spreadScale: 1.2 },
  { provider: "swiftride", serviceLevel: "Standard", tariff: tariff(2.4, 0.95, 0.25, 8, 1.95), spreadScale: 1.2 },
  { provider: "swiftride", serviceLevel: "Comfort", tariff: tariff(3.5, 1.3, 0.35, 11, 1.95), spreadScale: 1.2 },
  { provider: "swiftride", serviceLevel: "XL", tariff: tariff(4.2, 1.65, 0.4, 13.5, 1.95), spreadScale: 1.2 },
  { provider: "cityhop", serviceLevel: "Economy", tariff: tariff(1.5, 0.65, 0.17, 6, 1.5), spreadScale: 1 },
  { provider: "cityhop", serviceLevel: "Standard", tariff: tariff(2.2, 0.9, 0.22, 7.5, 1.5), spreadScale: 1 },
  { provider: "cityhop", serviceLevel: "XL", tariff: tariff(3.9, 1.55, 0.38, 12.5, 1.5), spreadScale: 1 },
  { provider: "metrocab", serviceLevel: "Standard", tariff: tariff(3, 1.1, 0.3, 8.5, 0.5), spreadScale: 0.5 },
  { provider: "metrocab", serviceLevel: "Comfort", tariff: tariff(4, 1.4, 0.38, 12, 0.5), spreadScale: 0.5 },
  { provider: "metrocab", serviceLevel: "XL", tariff: tariff(4.5, 1.7, 0.42, 14, 0.5), spreadScale: 0.5 }
]

/**
 * SAMPLE DATA (invented). Weekdays peak at 7–9 and 16–19 (commutes); weekends late at night
 * (nightlife). The median multiplier rises with the peaks and so does the spread (log-sd).
 * Scheduled trips pay a quarter of the surge plus a 3 % reservation premium, with 0.6× the
 * spread. Resolved routes add a log-sd of 0.08 for the route estimate's error.
 */
export const SAMPLE_DEMAND: DemandProfile = {
  weekday: {
    median: [1.05, 1, 1, 1, 1, 1.02, 1.08, 1.2, 1.25, 1.12, 1.03, 1.02, 1.05, 1.03, 1.02, 1.05, 1.12, 1.22, 1.25, 1.12, 1.05, 1.05, 1.08, 1.08],
    sigma: [0.14, 0.12, 0.1, 0.1, 0.1, 0.11, 0.15, 0.22, 0.24, 0.17, 0.12, 0.11, 0.12, 0.11, 0.11, 0.13, 0.18, 0.23, 0.24, 0.18, 0.14, 0.14, 0.16, 0.16]
  },
  weekend: {
    median: [1.2, 1.25, 1.22, 1.1, 1, 1, 1, 1, 1, 1.02, 1.05, 1.06, 1.08, 1.06, 1.05, 1.05, 1.06, 1.08, 1.1, 1.1, 1.1, 1.12, 1.18, 1.22],
    sigma: [0.22, 0.24, 0.22, 0.16, 0.11, 0.1, 0.1, 0.1, 0.1, 0.11, 0.12, 0.13, 0.14, 0.13, 0.12, 0.12, 0.13, 0.14, 0.15, 0.15, 0.15, 0.17, 0.2, 0.22]
  },
  scheduled: { surgeShare: 0.25, premium: 1.03, spreadScale: 0.6 },
  resolvedRouteSigma: 0.08
}

/** The sample market (SAMPLE DATA): USD, solar local time, the default route profile. */
export const sampleMarket: Market = tariffMarket({
  id: SAMPLE_MARKET_ID,
  name: "Global sample market (sample data)",
  currency: "USD" as Currency,
  routeProfile: SAMPLE_ROUTE_PROFILE,
  localTime: solarLocalTime,
  offers: SAMPLE_OFFERS,
  demand: SAMPLE_DEMAND,
  sampleData: true,
  // Every place on Earth, on each place's solar clock (no time-zone database in core).
  coverage: { area: { south: -90, west: -180, north: 90, east: 180 }, timeZone: SOLAR_TIME_ZONE }
})

/** MarketData with one market that serves every coordinate. */
export const servingEverywhere = (market: Market): MarketData => {
  const found = Effect.succeed(market)
  return { marketAt: () => found, markets: [market] }
}

/** MarketData of the sample market alone (SAMPLE DATA): every pickup on Earth is served. */
export const SampleMarketLive: Layer.Layer<MarketData> = Layer.succeed(MarketData, servingEverywhere(sampleMarket))
