/**
 * Learning a market's roads from its trip records (method in docs/pricing.md, "Route
 * resolution"). Ratio-of-sums estimators, so inferred totals match observed totals, each
 * shrunk toward its parent by w = n / (n + k) where data is thin.
 *
 * - Route profile: detour factor = Σ trip km ÷ Σ great-circle km; speed by local hour = Σ km ÷
 *   Σ hours of movement (duration less the pickup/drop-off overhead).
 * - Area speed: per ~2 km cell of a trip's midpoint, Σ estimated hours ÷ Σ real hours with the
 *   hour's speed, i.e. how much faster or slower than the market that area moves.
 * - Origin–destination cells (~1 km): per pair with enough trips, the median road distance and
 *   the median ratio of real to estimated minutes.
 */
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates, RouteProfile } from "@ridequote/core"
import { PICKUP_DROPOFF_MINUTES, profileSpeedKmh } from "./Estimator.js"
import type { AreaSpeed, Grid, OdCells, RouteKnowledge } from "./Knowledge.js"
import { cellKey } from "./Knowledge.js"

/** What route learning needs of a trip record. */
export interface RouteSample {
  readonly pickup: Coordinates
  readonly destination: Coordinates
  readonly distanceKm: number
  readonly durationMinutes: number
  /** Local hour 0..23 of the start. */
  readonly hour: number
}

/** Below this great-circle distance a coordinate pair says nothing about the route (same zone). */
export const MIN_RESOLVABLE_KM = 0.2

/** When neither the records nor a profile say otherwise (circuity studies: 1.2–1.4). */
export const FALLBACK_DETOUR_FACTOR = 1.35

const SHRINK = { speedHour: 50, area: 100 } as const
const KM_PER_DEGREE = 111.32
/** ~2 km cells for area speeds, ~1 km for origin–destination pairs, at the market's latitude. */
const gridAt = (latitude: number, km: number): Grid => ({
  cellLatitude: round(km / KM_PER_DEGREE, 5),
  cellLongitude: round(km / (KM_PER_DEGREE * Math.max(0.1, Math.cos((latitude * Math.PI) / 180))), 5)
})
const MIN_AREA_TRIPS = 30
const MIN_PAIR_TRIPS = 8

const movingHours = (s: RouteSample) => Math.max(0.1, s.durationMinutes - PICKUP_DROPOFF_MINUTES) / 60

/**
 * A market's route profile from its trips: the detour factor (road km ÷ great-circle km) and
 * the moving speed by local hour, thin hours shrunk toward the overall speed. Trips under
 * `MIN_RESOLVABLE_KM` are ignored.
 */
export const learnRouteProfile = (samples: ReadonlyArray<RouteSample>): RouteProfile => {
  let km = 0, gc = 0
  const hourKm = new Array<number>(24).fill(0)
  const hourH = new Array<number>(24).fill(0)
  const hourN = new Array<number>(24).fill(0)
  for (const s of samples) {
    const g = greatCircleKm(s.pickup, s.destination)
    if (g < MIN_RESOLVABLE_KM) continue
    km += s.distanceKm
    gc += g
    hourKm[s.hour] = (hourKm[s.hour] ?? 0) + s.distanceKm
    hourH[s.hour] = (hourH[s.hour] ?? 0) + movingHours(s)
    hourN[s.hour] = (hourN[s.hour] ?? 0) + 1
  }
  const totalH = hourH.reduce((a, b) => a + b, 0)
  const overall = totalH > 0 ? km / totalH : 20
  const speedKmhByHour = hourKm.map((k, h) => {
    const n = hourN[h] ?? 0
    const own = (hourH[h] ?? 0) > 0 ? k / (hourH[h] ?? 1) : overall
    const w = n / (n + SHRINK.speedHour)
    return round(w * own + (1 - w) * overall, 3)
  })
  // A road is never shorter than the great circle.
  return { detourFactor: round(Math.max(1, gc > 0 ? km / gc : FALLBACK_DETOUR_FACTOR), 4), speedKmhByHour }
}

const midpoint = (s: RouteSample): Coordinates => ({
  latitude: (s.pickup.latitude + s.destination.latitude) / 2,
  longitude: (s.pickup.longitude + s.destination.longitude) / 2
})

const medianOf = (xs: Array<number>): number => {
  const s = Float64Array.from(xs).sort()
  const n = s.length
  return n % 2 === 1 ? (s[(n - 1) / 2] ?? 0) : ((s[n / 2 - 1] ?? 0) + (s[n / 2] ?? 0)) / 2
}

/**
 * Speed factors per ~2 km cell (by a trip's midpoint) relative to `profile`'s hourly speed;
 * cells with fewer than 30 trips are left out (factor 1), others shrunk toward 1.
 */
export const learnAreaSpeed = (samples: ReadonlyArray<RouteSample>, profile: RouteProfile): AreaSpeed => {
  const lat = medianOf(samples.map((s) => s.pickup.latitude))
  const grid = gridAt(Number.isFinite(lat) ? lat : 0, 2)
  const sums = new Map<string, { estimated: number; real: number; n: number }>()
  for (const s of samples) {
    if (greatCircleKm(s.pickup, s.destination) < MIN_RESOLVABLE_KM) continue
    const speed = profileSpeedKmh(profile, s.hour, s.distanceKm)
    if (!(speed > 0)) continue
    const key = cellKey(grid, midpoint(s))
    const cell = sums.get(key) ?? { estimated: 0, real: 0, n: 0 }
    cell.estimated += s.distanceKm / speed
    cell.real += movingHours(s)
    cell.n++
    sums.set(key, cell)
  }
  const factors: Record<string, number> = {}
  for (const key of [...sums.keys()].sort()) {
    const c = sums.get(key)
    if (c === undefined || c.n < MIN_AREA_TRIPS || !(c.real > 0)) continue
    const w = c.n / (c.n + SHRINK.area)
    factors[key] = round(w * (c.estimated / c.real) + (1 - w), 3)
  }
  return { ...grid, factors }
}

/**
 * The empirical table on a ~1 km grid: for each origin–destination cell pair with at least 8
 * trips, the median road km and the median ratio of real moving time to `profile`'s estimate.
 */
export const learnOdCells = (samples: ReadonlyArray<RouteSample>, profile: RouteProfile): OdCells => {
  const lat = medianOf(samples.map((s) => s.pickup.latitude))
  const grid = gridAt(Number.isFinite(lat) ? lat : 0, 1)
  const pairs = new Map<string, { km: Array<number>; factor: Array<number> }>()
  for (const s of samples) {
    const speed = profileSpeedKmh(profile, s.hour, s.distanceKm)
    if (!(speed > 0)) continue
    const key = `${cellKey(grid, s.pickup)}>${cellKey(grid, s.destination)}`
    const pair = pairs.get(key) ?? { km: [], factor: [] }
    pair.km.push(s.distanceKm)
    pair.factor.push(movingHours(s) / (s.distanceKm / speed))
    pairs.set(key, pair)
  }
  const out: Array<readonly [string, string, number, number, number]> = []
  for (const key of [...pairs.keys()].sort()) {
    const p = pairs.get(key)
    if (p === undefined || p.km.length < MIN_PAIR_TRIPS) continue
    const [from = "", to = ""] = key.split(">")
    out.push([from, to, p.km.length, round(Math.max(0.01, medianOf(p.km)), 2), round(Math.max(0.05, medianOf(p.factor)), 3)])
  }
  return { ...grid, minTrips: MIN_PAIR_TRIPS, pairs: out }
}

/** Area speeds and origin–destination cells from the same trips, against `profile` (learned from them by default). */
export const learnRouteKnowledge = (
  samples: ReadonlyArray<RouteSample>,
  profile: RouteProfile = learnRouteProfile(samples)
): RouteKnowledge => ({
  areaSpeed: learnAreaSpeed(samples, profile),
  odCells: learnOdCells(samples, profile)
})

function round(x: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}
