/**
 * How real fares scatter around a published rule applied to a resolved route: the calibration
 * of markets defined by a tariff alone (tariff/RouteCalibration.ts holds its result).
 *
 * For every trip record of a city whose rule is known (NYC yellow taxi 2016, the TLC meter of
 * 2012; Chicago taxi 2013–2016, the meter of 2012), the route a tariff market would resolve
 * from the trip's two points (the offline estimator on the generic route profile, as
 * `TariffMarket` does) is priced under that city's rule with the median slow time, unrounded:
 *
 *   ratio = real metered fare ÷ rule(resolved distance, resolved duration)
 *
 * The ratio holds everything a tariff market cannot know of a trip from its two points: the
 * real road's length, the real time, how the time was spent (slow time, waiting) and the
 * meter's units. Its quantiles per band of resolved distance are the table; both cities are
 * pooled with equal weight so that neither city's roads and speeds stand for "any city".
 * `ridequote market calibrate-routes` recomputes it from the records in packages/calibration/fares.
 */
import { estimateRoute } from "@ridequote/routes"
import {
  CALIBRATION_BANDS_KM,
  CALIBRATION_LEVELS,
  meterAmount,
  meterReading,
  slowMinutesOf,
  TARIFF_ROUTE_PROFILE
} from "@ridequote/markets/model"
import type { Meter } from "@ridequote/markets/model"
import type { ObservedTrip } from "./sources/ObservedTrip.js"

/**
 * The NYC taxicab meter of 2012-09-04 (TLC rate of fare: $2.50, $0.50 per 1/5 mile above
 * 12 mph or per 60 s below; as models/nyc-tariff.json's first version).
 */
export const NYC_2012_METER: Meter = {
  initial: 2.5,
  initialKm: 0,
  distance: [{ fromKm: 0, unitKm: 0.321869, price: 0.5 }],
  time: { runs: "below-speed", unitSeconds: 60, price: 0.5, crossoverKmh: 19.3121 },
  units: "completed"
}

/**
 * The Chicago taxi meter over the records (2013–2016): $3.25 flag pull, $0.20 per 1/9 mile
 * ($1.80 a mile) or per 36 s, time below the speed at which the two are equal (1/9 mile per
 * 36 s, 17.88 km/h). Read from the records themselves, which no other reading fits: the real
 * fare ÷ this rule on the recorded distance and duration has median 1.022 (p25 0.999, p75
 * 1.056, 9,945 trips); charging time always gives 0.819, never 1.162.
 */
export const CHICAGO_2012_METER: Meter = {
  initial: 3.25,
  initialKm: 0,
  distance: [{ fromKm: 0, unitKm: 1.609344 / 9, price: 0.2 }],
  time: { runs: "below-speed", unitSeconds: 36, price: 0.2, crossoverKmh: 17.8816 },
  units: "completed"
}

/** One trip of the calibration: the resolved distance and the ratio real ÷ rule(resolved). */
export interface RouteSample {
  readonly resolvedKm: number
  readonly ratio: number
}

/** The rule's unrounded fare for a route, with its median slow time (what TariffMarket multiplies). */
export const ruleFare = (meter: Meter, distanceKm: number, durationMinutes: number): number => {
  const slow = meter.time.runs === "below-speed"
    ? slowMinutesOf(distanceKm, durationMinutes, meter.time.crossoverKmh ?? 1, "p50")
    : 0
  return meterAmount(meter, meterReading(meter, distanceKm, durationMinutes, slow), true)
}

/** The weekday peak and night surcharges of the 2012 TLC rule, inside NYC's `price` (not a fee column). */
const nycTimeSurcharge = (t: ObservedTrip): number =>
  (t.hour >= 20 || t.hour < 6 ? 0.5 : 0) + (t.dayOfWeek >= 1 && t.dayOfWeek <= 5 && t.hour >= 16 && t.hour < 20 ? 1 : 0)

/** The metered part of a record: NYC's price less its fees, tolls and time surcharges; Chicago's fare as it is. */
export const meteredPart = (city: "nyc" | "chicago", t: ObservedTrip): number =>
  city === "chicago"
    ? t.price
    : t.price - Object.values(t.fees).reduce((a, b) => a + b, 0) - (t.tolls ?? 0) - nycTimeSurcharge(t)

/** The samples of one city's records under its meter (trips whose resolved route is at least 0.3 km). */
export const routeSamples = (city: "nyc" | "chicago", trips: ReadonlyArray<ObservedTrip>, meter: Meter): ReadonlyArray<RouteSample> => {
  const out: Array<RouteSample> = []
  for (const t of trips) {
    const route = estimateRoute(t.pickup, t.destination, t.hour, TARIFF_ROUTE_PROFILE)
    if (route._tag === "Left" || route.right.distanceKm < 0.3) continue
    const real = meteredPart(city, t)
    const rule = ruleFare(meter, route.right.distanceKm, route.right.durationMinutes)
    if (!(real >= meter.initial) || !(rule > 0)) continue
    out.push({ resolvedKm: route.right.distanceKm, ratio: real / rule })
  }
  return out
}

/** The `q`-quantile of sorted values (linear between order statistics). */
const quantileOf = (sorted: ReadonlyArray<number>, q: number): number => {
  const pos = q * (sorted.length - 1)
  const lo = Math.floor(pos), hi = Math.ceil(pos)
  const a = sorted[lo] ?? Number.NaN, b = sorted[hi] ?? a
  return a + (pos - lo) * (b - a)
}

/** One band of the table: its upper resolved distance, the trips per city and the ratio quantiles. */
export interface CalibrationBand {
  readonly upToKm: number | null
  readonly trips: Readonly<Record<string, number>>
  readonly ratios: ReadonlyArray<number>
}

/**
 * The ratio's quantiles per band of resolved distance, the cities pooled with equal weight
 * (each city's trips weighted by 1 ÷ its count in the band: a weighted empirical quantile).
 */
export const calibrationTable = (byCity: Readonly<Record<string, ReadonlyArray<RouteSample>>>): ReadonlyArray<CalibrationBand> => {
  const bounds = [...CALIBRATION_BANDS_KM, Number.POSITIVE_INFINITY]
  return bounds.map((upTo, i) => {
    const from = i === 0 ? 0 : (bounds[i - 1] ?? 0)
    const cities = Object.entries(byCity).map(([city, samples]) => [city, samples.filter((s) => s.resolvedKm >= from && s.resolvedKm < upTo)] as const)
    const used = cities.filter(([, s]) => s.length > 0)
    const weighted = used.flatMap(([, s]) => s.map((x) => [x.ratio, 1 / (s.length * used.length)] as const)).sort((a, b) => a[0] - b[0])
    const ratios = CALIBRATION_LEVELS.map((q) => {
      let cumulative = 0
      for (const [ratio, w] of weighted) {
        cumulative += w
        if (cumulative >= q) return Math.round(ratio * 1000) / 1000
      }
      return Math.round((weighted[weighted.length - 1]?.[0] ?? 1) * 1000) / 1000
    })
    return { upToKm: Number.isFinite(upTo) ? upTo : null, trips: Object.fromEntries(cities.map(([c, s]) => [c, s.length])), ratios }
  })
}

/** Per city alone (for the report): the ratio's median and 5th–95th percentiles per band. */
export const cityQuantiles = (samples: ReadonlyArray<RouteSample>, from: number, upTo: number): ReadonlyArray<number> => {
  const sorted = samples.filter((s) => s.resolvedKm >= from && s.resolvedKm < upTo).map((s) => s.ratio).sort((a, b) => a - b)
  return [0.05, 0.5, 0.95].map((q) => Math.round(quantileOf(sorted, q) * 1000) / 1000)
}

/** The table as the TypeScript literal RouteCalibration.ts holds. */
export const renderCalibration = (bands: ReadonlyArray<CalibrationBand>): string =>
  [
    "export const RESOLVED_ROUTE_RATIOS: ReadonlyArray<RatioBand> = [",
    ...bands.map((b) =>
      `  { upToKm: ${b.upToKm === null ? "Number.POSITIVE_INFINITY" : b.upToKm}, trips: { ${Object.entries(b.trips).map(([k, v]) => `${k}: ${v}`).join(", ")} }, ratios: [${b.ratios.join(", ")}] },`
    ),
    "]"
  ].join("\n")
