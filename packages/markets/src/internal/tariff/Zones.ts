/**
 * The named zones of a tariff file as membership tests: which zones a point is in.
 *
 * A trip's ends are placed once per quote (`zonesOf`), and every condition of the tariff reads
 * the resulting sets, so a tariff with many surcharges costs one scan of its zones per end.
 */
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { boxOf, contains, edgeCrossing } from "../Area.js"
import type { Zone } from "./TariffFile.js"

/** A function from a point to the names of the zones that contain it. */
export type ZoneLocator = (p: Coordinates) => ReadonlySet<string>

type Shape = Exclude<Zone, { kind: "union" }>

type Box = { readonly south: number; readonly west: number; readonly north: number; readonly east: number }

/** The box a circle's test checks first: no point outside it is in the circle (`shapeTest`). */
const circleBox = (zone: Extract<Zone, { kind: "circle" }>): Box => {
  const dLat = zone.radiusKm / 110.5
  const dLon = dLat / Math.max(0.05, Math.cos((zone.latitude * Math.PI) / 180))
  return { south: zone.latitude - dLat, north: zone.latitude + dLat, west: zone.longitude - dLon, east: zone.longitude + dLon }
}

/** A shape's test with a bounding-box check first (most points of a market are in few zones). */
const shapeTest = (zone: Shape): ((p: Coordinates) => boolean) => {
  if (zone.kind === "circle") {
    const centre = { latitude: zone.latitude, longitude: zone.longitude }
    const box = circleBox(zone)
    return (p) =>
      p.latitude >= box.south && p.latitude <= box.north && p.longitude >= box.west && p.longitude <= box.east &&
      greatCircleKm(p, centre) <= zone.radiusKm
  }
  if (zone.kind === "bbox") return (p) => contains(zone, p)
  return polygonTest(zone)
}

/** Cells per side of a polygon's grid: most points fall in a cell wholly inside or outside. */
export const ZONE_GRID = 64
const OUTSIDE = 0, INSIDE = 1, EDGE = 2

/**
 * A polygon's test through a grid over its bounding box: a cell that no edge crosses is wholly
 * inside or outside (its centre says which); only points in cells an edge crosses (or touches,
 * one cell around) are ray-cast. Exact: the grid only skips work.
 */
const polygonTest = (zone: Extract<Shape, { kind: "polygon" }>): ((p: Coordinates) => boolean) => {
  const { south, north, west, east } = boxOf(zone)
  const cellLat = (north - south) / ZONE_GRID || 1e-9, cellLon = (east - west) / ZONE_GRID || 1e-9
  const cells = new Uint8Array(ZONE_GRID * ZONE_GRID)
  const mark = (x: number, y: number) => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const cx = x + dx, cy = y + dy
        if (cx >= 0 && cx < ZONE_GRID && cy >= 0 && cy < ZONE_GRID) cells[cy * ZONE_GRID + cx] = EDGE
      }
    }
  }
  const ring = zone.ring
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x0, y0] = ring[j] ?? [0, 0], [x1, y1] = ring[i] ?? [0, 0]
    // Steps of a quarter cell along the edge; the one-cell margin catches a corner clipped between steps.
    const steps = Math.max(1, Math.ceil(4 * Math.max(Math.abs(x1 - x0) / cellLon, Math.abs(y1 - y0) / cellLat)))
    for (let k = 0; k <= steps; k++) {
      const x = x0 + ((x1 - x0) * k) / steps, y = y0 + ((y1 - y0) * k) / steps
      mark(Math.min(ZONE_GRID - 1, Math.floor((x - west) / cellLon)), Math.min(ZONE_GRID - 1, Math.floor((y - south) / cellLat)))
    }
  }
  // The other cells by their centre, a row at a time: the row's crossings with the ring once
  // (`edgeCrossing`, the test `contains` makes edge by edge), then each centre by how many lie
  // east of it, so each cell gets exactly `contains`'s answer in one pass over the ring per row
  // instead of one per cell (the grids of the shipped zones took ~50 ms of every start that
  // loads the markets).
  const crossings: Array<number> = []
  for (let cy = 0; cy < ZONE_GRID; cy++) {
    const latitude = south + (cy + 0.5) * cellLat
    crossings.length = 0
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const x = edgeCrossing(ring[i] ?? [0, 0], ring[j] ?? [0, 0], latitude)
      if (!Number.isNaN(x)) crossings.push(x)
    }
    for (let cx = 0; cx < ZONE_GRID; cx++) {
      const at = cy * ZONE_GRID + cx
      if (cells[at] === EDGE) continue
      const longitude = west + (cx + 0.5) * cellLon
      let east = 0
      for (const x of crossings) if (longitude < x) east++
      cells[at] = east % 2 === 1 ? INSIDE : OUTSIDE
    }
  }
  return (p) => {
    if (p.latitude < south || p.latitude > north || p.longitude < west || p.longitude > east) return false
    const cx = Math.min(ZONE_GRID - 1, Math.floor((p.longitude - west) / cellLon))
    const cy = Math.min(ZONE_GRID - 1, Math.floor((p.latitude - south) / cellLat))
    const state = cells[cy * ZONE_GRID + cx]
    return state === EDGE ? contains(zone, p) : state === INSIDE
  }
}

/**
 * Boxes holding every point the locator puts in the named zone (a union: its members' boxes):
 * where a market that also serves the zone can be found (MarketsLive's index by cell).
 */
export const zoneBoxes = (zones: Readonly<Record<string, Zone>>, name: string): ReadonlyArray<Box> => {
  const zone = zones[name]
  if (zone === undefined) return []
  // Unions do not nest (the file is refused otherwise): their members are shapes.
  if (zone.kind === "union") return zone.of.flatMap((member) => zoneBoxes(zones, member))
  return [zone.kind === "circle" ? circleBox(zone) : boxOf(zone)]
}

/** The locator of a tariff file's zones (unions hold a point any of their members holds). */
export const zoneLocator = (zones: Readonly<Record<string, Zone>>): ZoneLocator => {
  const shapes: Array<[string, (p: Coordinates) => boolean]> = []
  const unions: Array<[string, ReadonlyArray<string>]> = []
  for (const [name, zone] of Object.entries(zones)) {
    if (zone.kind === "union") unions.push([name, zone.of])
    else shapes.push([name, shapeTest(zone)])
  }
  const none: ReadonlySet<string> = new Set()
  return (p) => {
    let found: Set<string> | undefined
    for (const [name, test] of shapes) {
      if (test(p)) (found ??= new Set()).add(name)
    }
    if (found === undefined) return none
    for (const [name, members] of unions) {
      if (members.some((m) => found?.has(m) === true)) found.add(name)
    }
    return found
  }
}
