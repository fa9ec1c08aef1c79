/**
 * The route profile of the cities priced from their tariff alone: core's generic speeds by hour,
 * faster on longer trips by the factors measured on the bundled NYC and Chicago records
 * (tools/markets/research/resolved-durations-by-distance.mjs; docs/route-resolution.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { SAMPLE_ROUTE_PROFILE } from "@ridequote/core"
import { TARIFF_ROUTE_PROFILE } from "@ridequote/markets"
import { estimateRoute } from "@ridequote/routes"
import { Either } from "effect"

const at = (from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }, hour: number, profile = TARIFF_ROUTE_PROFILE) =>
  Either.getOrThrow(estimateRoute(from, to, hour, profile))

describe("the tariff cities' route profile", () => {
  it("a longer route never resolves to a shorter duration, at any hour (0.3 to 150 km)", () => {
    const origin = { latitude: 37.5665, longitude: 126.978 }
    for (let hour = 0; hour < 24; hour++) {
      let previous = 0
      for (let km = 0.3; km <= 150; km *= 1.05) {
        // Due east: the great circle's km per degree of longitude at this latitude.
        const to = { latitude: origin.latitude, longitude: origin.longitude + km / (111.32 * Math.cos((origin.latitude * Math.PI) / 180)) / 1.35 }
        const d = at(origin, to, hour).durationMinutes
        expect(d).toBeGreaterThanOrEqual(previous)
        previous = d
      }
    }
  })

  it("Incheon airport → Seoul City Hall at 11:00: 92 minutes, not the 187 of one speed at any length", () => {
    const icn = { latitude: 37.449, longitude: 126.4505 }
    const cityHall = { latitude: 37.5663, longitude: 126.9779 }
    const route = at(icn, cityHall, 11)
    const plain = at(icn, cityHall, 11, SAMPLE_ROUTE_PROFILE)
    expect(route.distanceKm).toBe(plain.distanceKm)
    // 65.2 km at 21 km/h × 2.06 (the factor from 30 km on) + 1 min.
    expect(route.durationMinutes).toBeCloseTo(1 + (route.distanceKm / (21 * 2.06)) * 60, 0)
    expect([route.distanceKm, route.durationMinutes, plain.durationMinutes]).toEqual([65.22, 91.5, 187.4])
    expect(plain.durationMinutes).toBeCloseTo(1 + (plain.distanceKm / 21) * 60, 0)
  })

  it("a short trip is slower than the hour's speed: 1.5 km of resolved route at 0.83 of it", () => {
    const a = { latitude: 40.0, longitude: -3.7 }
    const b = { latitude: 40.0 + 1.5 / 1.35 / 111.2, longitude: -3.7 }
    const route = at(a, b, 11)
    expect(route.durationMinutes).toBeGreaterThan(at(a, b, 11, SAMPLE_ROUTE_PROFILE).durationMinutes)
  })
})
