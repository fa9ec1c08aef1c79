/**
 * How much of a trip runs below a meter's crossover speed, from its average speed.
 *
 * A "distance or time" meter (NYC, Tokyo, London) charges time only while the taxi is slower
 * than its crossover speed; a route gives a trip's distance and duration, not how they were
 * spent. The records say it: NYC yellow-taxi trips of 2019 (113,828 metered trips of
 * `nyc-yellow-2019-monthly-10k-samples-zones`, the 2012 meter: $0.50 per 1/5 mile or per
 * 60 s below 12 mph) give each trip's slow minutes exactly from its fare, distance and
 * duration (units = (fare − 2.50) ÷ 0.50 = fast km ÷ 0.3219 + slow minutes, with half the
 * crossover speed as the pace of slow time, as `meterReading` assumes). The share of a trip's
 * time below the crossover falls with its average speed ÷ the crossover speed; the table
 * holds the 10th, 50th and 90th percentile of that share per speed ratio. A trip at 12 mph
 * on average spends 62 % of its time below 12 mph (p10 30 %, p90 83 %). Each level is made
 * non-increasing in speed (pool-adjacent-violators over the knots): a faster trip cannot spend
 * a larger share of its time below the crossover than a slower one, and where the raw 10th
 * percentile rises with speed (−0.17 at 2.05, +0.09 at 2.45) it is the records' distance noise;
 * unfitted, it priced Frankfurt's 13 km in 20 min above the same trip in 15 or 25 min at p5.
 * Regenerate with `node tools/markets/research/slow-time-shares.mjs` (docs/pricing.md, "Slow time").
 */

/** Average speed ÷ crossover speed at each knot. */
const RATIO = [0.05, 0.35, 0.55, 0.65, 0.75, 0.85, 0.95, 1.05, 1.25, 1.45, 1.65, 1.85, 2.05, 2.45, 2.85, 3.2]
/** Share of time below the crossover at each knot: 10th, 50th and 90th percentile of the 2019 trips, non-increasing. */
const SHARE = {
  p10: [0.94, 0.94, 0.9, 0.74, 0.63, 0.53, 0.42, 0.3, 0.18, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.0],
  p50: [1.0, 1.0, 1.0, 0.96, 0.86, 0.77, 0.7, 0.62, 0.54, 0.47, 0.43, 0.4, 0.36, 0.28, 0.21, 0.13],
  p90: [1.0, 1.0, 1.0, 1.0, 1.0, 0.94, 0.88, 0.83, 0.77, 0.71, 0.65, 0.59, 0.52, 0.42, 0.34, 0.24]
} as const

const interpolate = (xs: ReadonlyArray<number>, ys: ReadonlyArray<number>, x: number): number => {
  if (x <= (xs[0] ?? 0)) return ys[0] ?? 0
  for (let i = 1; i < xs.length; i++) {
    const x1 = xs[i] ?? 0
    if (x <= x1) {
      const x0 = xs[i - 1] ?? 0, y0 = ys[i - 1] ?? 0, y1 = ys[i] ?? 0
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0)
    }
  }
  return ys[ys.length - 1] ?? 0
}

/**
 * Minutes of a trip below the crossover speed: the records' median share at the trip's
 * speed ratio (`level` "p10" or "p90" for the trips that ran freer or slower than most).
 */
export const slowMinutesOf = (
  distanceKm: number,
  durationMinutes: number,
  crossoverKmh: number,
  level: keyof typeof SHARE = "p50"
): number => {
  if (!(durationMinutes > 0)) return 0
  const ratio = distanceKm / (durationMinutes / 60) / crossoverKmh
  return durationMinutes * Math.min(1, Math.max(0, interpolate(RATIO, SHARE[level], ratio)))
}
