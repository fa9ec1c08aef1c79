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
 * centroids under its meter of 2012). Each city alone, p5 / p50 / p95 of the ratio:
 *   0–2 km:   NYC 0.782 / 1.032 / 1.569   Chicago 0.822 / 1.063 / 1.461
 *   2–5 km:   NYC 0.776 / 1.039 / 1.504   Chicago 0.741 / 0.982 / 1.353
 *   5–10 km:  NYC 0.762 / 0.991 / 1.380   Chicago 0.681 / 0.929 / 1.282
 *   10–20 km: NYC 0.759 / 0.999 / 1.331   Chicago 0.683 / 0.856 / 1.141
 *   20+ km:   NYC 0.803 / 0.986 / 1.381   Chicago 0.685 / 0.758 / 0.970
 * (Chicago's long trips run on expressways, faster than the generic profile's speeds.)
 */
export const RESOLVED_ROUTE_RATIOS: ReadonlyArray<RatioBand> = [
  { upToKm: 2, trips: { nyc: 1813, chicago: 2162 }, ratios: [0.721, 0.793, 0.845, 0.931, 1.049, 1.191, 1.362, 1.528, 2.244] },
  { upToKm: 5, trips: { nyc: 2421, chicago: 3382 }, ratios: [0.66, 0.758, 0.81, 0.898, 1.007, 1.135, 1.306, 1.449, 1.808] },
  { upToKm: 10, trips: { nyc: 967, chicago: 1789 }, ratios: [0.585, 0.733, 0.778, 0.853, 0.957, 1.083, 1.232, 1.338, 1.652] },
  { upToKm: 20, trips: { nyc: 435, chicago: 845 }, ratios: [0.636, 0.71, 0.75, 0.822, 0.912, 1.035, 1.184, 1.277, 1.484] },
  { upToKm: Number.POSITIVE_INFINITY, trips: { nyc: 59, chicago: 1061 }, ratios: [0.664, 0.697, 0.712, 0.758, 0.869, 0.997, 1.123, 1.267, 1.46] }
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
