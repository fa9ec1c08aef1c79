/** How far a point is from a market's area, for the refusal of a place no market serves. */
import { describe, expect, it } from "@effect/vitest"
import { boxOf, distanceKmToArea } from "../src/internal/Area.js"

const box = { kind: "bbox" as const, south: 40, west: -75, north: 41, east: -73 }
const triangle = { kind: "polygon" as const, ring: [[-75, 40], [-73, 40], [-74, 41]] as ReadonlyArray<readonly [number, number]> }

describe("distance to an area", () => {
  it("is 0 inside the bounding box, and the great-circle km to its nearest edge outside", () => {
    expect(distanceKmToArea(box, { latitude: 40.5, longitude: -74 })).toBe(0)
    // One degree of latitude north of the box: ~111 km.
    expect(distanceKmToArea(box, { latitude: 42, longitude: -74 })).toBeCloseTo(111.2, 0)
    // A corner: farther than either edge alone.
    const corner = distanceKmToArea(box, { latitude: 42, longitude: -72 })
    expect(corner).toBeGreaterThan(distanceKmToArea(box, { latitude: 42, longitude: -74 }))
  })

  it("a polygon is measured by its bounding box", () => {
    expect(boxOf(triangle)).toEqual({ south: 40, west: -75, north: 41, east: -73 })
    expect(distanceKmToArea(triangle, { latitude: 42, longitude: -74 })).toBe(distanceKmToArea(box, { latitude: 42, longitude: -74 }))
  })
})
