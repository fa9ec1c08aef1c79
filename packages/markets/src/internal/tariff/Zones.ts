/**
 * The named zones of a tariff file as membership tests: which zones a point is in.
 *
 * A trip's ends are placed once per quote (`zonesOf`), and every condition of the tariff reads
 * the resulting sets, so a tariff with many surcharges costs one scan of its zones per end.
 */
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { contains } from "../Area.js"
import type { Zone } from "./TariffFile.js"

/** A function from a point to the names of the zones that contain it. */
export type ZoneLocator = (p: Coordinates) => ReadonlySet<string>

const inShape = (zone: Exclude<Zone, { kind: "union" }>, p: Coordinates): boolean =>
  zone.kind === "circle"
    ? greatCircleKm(p, { latitude: zone.latitude, longitude: zone.longitude }) <= zone.radiusKm
    : contains(zone, p)

/** The locator of a tariff file's zones (unions hold a point any of their members holds). */
export const zoneLocator = (zones: Readonly<Record<string, Zone>>): ZoneLocator => {
  const shapes: Array<[string, Exclude<Zone, { kind: "union" }>]> = []
  const unions: Array<[string, ReadonlyArray<string>]> = []
  for (const [name, zone] of Object.entries(zones)) {
    if (zone.kind === "union") unions.push([name, zone.of])
    else shapes.push([name, zone])
  }
  const none: ReadonlySet<string> = new Set()
  return (p) => {
    let found: Set<string> | undefined
    for (const [name, shape] of shapes) {
      if (inShape(shape, p)) (found ??= new Set()).add(name)
    }
    if (found === undefined) return none
    for (const [name, members] of unions) {
      if (members.some((m) => found?.has(m) === true)) found.add(name)
    }
    return found
  }
}
