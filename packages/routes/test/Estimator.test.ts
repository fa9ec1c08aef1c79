/** The offline estimator and the empirical resolver, against figures worked out by hand. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Exit } from "effect"
import { greatCircleKm, RouteResolver, sampleMarket, SAMPLE_ROUTE_PROFILE } from "@ridequote/core"
import type { Market } from "@ridequote/core"
import {
  empiricalRoute,
  EmpiricalRouteResolverLive,
  estimateRoute,
  learnRouteKnowledge,
  learnRouteProfile,
  OfflineRouteResolverLive,
  parseRoutesChoice,
  PICKUP_DROPOFF_MINUTES,
  speedFactorAt
} from "@ridequote/routes"
import type { RouteKnowledge, RouteSample } from "@ridequote/routes"

const BERLIN = { latitude: 52.52, longitude: 13.405 }
const BERLIN_WEST = { latitude: 52.5, longitude: 13.3 }

describe("offline route estimator", () => {
  it("distance is great-circle × the detour factor; duration is overhead + distance ÷ the hour's speed", () => {
    const route = Either.getOrThrow(estimateRoute(BERLIN, BERLIN_WEST, 8, SAMPLE_ROUTE_PROFILE))
    const km = greatCircleKm(BERLIN, BERLIN_WEST) * SAMPLE_ROUTE_PROFILE.detourFactor
    expect(route.distanceKm).toBeCloseTo(km, 2)
    const speed = SAMPLE_ROUTE_PROFILE.speedKmhByHour[8] ?? 0
    expect(route.durationMinutes).toBeCloseTo(PICKUP_DROPOFF_MINUTES + (km / speed) * 60, 1)
  })

  it("an area learned as slower takes longer, over the same distance", () => {
    const base = Either.getOrThrow(estimateRoute(BERLIN, BERLIN_WEST, 8, SAMPLE_ROUTE_PROFILE))
    const mid = { latitude: (BERLIN.latitude + BERLIN_WEST.latitude) / 2, longitude: (BERLIN.longitude + BERLIN_WEST.longitude) / 2 }
    const grid = { cellLatitude: 0.02, cellLongitude: 0.03 }
    const key = `${Math.floor(mid.latitude / 0.02)}:${Math.floor(mid.longitude / 0.03)}`
    const slow = Either.getOrThrow(estimateRoute(BERLIN, BERLIN_WEST, 8, SAMPLE_ROUTE_PROFILE, { ...grid, factors: { [key]: 0.5 } }))
    expect(slow.distanceKm).toBe(base.distanceKm)
    expect(slow.durationMinutes - PICKUP_DROPOFF_MINUTES).toBeCloseTo((base.durationMinutes - PICKUP_DROPOFF_MINUTES) * 2, 0)
  })

  it.effect("uses the market's local hour at departure: the same trip takes longer in the morning peak than at night", () =>
    Effect.gen(function*() {
      const resolver = yield* RouteResolver
      // Berlin is UTC+1 by solar time: 07:00 UTC is 08:00 local, 02:00 UTC is 03:00 local.
      const at = (iso: string) =>
        resolver.resolve({ pickup: BERLIN, destination: BERLIN_WEST, departAt: DateTime.unsafeMake(iso), market: sampleMarket })
      const peak = yield* at("2026-11-23T07:00:00Z")
      const night = yield* at("2026-11-23T02:00:00Z")
      expect(peak.distanceKm).toBe(night.distanceKm)
      expect(peak.durationMinutes).toBeGreaterThan(night.durationMinutes)
    }).pipe(Effect.provide(OfflineRouteResolverLive)))

  it("a profile's speed factors by distance: linear between knots, flat beyond them, 1 without them", () => {
    const knots = [[1, 0.8], [5, 1.2], [20, 2]] as const
    expect([0.5, 1, 3, 5, 12.5, 20, 60].map((km) => speedFactorAt(knots, km))).toEqual([0.8, 0.8, 1, 1.2, 1.6, 2, 2])
    expect(speedFactorAt(undefined, 12)).toBe(1)
    // On a route: the hour's speed × the factor at the route's distance (Berlin → Berlin West, ~10 km).
    const route = Either.getOrThrow(estimateRoute(BERLIN, BERLIN_WEST, 8, { ...SAMPLE_ROUTE_PROFILE, speedFactorByKm: knots }))
    const plain = Either.getOrThrow(estimateRoute(BERLIN, BERLIN_WEST, 8, SAMPLE_ROUTE_PROFILE))
    expect(route.distanceKm).toBe(plain.distanceKm)
    const speed = (SAMPLE_ROUTE_PROFILE.speedKmhByHour[8] ?? 0) * speedFactorAt(knots, route.distanceKm)
    expect(route.durationMinutes).toBeCloseTo(PICKUP_DROPOFF_MINUTES + (route.distanceKm / speed) * 60, 1)
    expect(route.durationMinutes).toBeLessThan(plain.durationMinutes)
  })

  it("fails with RouteUnavailable for a profile that cannot give an estimate", () => {
    const broken: Market["routeProfile"] = { detourFactor: 1.3, speedKmhByHour: [] }
    const exit = Effect.runSyncExit(estimateRoute(BERLIN, BERLIN_WEST, 5, broken))
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error.code).toBe("result:unavailable")
    const bent = Effect.runSyncExit(estimateRoute(BERLIN, BERLIN_WEST, 5, { ...SAMPLE_ROUTE_PROFILE, detourFactor: 0.5 }))
    expect(Exit.isFailure(bent)).toBe(true)
  })
})

/**
 * Trips on a grid of origins whose real road distance is 1.4 × the great circle at 30 km/h,
 * and 40 trips of one corridor, away from the grid, whose road is 1.8× the great circle at 15 km/h.
 */
const samples = (): Array<RouteSample> => {
  const out: Array<RouteSample> = []
  const trip = (pickup: { latitude: number; longitude: number }, detour: number, speed: number, hour: number) => {
    const destination = { latitude: pickup.latitude + 0.02, longitude: pickup.longitude + 0.03 }
    const km = greatCircleKm(pickup, destination) * detour
    out.push({ pickup, destination, distanceKm: km, durationMinutes: PICKUP_DROPOFF_MINUTES + (km / speed) * 60, hour })
  }
  for (let i = 0; i < 40; i++) trip({ latitude: 52.7, longitude: 13.7 }, 1.8, 15, i % 24)
  for (let i = 0; i < 3960; i++) {
    trip({ latitude: 52.45 + (i % 20) * 0.005, longitude: 13.3 + (Math.floor(i / 20) % 20) * 0.008 }, 1.4, 30, i % 24)
  }
  return out
}

describe("learning routes from trip records", () => {
  const trips = samples()
  const profile = learnRouteProfile(trips)
  const knowledge: RouteKnowledge = learnRouteKnowledge(trips, profile)
  const corridor = trips[0] as RouteSample

  it("learns a detour factor between the two kinds of road, and speeds near 30 km/h", () => {
    expect(profile.detourFactor).toBeGreaterThan(1.39)
    expect(profile.detourFactor).toBeLessThan(1.45)
    for (const s of profile.speedKmhByHour) expect(s).toBeGreaterThan(25)
  })

  it("the empirical resolver gives the corridor's own distance and duration; the estimator does not", () => {
    const empirical = empiricalRoute(knowledge, profile, corridor.pickup, corridor.destination, corridor.hour)
    expect(empirical?.distanceKm).toBeCloseTo(corridor.distanceKm, 1)
    expect(Math.abs((empirical?.durationMinutes ?? 0) - corridor.durationMinutes)).toBeLessThan(0.5)
    const offline = Either.getOrThrow(estimateRoute(corridor.pickup, corridor.destination, corridor.hour, profile))
    expect(Math.abs(offline.durationMinutes - corridor.durationMinutes)).toBeGreaterThan(3)
  })

  it.effect("a trip between identical points gets the estimator's 0 km route, not its cell pair's trips (the quote rules refuse it)", () =>
    Effect.gen(function*() {
      // Trips within one ~1 km cell (as between two points of one NYC zone): 1.5 km by road.
      const here = { latitude: 52.3, longitude: 13.1 }
      const nearby = { latitude: 52.3023, longitude: 13.1 }
      const within: Array<RouteSample> = Array.from({ length: 20 }, (_, i) => ({
        pickup: here, destination: nearby, distanceKm: 1.5, durationMinutes: 6, hour: i % 24
      }))
      const local = learnRouteKnowledge([...trips, ...within], profile)
      expect(empiricalRoute(local, profile, here, nearby, 12)?.distanceKm).toBe(1.5)
      const market = { ...sampleMarket, routeProfile: profile, routeKnowledge: local }
      const route = yield* (yield* RouteResolver).resolve({
        pickup: here,
        destination: here,
        departAt: DateTime.unsafeMake("2026-11-23T12:00:00Z"),
        market
      })
      expect(route.distanceKm).toBe(0)
    }).pipe(Effect.provide(EmpiricalRouteResolverLive)))

  it.effect("falls back to the estimator between cells with no observed trips", () =>
    Effect.gen(function*() {
      const market = { ...sampleMarket, routeProfile: profile, routeKnowledge: knowledge }
      const far = { latitude: 48.1, longitude: 11.5 }
      const query = { pickup: BERLIN, destination: far, departAt: DateTime.unsafeMake("2026-11-23T12:00:00Z"), market }
      const resolver = yield* RouteResolver
      const got = yield* resolver.resolve(query)
      const expected = yield* estimateRoute(BERLIN, far, market.localTime(query.departAt, BERLIN).hour, profile, knowledge.areaSpeed)
      expect(got).toEqual(expected)
    }).pipe(Effect.provide(EmpiricalRouteResolverLive)))
})

describe("choosing a resolver (--routes)", () => {
  it("reads offline, empirical and osrm=URL, and refuses anything else", () => {
    expect(parseRoutesChoice("offline")).toEqual(Either.right({ _tag: "Offline" }))
    expect(parseRoutesChoice("empirical")).toEqual(Either.right({ _tag: "Empirical" }))
    expect(parseRoutesChoice("osrm=http://127.0.0.1:5000")).toEqual(Either.right({ _tag: "Osrm", baseUrl: "http://127.0.0.1:5000" }))
    expect(Either.isLeft(parseRoutesChoice("osrm=localhost:5000"))).toBe(true)
    expect(Either.isLeft(parseRoutesChoice("google"))).toBe(true)
  })
})
