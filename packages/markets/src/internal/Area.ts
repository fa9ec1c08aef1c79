/** Which pickups a market serves: a bounding box or a polygon (ray casting), in degrees. */
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import type { Area } from "./ModelFile.js"

/** Whether a point lies in an area (box, or polygon by ray casting). */
export const contains = (area: Area, p: Coordinates): boolean => {
  if (area.kind === "bbox") {
    return p.latitude >= area.south && p.latitude <= area.north && p.longitude >= area.west && p.longitude <= area.east
  }
  // Even–odd rule; a point exactly on an edge may fall either way, which is fine for markets.
  let inside = false
  const ring = area.ring
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    // NaN (no crossing) compares false.
    if (p.longitude < edgeCrossing(ring[i] ?? [0, 0], ring[j] ?? [0, 0], p.latitude)) inside = !inside
  }
  return inside
}

/**
 * The longitude where the ring's edge from `a` to `b` crosses `latitude`, NaN where it does not:
 * the even–odd rule's one test, shared by `contains` and the zone grids (tariff/Zones.ts), which
 * must agree with it to the last bit. The half-open comparison counts a vertex on the latitude
 * once.
 */
export const edgeCrossing = (a: readonly [number, number], b: readonly [number, number], latitude: number): number => {
  const [xi, yi] = a
  const [xj, yj] = b
  return yi > latitude !== yj > latitude ? ((xj - xi) * (latitude - yi)) / (yj - yi) + xi : Number.NaN
}

/** Area in square degrees, used only to order overlapping markets (the smaller one wins). */
export const extent = (area: Area): number => {
  if (area.kind === "bbox") return (area.north - area.south) * (area.east - area.west)
  let twice = 0
  const ring = area.ring
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] ?? [0, 0]
    const [xj, yj] = ring[j] ?? [0, 0]
    twice += xj * yi - xi * yj
  }
  return Math.abs(twice) / 2
}

const KM_PER_DEGREE_LAT = 111.32

/** The box around points, widened by `marginKm` on every side. */
export const boundingBox = (points: ReadonlyArray<Coordinates>, marginKm: number): Area => {
  let south = 90, north = -90, west = 180, east = -180
  for (const p of points) {
    south = Math.min(south, p.latitude)
    north = Math.max(north, p.latitude)
    west = Math.min(west, p.longitude)
    east = Math.max(east, p.longitude)
  }
  const dLat = marginKm / KM_PER_DEGREE_LAT
  const midLat = ((south + north) / 2) * (Math.PI / 180)
  const dLon = marginKm / (KM_PER_DEGREE_LAT * Math.max(0.05, Math.cos(midLat)))
  const round = (x: number) => Math.round(x * 1e4) / 1e4
  return {
    kind: "bbox",
    south: round(Math.max(-90, south - dLat)),
    north: round(Math.min(90, north + dLat)),
    west: round(Math.max(-180, west - dLon)),
    east: round(Math.min(180, east + dLon))
  }
}

/** The bounding box of an area, in degrees (a box is its own). */
export const boxOf = (area: Area): { readonly south: number; readonly west: number; readonly north: number; readonly east: number } => {
  if (area.kind === "bbox") return { south: area.south, west: area.west, north: area.north, east: area.east }
  let south = 90, north = -90, west = 180, east = -180
  for (const [longitude, latitude] of area.ring) {
    south = Math.min(south, latitude)
    north = Math.max(north, latitude)
    west = Math.min(west, longitude)
    east = Math.max(east, longitude)
  }
  return { south, west, north, east }
}

/**
 * Great-circle km from `p` to the nearest point of the area's bounding box (0 inside it): how
 * far a point no market serves is from each market, for the refusal to name the nearest. The
 * box, not the polygon: an estimate for naming, never used to decide who serves a point.
 */
export const distanceKmToArea = (area: Area, p: Coordinates): number => distanceKmToBox(boxOf(area), p)

/** Great-circle km from `p` to the nearest point of a box (0 inside it, without trigonometry). */
export const distanceKmToBox = (box: ReturnType<typeof boxOf>, p: Coordinates): number => {
  if (p.latitude >= box.south && p.latitude <= box.north && p.longitude >= box.west && p.longitude <= box.east) return 0
  const latitude = Math.min(box.north, Math.max(box.south, p.latitude))
  const longitude = Math.min(box.east, Math.max(box.west, p.longitude))
  return greatCircleKm(p, { latitude, longitude })
}
