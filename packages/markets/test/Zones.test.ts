/**
 * A tariff zone's polygon test goes through a grid (Zones.ts) that only skips work: it must
 * answer exactly as the plain even-odd ray cast (`contains`) on every point, at the centres of
 * its cells (where the grid decides alone) as anywhere else.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { boxOf, contains } from "../src/internal/Area.js"
import { ZONE_GRID, zoneLocator } from "../src/internal/tariff/Zones.js"

type Ring = ReadonlyArray<readonly [number, number]>
const polygon = (ring: Ring) => ({ kind: "polygon" as const, ring })

/** Points of a ring's box, a little beyond it: the grid's cell centres and `random` others. */
const pointsAround = (ring: Ring, random: ReadonlyArray<readonly [number, number]>) => {
  const { south, north, west, east } = boxOf(polygon(ring))
  const points: Array<{ latitude: number; longitude: number }> = []
  const cellLat = (north - south) / ZONE_GRID, cellLon = (east - west) / ZONE_GRID
  for (let cy = 0; cy < ZONE_GRID; cy++) {
    for (let cx = 0; cx < ZONE_GRID; cx++) points.push({ latitude: south + (cy + 0.5) * cellLat, longitude: west + (cx + 0.5) * cellLon })
  }
  for (const [u, v] of random) {
    points.push({ latitude: south - 0.05 * (north - south) + u * 1.1 * (north - south), longitude: west - 0.05 * (east - west) + v * 1.1 * (east - west) })
  }
  // The ring's own corners, where the two tests are most likely to part.
  for (const [lon, lat] of ring) points.push({ latitude: lat, longitude: lon })
  return points
}

const agree = (ring: Ring, random: ReadonlyArray<readonly [number, number]>) => {
  const zone = polygon(ring)
  const locate = zoneLocator({ z: zone })
  return pointsAround(ring, random).filter((p) => locate(p).has("z") !== contains(zone, p))
}

describe("a tariff zone's polygon through its grid", () => {
  it("answers as the plain ray cast on every polygon zone of the shipped tariff files", () => {
    const rings: Array<[string, Ring]> = []
    for (const file of readdirSync(SHIPPED_MARKETS_DIR).filter((f) => f.endsWith("-tariff.json"))) {
      const zones = (JSON.parse(readFileSync(join(SHIPPED_MARKETS_DIR, file), "utf8")) as { zones?: Record<string, { kind: string; ring?: Ring }> }).zones ?? {}
      for (const [name, zone] of Object.entries(zones)) if (zone.kind === "polygon" && zone.ring !== undefined) rings.push([`${file} ${name}`, zone.ring])
    }
    expect(rings.length).toBeGreaterThanOrEqual(4)
    const random = Array.from({ length: 5000 }, (_, i) => [((i * 7919) % 5003) / 5003, ((i * 104729) % 4999) / 4999] as const)
    for (const [name, ring] of rings) expect([name, agree(ring, random)]).toEqual([name, []])
  })

  it("answers as the plain ray cast on random polygons (self-intersecting ones included)", () => {
    const coordinate = fc.double({ min: -1, max: 1, noNaN: true })
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coordinate, coordinate), { minLength: 3, maxLength: 40 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 200 }),
        (ring, random) => agree(ring.map(([x, y]) => [-74 + x, 40.7 + y] as const), random).length === 0
      ),
      { numRuns: 200 }
    )
  })
})
