/**
 * Month-of-year price index (docs/calibration.md, "Seasons"), learned from the training trips only.
 *
 * Fares for the same route drift with the season inside one tariff: in New York the metered
 * fare for a given distance and duration is lowest in January–March and highest in
 * October–December (less congestion in winter: more of a trip is charged by distance, less by
 * waiting time; the route inferred from the coordinates also over-states a winter trip's
 * duration). A model fitted on the last months before a cut prices the next season as if it
 * were the last one.
 *
 * For each calendar month instance i (e.g. 2018-01) of the training trips:
 *
 *   ℓ_i  = 20 %-trimmed mean of log(metered price ÷ reference fare)   reference: one base fare over all trips
 *   se_i = its standard error (winsorised standard deviation ÷ (0.6 · √n_i))
 *
 * and ℓ_i = α_regime(i) + s_month(i) + noise: α a level per tariff regime (so a tariff change is
 * not taken for a season), s the seasonal effect of the calendar month. s is an empirical-Bayes
 * (James–Stein) estimate: the raw effect D_m (weighted mean of ℓ_i − α over the instances of
 * month m, variance v_m) is shrunk toward 0 by τ² ÷ (τ² + v_m), where τ² = the between-month
 * variance the data show beyond their sampling noise, max(0, mean(D_m² − v_m)). Where monthly
 * levels are noisy (few trips a month) τ² is 0 and the index is flat: no season is invented.
 * Where a calendar month appears more than once (several years), its year-to-year dispersion
 * beyond sampling noise is added to every instance's variance, so one-off months count less.
 *
 * A month the training trips never show has no effect of its own: it is priced like the months
 * its regime was fitted on (see `regimeFactors`).
 */

/** One calendar month instance's price level. */
export interface MonthLevel {
  /** `YYYY-MM`. */
  readonly month: string
  readonly regime: number
  /** Trimmed mean of log(price ÷ reference). */
  readonly level: number
  /** Standard error of `level`. */
  readonly se: number
  readonly trips: number
}

/** Fewest trips a month instance needs to say anything about its season. */
export const MIN_MONTH_TRIPS = 100

const calendarMonth = (month: string): number => Number(month.slice(5, 7)) - 1

/** Share of the log ratios trimmed from each side before averaging. */
const TRIM = 0.2

/**
 * The level of one month instance from its log ratios: their 20 %-trimmed mean (fares move in
 * meter steps, so a median sticks to a step), with its standard error, the winsorised standard
 * deviation ÷ ((1 − 2·0.2)·√n) (Tukey & McLaughlin).
 */
export const monthLevel = (month: string, regime: number, logRatios: ReadonlyArray<number>): MonthLevel | undefined => {
  const n = logRatios.length
  if (n < MIN_MONTH_TRIPS) return undefined
  const sorted = Float64Array.from(logRatios).sort()
  const g = Math.floor(TRIM * n)
  let sum = 0
  for (let i = g; i < n - g; i++) sum += sorted[i] ?? 0
  const level = sum / (n - 2 * g)
  const lo = sorted[g] ?? 0, hi = sorted[n - g - 1] ?? 0
  let wsum = 0, wsq = 0
  for (const x of sorted) {
    const w = Math.min(hi, Math.max(lo, x))
    wsum += w
    wsq += w * w
  }
  const wmean = wsum / n
  const wvar = Math.max(0, (wsq - n * wmean * wmean) / (n - 1))
  const se = Math.sqrt(wvar) / ((1 - 2 * TRIM) * Math.sqrt(n))
  return { month, regime, level, se: Math.max(se, 1e-6), trips: n }
}

/** The fitted month-of-year effects and the two variances that decided how far they were shrunk. */
export interface SeasonalIndex {
  /** s by calendar month 0..11 (log scale); undefined where no training month says anything. */
  readonly effects: ReadonlyArray<number | undefined>
  /** Between-month variance beyond sampling noise (τ²), and the year-to-year one (σ²). */
  readonly tau2: number
  readonly sigma2: number
}

/** Fits α per regime and the shrunk s per calendar month (see the module comment). */
export const seasonalIndex = (levels: ReadonlyArray<MonthLevel>, regimeCount: number): SeasonalIndex => {
  const s = new Array<number>(12).fill(0)
  const seen = new Array<boolean>(12).fill(false)
  for (const l of levels) seen[calendarMonth(l.month)] = true
  const alpha = new Array<number>(regimeCount).fill(0)
  let tau2 = 0, sigma2 = 0
  const weight = (l: MonthLevel) => 1 / (l.se * l.se + sigma2)
  for (let iter = 0; iter < 50; iter++) {
    // Levels per regime given the seasons.
    for (let r = 0; r < regimeCount; r++) {
      let sw = 0, swx = 0
      for (const l of levels) {
        if (l.regime !== r) continue
        const w = weight(l)
        sw += w
        swx += w * (l.level - (s[calendarMonth(l.month)] ?? 0))
      }
      alpha[r] = sw > 0 ? swx / sw : 0
    }
    // Raw month effects, their variance, and the year-to-year dispersion within a month.
    const raw = new Array<number>(12).fill(0)
    const variance = new Array<number>(12).fill(0)
    const sw = new Array<number>(12).fill(0)
    for (const l of levels) {
      const m = calendarMonth(l.month)
      const w = weight(l)
      sw[m] = (sw[m] ?? 0) + w
      raw[m] = (raw[m] ?? 0) + w * (l.level - (alpha[l.regime] ?? 0))
    }
    let excess = 0, excessCount = 0
    for (let m = 0; m < 12; m++) {
      if (!seen[m]) continue
      raw[m] = (raw[m] ?? 0) / (sw[m] ?? 1)
      variance[m] = 1 / (sw[m] ?? 1)
      excess += (raw[m] ?? 0) ** 2 - (variance[m] ?? 0)
      excessCount++
    }
    let dispersion = 0, dispersionCount = 0
    for (let m = 0; m < 12; m++) {
      const inMonth = levels.filter((l) => calendarMonth(l.month) === m)
      if (inMonth.length < 2) continue
      for (const l of inMonth) {
        // Unbiased for the year-to-year variance: (k / (k − 1)) · deviation² − sampling variance.
        const d = l.level - (alpha[l.regime] ?? 0) - (raw[m] ?? 0)
        dispersion += (inMonth.length / (inMonth.length - 1)) * d * d - l.se * l.se
        dispersionCount++
      }
    }
    const nextSigma2 = dispersionCount > 0 ? Math.max(0, dispersion / dispersionCount) : 0
    const nextTau2 = excessCount > 0 ? Math.max(0, excess / excessCount) : 0
    let change = Math.abs(nextSigma2 - sigma2) + Math.abs(nextTau2 - tau2)
    sigma2 = nextSigma2
    tau2 = nextTau2
    for (let m = 0; m < 12; m++) {
      const next = seen[m] && tau2 > 0 ? ((raw[m] ?? 0) * tau2) / (tau2 + (variance[m] ?? 0)) : 0
      change += Math.abs(next - (s[m] ?? 0))
      s[m] = next
    }
    if (change < 1e-10) break
  }
  return { effects: s.map((x, m) => (seen[m] ? x : undefined)), tau2, sigma2 }
}

/**
 * The multipliers a regime's metered base is priced with, by calendar month: exp(s) for a
 * month the training trips show; for one they never show, the trip-weighted mean of s over the
 * months the regime was fitted on (so such a month is priced like those, as without an index).
 */
export const regimeFactors = (
  index: SeasonalIndex,
  windowTripsByMonth: ReadonlyArray<number>
): Array<number> => {
  let n = 0, sum = 0
  for (let m = 0; m < 12; m++) {
    const k = windowTripsByMonth[m] ?? 0
    n += k
    sum += k * (index.effects[m] ?? 0)
  }
  const fill = n > 0 ? sum / n : 0
  return index.effects.map((s) => Math.exp(s ?? fill))
}
