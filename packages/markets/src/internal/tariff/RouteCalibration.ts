/**
 * How real fares scatter around a rule applied to a resolved route: the spread of a market
 * defined by its tariff alone when the quote's route was resolved, not supplied.
 *
 * Measured on trip records of two cities whose rule is known (@ridequote/calibration, TariffCalibration.ts;
 * regenerate with `ridequote market calibrate-routes`, docs/calibration.md "Markets from a
 * tariff alone"): per band of resolved distance, the quantiles of
 *
 *   real metered fare ÷ rule(resolved distance, resolved duration, median slow time)
 *
 * with both cities weighted equally. A ratio below 1 at low levels is a real road shorter or
 * a trip faster than the estimate; above 1 at high levels a longer road, traffic, waiting.
 */

/** The quantile levels of the table. */
export const CALIBRATION_LEVELS: ReadonlyArray<number> = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99]
/** Upper bounds (km of resolved distance) of the bands; the last band is open. */
export const CALIBRATION_BANDS_KM: ReadonlyArray<number> = [2, 5, 10, 20]

/** One band of resolved distance: the trips per city it was measured on and the ratio at each level. */
export interface RatioBand {
  readonly upToKm: number
  readonly trips: Readonly<Record<string, number>>
  readonly ratios: ReadonlyArray<number>
}

/**
 * Measured by `ridequote market calibrate-routes --nyc fares/nyc-yellow-2016-0{1,2,3}-head-sample-coords.csv.gz
 * --chicago fares/chicago-taxi-2013-2016-tfx-sample-15k.csv.gz` (5,695 NYC trips of 2016 with
 * GPS points under the TLC meter of 2012; 9,239 Chicago trips of 2013–2016 between census-tract
 * centroids under its meter of 2012), on the tariff cities' route profile (TARIFF_ROUTE_PROFILE:
 * speeds rising with the trip's length, since 2026-12-06). Each city alone, p5 / p50 / p95:
 *   0–2 km:   NYC 0.750 / 0.995 / 1.508   Chicago 0.799 / 1.035 / 1.422
 *   2–5 km:   NYC 0.764 / 1.020 / 1.478   Chicago 0.736 / 0.969 / 1.339
 *   5–10 km:  NYC 0.791 / 1.025 / 1.435   Chicago 0.710 / 0.957 / 1.313
 *   10–20 km: NYC 0.835 / 1.079 / 1.472   Chicago 0.741 / 0.930 / 1.224
 *   20+ km:   NYC 0.897 / 1.086 / 1.555   Chicago 0.797 / 0.867 / 1.115
 * (Before the distance factors, on one speed an hour at any length: 20+ km NYC 0.986, Chicago
 * 0.758 at the median — the rule on an overlong duration overstated long trips.)
 */
export const RESOLVED_ROUTE_RATIOS: ReadonlyArray<RatioBand> = [
  { upToKm: 2, trips: { nyc: 1813, chicago: 2162 }, ratios: [0.69, 0.767, 0.814, 0.9, 1.015, 1.154, 1.322, 1.473, 2.173] },
  { upToKm: 5, trips: { nyc: 2421, chicago: 3382 }, ratios: [0.653, 0.749, 0.799, 0.885, 0.992, 1.117, 1.284, 1.421, 1.781] },
  { upToKm: 10, trips: { nyc: 967, chicago: 1789 }, ratios: [0.61, 0.754, 0.804, 0.88, 0.989, 1.117, 1.275, 1.388, 1.684] },
  { upToKm: 20, trips: { nyc: 435, chicago: 845 }, ratios: [0.675, 0.777, 0.818, 0.89, 0.984, 1.126, 1.291, 1.41, 1.643] },
  { upToKm: Number.POSITIVE_INFINITY, trips: { nyc: 59, chicago: 1061 }, ratios: [0.771, 0.81, 0.826, 0.867, 0.977, 1.114, 1.28, 1.419, 1.641] }
]

/** The ratio real ÷ rule(resolved route) at level `q` for a resolved distance: its band's quantiles, linear between levels. */
export const routeRatio = (distanceKm: number, q: number): number => {
  const band = RESOLVED_ROUTE_RATIOS.find((b) => distanceKm < b.upToKm) ?? RESOLVED_ROUTE_RATIOS[RESOLVED_ROUTE_RATIOS.length - 1]
  const ratios = band?.ratios ?? []
  const levels = CALIBRATION_LEVELS
  if (!(q > (levels[0] ?? 0))) return ratios[0] ?? 1
  for (let i = 1; i < levels.length; i++) {
    const hi = levels[i] ?? 1
    if (q <= hi) {
      const lo = levels[i - 1] ?? 0, r0 = ratios[i - 1] ?? 1, r1 = ratios[i] ?? r0
      return r0 + ((q - lo) / (hi - lo)) * (r1 - r0)
    }
  }
  return ratios[ratios.length - 1] ?? 1
}
