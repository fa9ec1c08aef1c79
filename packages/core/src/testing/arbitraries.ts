/**
 * fast-check arbitraries for the pricing domain (via `effect/FastCheck` and `Arbitrary.make`),
 * so anyone can property-test pricing invariants: quote requests (valid, and with exactly one
 * route field), accounts, trips, and random but valid tariff markets.
 *
 * Times are relative to a `now` (default: the epoch, where `TestClock` starts).
 */
import { Arbitrary, DateTime, FastCheck as fc } from "effect"
import type { Account } from "../Account.js"
import { AccountStatus, MAX_TOKEN_TTL_SECONDS, MIN_TOKEN_TTL_SECONDS } from "../Account.js"
import type { Coordinates } from "../Geo.js"
import { Coordinates as CoordinatesSchema } from "../Geo.js"
import type { AccountId, BehaviorId, MarketId } from "../Ids.js"
import type { Currency } from "../Money.js"
import type { LocalTime, Market, MarketData, RouteProfile, Trip } from "../ports/MarketData.js"
import type { QuoteRequest, ServiceLevel } from "../Quote.js"
import { DistanceKm, DurationMinutes, Mode, MAX_SCHEDULE_AHEAD_DAYS, RouteSource, SERVICE_LEVELS } from "../Quote.js"
import { builtInBehaviors } from "../pricing/Behaviors.js"
import { localTimeAtOffset, solarLocalTime } from "../pricing/LocalClock.js"
import { servingEverywhere } from "../pricing/SampleMarket.js"
import type { DemandProfile, HourlyDemand, Tariff, TariffMarketSpec, TariffOffer } from "../pricing/TariffMarket.js"
import { tariffMarket } from "../pricing/TariffMarket.js"

const EPOCH = DateTime.unsafeMake(0)
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/** Any point within the contract's bounds (core's Coordinates schema). */
export const arbitraryCoordinates: fc.Arbitrary<Coordinates> = Arbitrary.make(CoordinatesSchema)
/** A distance within the contract's bounds, (0, 1000] km. */
export const arbitraryDistanceKm: fc.Arbitrary<number> = Arbitrary.make(DistanceKm)
/** A duration within the contract's bounds, (0, 1440] minutes. */
export const arbitraryDurationMinutes: fc.Arbitrary<number> = Arbitrary.make(DurationMinutes)

/**
 * Pickup and a destination 100 m to ~45 km away, away from the poles: a route the offline
 * resolver infers inside the contract's bounds.
 */
export const arbitraryNearbyPair: fc.Arbitrary<{ readonly pickup: Coordinates; readonly destination: Coordinates }> = fc
  .record({
    latitude: fc.double({ min: -70, max: 70, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    dLat: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
    dLon: fc.double({ min: -0.3, max: 0.3, noNaN: true })
  })
  .filter(({ dLat, dLon }) => Math.abs(dLat) + Math.abs(dLon) >= 0.002)
  .map(({ dLat, dLon, latitude, longitude }) => {
    const lon = longitude + dLon
    return {
      pickup: { latitude, longitude },
      destination: { latitude: latitude + dLat, longitude: lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon }
    }
  })

/**
 * An offset from now for `scheduledAt`, in ms: from a day in the past to 90 days ahead, with
 * extra weight around the 30-minute Scheduled threshold where bugs hide.
 */
export const arbitraryScheduleOffsetMs: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -DAY_MS, max: MAX_SCHEDULE_AHEAD_DAYS * DAY_MS }),
  fc.integer({ min: 29 * MINUTE_MS, max: 31 * MINUTE_MS }),
  fc.constantFrom(0, 30 * MINUTE_MS - 1, 30 * MINUTE_MS, 30 * MINUTE_MS + 1, MAX_SCHEDULE_AHEAD_DAYS * DAY_MS)
)

/** What `arbitraryQuoteRequest` varies. */
export interface QuoteRequestOptions {
  /** The clock the request will be priced at (default: the epoch, TestClock's start). */
  readonly now?: DateTime.Utc
  /** "supplied": both route fields; "resolved": neither; "either" (default): both or neither. */
  readonly route?: "supplied" | "resolved" | "either"
}

const scheduledAtFrom = (now: DateTime.Utc): fc.Arbitrary<DateTime.Utc | undefined> =>
  fc.option(arbitraryScheduleOffsetMs.map((offset) => DateTime.unsafeMake(DateTime.toEpochMillis(now) + offset)), {
    nil: undefined
  })

const withOptional = <A extends object>(base: A, key: string, value: unknown): A =>
  value === undefined ? base : { ...base, [key]: value }

/** Valid quote requests: within every bound of the quote (docs/api.md, "POST /v1/quote"), so each one must be quoted. */
export const arbitraryQuoteRequest = (options: QuoteRequestOptions = {}): fc.Arbitrary<QuoteRequest> => {
  const now = options.now ?? EPOCH
  const supplied = fc
    .record({
      pickup: arbitraryCoordinates,
      destination: arbitraryCoordinates,
      distanceKm: arbitraryDistanceKm,
      durationMinutes: arbitraryDurationMinutes,
      scheduledAt: scheduledAtFrom(now)
    })
    .map(({ scheduledAt, ...rest }): QuoteRequest => withOptional(rest, "scheduledAt", scheduledAt))
  const resolved = fc
    .tuple(arbitraryNearbyPair, scheduledAtFrom(now))
    .map(([pair, scheduledAt]): QuoteRequest => withOptional({ ...pair }, "scheduledAt", scheduledAt))
  switch (options.route ?? "either") {
    case "supplied":
      return supplied
    case "resolved":
      return resolved
    case "either":
      return fc.oneof(supplied, resolved)
  }
}

/** Requests with exactly one of distanceKm and durationMinutes (400 result:route-metadata-incomplete). */
export const arbitraryIncompleteRouteRequest = (options: { readonly now?: DateTime.Utc } = {}): fc.Arbitrary<QuoteRequest> =>
  fc
    .record({
      pickup: arbitraryCoordinates,
      destination: arbitraryCoordinates,
      field: fc.constantFrom("distanceKm" as const, "durationMinutes" as const),
      distanceKm: arbitraryDistanceKm,
      durationMinutes: arbitraryDurationMinutes,
      scheduledAt: scheduledAtFrom(options.now ?? EPOCH)
    })
    .map(({ distanceKm, durationMinutes, field, scheduledAt, ...ends }): QuoteRequest =>
      withOptional(
        field === "distanceKm" ? { ...ends, distanceKm } : { ...ends, durationMinutes },
        "scheduledAt",
        scheduledAt
      )
    )

/** What `arbitraryAccount` varies. */
export interface AccountOptions {
  readonly status?: AccountStatus
  /** Behavior ids to choose the default and the enabled ones from (default: the built-ins). */
  readonly behaviors?: ReadonlyArray<BehaviorId>
}

/** Accounts whose pricing settings name behaviors the registry knows. */
export const arbitraryAccount = (options: AccountOptions = {}): fc.Arbitrary<Account> => {
  const ids = options.behaviors ?? builtInBehaviors.map((b) => b.id)
  return fc
    .record({
      id: fc.uuid({ version: 4 }),
      name: fc.constantFrom("Acme Rides", "Northwind Travel", "Globex Mobility", "Initech Shuttle"),
      status: options.status !== undefined ? fc.constant(options.status) : Arbitrary.make(AccountStatus),
      tokenTtlSeconds: fc.integer({ min: MIN_TOKEN_TTL_SECONDS, max: MAX_TOKEN_TTL_SECONDS }),
      defaultBehavior: fc.constantFrom(...ids),
      enabledBehaviors: fc.subarray([...ids]),
      createdAtMs: fc.integer({ min: 0, max: 4_102_444_800_000 })
    })
    .map(({ createdAtMs, defaultBehavior, enabledBehaviors, id, ...rest }): Account => ({
      ...rest,
      id: id as AccountId,
      pricing: { defaultBehavior, enabledBehaviors },
      createdAt: DateTime.unsafeMake(createdAtMs)
    }))
}

/** Any local time: every minute of every day of the week. */
export const arbitraryLocalTime: fc.Arbitrary<LocalTime> = fc
  .record({ minuteOfDay: fc.integer({ min: 0, max: 1439 }), dayOfWeek: fc.integer({ min: 0, max: 6 }) })
  .map(({ dayOfWeek, minuteOfDay }) => ({
    hour: Math.floor(minuteOfDay / 60),
    minuteOfDay,
    dayOfWeek,
    dayType: dayOfWeek === 0 || dayOfWeek === 6 ? "weekend" : "weekday"
  }))

/** Trips within the contract's bounds, in any mode, with supplied or resolved routes. */
export const arbitraryTrip: fc.Arbitrary<Trip> = fc.record({
  pickup: arbitraryCoordinates,
  destination: arbitraryCoordinates,
  distanceKm: arbitraryDistanceKm,
  durationMinutes: arbitraryDurationMinutes,
  mode: Arbitrary.make(Mode),
  routeSource: Arbitrary.make(RouteSource),
  localTime: arbitraryLocalTime
})

/** A number in [min, max] in steps of (max − min) / 10⁴: integers are much cheaper to draw than doubles. */
const grid = (min: number, max: number): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: 10_000 }).map((i) => min + ((max - min) * i) / 10_000)
const money = (max: number) => fc.double({ min: 0, max, noNaN: true })
const hours = (min: number, max: number) => fc.array(grid(min, max), { minLength: 24, maxLength: 24 })

/** A tariff with finite, non-negative fares and fees. */
export const arbitraryTariff: fc.Arbitrary<Tariff> = fc.record({
  baseFare: money(10),
  perKm: money(5),
  perMinute: money(2),
  minimumFare: money(40),
  bookingFee: money(5)
})

const arbitraryHourlyDemand: fc.Arbitrary<HourlyDemand> = fc.record({ median: hours(0.5, 3), sigma: hours(0, 0.8) })

/** A demand profile: hourly multipliers and spreads, Scheduled damping, route uncertainty. */
export const arbitraryDemandProfile: fc.Arbitrary<DemandProfile> = fc.record({
  weekday: arbitraryHourlyDemand,
  weekend: arbitraryHourlyDemand,
  scheduled: fc.record({
    surgeShare: grid(0, 1),
    premium: grid(0.8, 1.25),
    spreadScale: grid(0, 1.5)
  }),
  resolvedRouteSigma: grid(0, 0.3)
})

/** A route profile: detour factor 1–2, speeds 5–80 km/h by hour. */
export const arbitraryRouteProfile: fc.Arbitrary<RouteProfile> = fc.record({
  detourFactor: grid(1, 2),
  speedKmhByHour: hours(5, 80)
})

const PROVIDERS = ["alpha", "bravo", "charlie", "delta", "echo"] as const
const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "KWD"] as const

/** Offers of 1–5 providers, each over a non-empty subset of the service levels. */
const arbitraryOffers: fc.Arbitrary<ReadonlyArray<TariffOffer>> = fc
  .uniqueArray(fc.constantFrom(...PROVIDERS), { minLength: 1, maxLength: PROVIDERS.length })
  .chain((providers) =>
    fc.tuple(
      ...providers.map((provider) =>
        fc
          .subarray([...SERVICE_LEVELS] as Array<ServiceLevel>, { minLength: 1 })
          .chain((levels) =>
            fc.tuple(
              ...levels.map((serviceLevel) =>
                fc.record({
                  provider: fc.constant(provider),
                  serviceLevel: fc.constant(serviceLevel),
                  tariff: arbitraryTariff,
                  spreadScale: grid(0, 2)
                })
              )
            )
          )
      )
    )
  )
  .map((perProvider) => perProvider.flat())

/** Everything `tariffMarket` needs, with random providers, tariffs, currency and demand. */
export const arbitraryTariffMarketSpec: fc.Arbitrary<TariffMarketSpec> = fc
  .record({
    n: fc.integer({ min: 0, max: 9999 }),
    currency: fc.constantFrom(...CURRENCIES),
    routeProfile: arbitraryRouteProfile,
    // Either solar time or a fixed civil offset (UTC−12 … UTC+14, in quarter hours).
    offsetQuarters: fc.option(fc.integer({ min: -48, max: 56 }), { nil: undefined }),
    offers: arbitraryOffers,
    demand: arbitraryDemandProfile
  })
  .map(({ currency, demand, n, offers, offsetQuarters, routeProfile }): TariffMarketSpec => ({
    id: `arb-${n}` as MarketId,
    name: `Arbitrary market ${n}`,
    currency: currency as Currency,
    routeProfile,
    localTime: offsetQuarters === undefined
      ? solarLocalTime
      : (at) => localTimeAtOffset(DateTime.toEpochMillis(at), offsetQuarters * 15),
    offers,
    demand
  }))

/** Random but valid markets with random tariffs (see `tariffMarket`). */
export const arbitraryMarket: fc.Arbitrary<Market> = arbitraryTariffMarketSpec.map(tariffMarket)

/** MarketData of one arbitrary market serving every coordinate. */
export const arbitraryMarketData: fc.Arbitrary<MarketData> = arbitraryMarket.map(servingEverywhere)
