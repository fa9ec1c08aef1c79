/** The offline route resolver and the solar local clock. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit } from "effect"
import { greatCircleKm } from "../../src/Geo.js"
import type { Market } from "../../src/ports/MarketData.js"
import { RouteResolver } from "../../src/ports/RouteResolver.js"
import { localTimeAtOffset, solarLocalTime, solarOffsetMinutes } from "../../src/pricing/LocalClock.js"
import {
  DEFAULT_DETOUR_FACTOR,
  DEFAULT_SPEED_KMH_BY_HOUR,
  estimateRoute,
  OfflineRouteResolverLive,
  PICKUP_DROPOFF_MINUTES
} from "../../src/pricing/RouteEstimator.js"
import { sampleMarket } from "../../src/pricing/SampleMarket.js"
import { BERLIN, BERLIN_WEST } from "./fixtures.js"

describe("solar local time", () => {
  it("offset is round(longitude / 15) hours", () => {
    expect(solarOffsetMinutes(13.405)).toBe(60)
    expect(solarOffsetMinutes(-74.006)).toBe(-300)
    expect(solarOffsetMinutes(7.4)).toBe(0)
    expect(solarOffsetMinutes(7.6)).toBe(60)
    expect(solarOffsetMinutes(180)).toBe(720)
    expect(solarOffsetMinutes(-180)).toBe(-720)
  })

  it("gives hour, minute of day, day of week and day type (1970-01-01 was a Thursday)", () => {
    expect(localTimeAtOffset(0, 0)).toEqual({ hour: 0, minuteOfDay: 0, dayOfWeek: 4, dayType: "weekday" })
    // Saturday 2026-11-21 23:30 UTC is Sunday 00:30 at UTC+1 and Saturday 18:30 at UTC−5.
    const at = DateTime.unsafeMake("2026-11-21T23:30:00.000Z")
    expect(solarLocalTime(at, BERLIN)).toEqual({ hour: 0, minuteOfDay: 30, dayOfWeek: 0, dayType: "weekend" })
    expect(solarLocalTime(at, { latitude: 40.7, longitude: -74 })).toEqual({
      hour: 18,
      minuteOfDay: 1110,
      dayOfWeek: 6,
      dayType: "weekend"
    })
    // Before the epoch too.
    expect(localTimeAtOffset(-60_000, 0)).toEqual({ hour: 23, minuteOfDay: 1439, dayOfWeek: 3, dayType: "weekday" })
  })
})

describe("offline route estimator", () => {
  it("distance is great-circle × the detour factor; duration is overhead + distance ÷ the hour's speed", () =>
    Effect.gen(function*() {
      const route = yield* estimateRoute(BERLIN, BERLIN_WEST, 8, sampleMarket.routeProfile)
      const km = greatCircleKm(BERLIN, BERLIN_WEST) * DEFAULT_DETOUR_FACTOR
      expect(route.distanceKm).toBeCloseTo(km, 2)
      const speed = DEFAULT_SPEED_KMH_BY_HOUR[8] ?? 0
      expect(route.durationMinutes).toBeCloseTo(PICKUP_DROPOFF_MINUTES + (km / speed) * 60, 1)
    }).pipe(Effect.runSync))

  it.effect("uses the market's local hour at departure: the same trip takes longer in the morning peak than at night", () =>
    Effect.gen(function*() {
      const resolver = yield* RouteResolver
      // Berlin is UTC+1 by solar time: 07:00 UTC is 08:00 local, 02:00 UTC is 03:00 local.
      const peak = yield* resolver.resolve({
        pickup: BERLIN,
        destination: BERLIN_WEST,
        departAt: DateTime.unsafeMake("2026-11-23T07:00:00Z"),
        market: sampleMarket
      })
      const night = yield* resolver.resolve({
        pickup: BERLIN,
        destination: BERLIN_WEST,
        departAt: DateTime.unsafeMake("2026-11-23T02:00:00Z"),
        market: sampleMarket
      })
      expect(peak.distanceKm).toBe(night.distanceKm)
      const expected = (hour: number) =>
        PICKUP_DROPOFF_MINUTES + (peak.distanceKm / (DEFAULT_SPEED_KMH_BY_HOUR[hour] ?? 1)) * 60
      expect(peak.durationMinutes).toBeCloseTo(expected(8), 1)
      expect(night.durationMinutes).toBeCloseTo(expected(3), 1)
      expect(peak.durationMinutes).toBeGreaterThan(night.durationMinutes)
    }).pipe(Effect.provide(OfflineRouteResolverLive)))

  it("fails with RouteUnavailable for a market profile that cannot give an estimate", () => {
    const broken: Market["routeProfile"] = { detourFactor: 1.3, speedKmhByHour: [] }
    const exit = Effect.runSyncExit(estimateRoute(BERLIN, BERLIN_WEST, 5, broken))
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error.code).toBe("result:unavailable")
    const bent = Effect.runSyncExit(estimateRoute(BERLIN, BERLIN_WEST, 5, { detourFactor: 0.5, speedKmhByHour: DEFAULT_SPEED_KMH_BY_HOUR }))
    expect(Exit.isFailure(bent)).toBe(true)
  })
})
