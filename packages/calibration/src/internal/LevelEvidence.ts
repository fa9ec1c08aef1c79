/**
 * How far prices have moved since a ride-hail market's records: the level factor of a tariff
 * version, measured on newer trip records that are too few to fit a market on.
 *
 * For each newer trip (distance, duration, pickup and drop-off zones), the fitted model's
 * median price for that trip in the records' era, read back to the era's fare through the
 * era's published fees (`fareOf`), is compared with the fare the newer trip paid (before fees,
 * tolls included, as the records' fare was). The factor is the median of the per-trip ratios;
 * its range the 5th–95th percentile of that median over bootstrap resamples of the trips, so a
 * small sample widens the range instead of hiding. The shipped NYC factors are this function's
 * output on the 2025 TLC samples in fares/ (a test recomputes them from the files).
 */
import type { Coordinates } from "@ridequote/core"
import { chargesFor, priceQuantile, versionAt, wallClock } from "@ridequote/markets/model"
import type { MarketModel, ProviderTariff, ZoneLocator } from "@ridequote/markets/model"
import { amountAt, column, headerIndex, numberAt, parseCsvLine, textAt } from "./sources/Csv.js"
import type { ZoneCentroids } from "./sources/NycTlc.js"
import { KM_PER_MILE } from "./sources/ObservedTrip.js"
import { HVFHS_LICENSES } from "./sources/RideHailQuotes.js"

/** A newer trip: what it paid before fees (tolls included), its route and its ends. */
export interface LevelTrip {
  readonly fare: number
  readonly distanceKm: number
  readonly durationMinutes: number
  readonly pickup: Coordinates
  readonly destination: Coordinates
}

/** The factor and its bootstrap range, with how many trips it rests on. */
export interface LevelEstimate {
  readonly trips: number
  readonly factor: number
  readonly low: number
  readonly high: number
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = Float64Array.from(xs).sort()
  const n = s.length
  return n === 0 ? Number.NaN : n % 2 === 1 ? (s[(n - 1) / 2] ?? Number.NaN) : ((s[n / 2 - 1] ?? 0) + (s[n / 2] ?? 0)) / 2
}

/** A deterministic generator (the bootstrap must give the same range on every machine). */
const lcg = (seed: number) => {
  let state = seed >>> 0
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296)
}

/**
 * The level of `trips` against `model`'s provider `providerIndex`, its era's fare read through
 * `tariff`'s version in force on `eraDate`. Trips whose era fare is not positive are skipped.
 * `resamples` bootstrap draws (seeded: the same answer every run).
 */
export const estimateLevel = (
  model: MarketModel,
  providerIndex: number,
  tariff: ProviderTariff,
  locate: ZoneLocator,
  eraDate: string,
  trips: ReadonlyArray<LevelTrip>,
  resamples = 2000
): LevelEstimate => {
  const regime = model.regimes[model.regimes.length - 1]
  const era = versionAt(tariff, eraDate)
  const ratios: Array<number> = []
  if (regime !== undefined) {
    // The newer trips have no time of day: a weekday noon, the hour of no surcharge.
    const noon = wallClock(12, 0, 3)
    for (const t of trips) {
      const price = priceQuantile(model, regime, providerIndex, "supplied", t.distanceKm, t.durationMinutes, noon)(0.5)
      const places = { pickup: locate(t.pickup), dropoff: locate(t.destination) }
      const charges = chargesFor(era, "meter", { localDate: eraDate, dayOfWeek: 3, minuteOfDay: 720 }, places, new Set(), 2)
      const eraFare = charges.fareOf(price)
      if (eraFare > 0 && t.fare > 0) ratios.push(t.fare / eraFare)
    }
  }
  const next = lcg(20251)
  const medians: Array<number> = []
  for (let b = 0; b < resamples && ratios.length > 0; b++) {
    medians.push(median(ratios.map(() => ratios[Math.floor(next() * ratios.length)] ?? 1)))
  }
  medians.sort((a, b) => a - b)
  const round = (x: number) => Math.round(x * 1000) / 1000
  return {
    trips: ratios.length,
    factor: round(median(ratios)),
    low: round(medians[Math.floor(0.05 * (medians.length - 1))] ?? Number.NaN),
    high: round(medians[Math.ceil(0.95 * (medians.length - 1))] ?? Number.NaN)
  }
}

/**
 * Newer TLC HVFHV trip rows (the TLC's columns: `hvfhs_license_num`, `PULocationID`,
 * `DOLocationID`, `trip_miles`, `trip_time` in seconds, `base_passenger_fare`, `tolls`) as level
 * trips per provider id (HV0003 uber, HV0005 lyft, …); rows without a zone centroid, a
 * positive distance, time and fare are left out, and a row repeated across files counts once.
 */
export const hvfhvLevelTrips = (
  texts: ReadonlyArray<string>,
  zones: ZoneCentroids
): ReadonlyMap<string, ReadonlyArray<LevelTrip>> => {
  const out = new Map<string, Array<LevelTrip>>()
  const seen = new Set<string>()
  for (const text of texts) {
    const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((l) => l.trim() !== "")
    const idx = headerIndex(parseCsvLine(lines[0] ?? ""))
    const c = {
      license: column(idx, "hvfhs_license_num"),
      pu: column(idx, "PULocationID"),
      dropoff: column(idx, "DOLocationID"),
      miles: column(idx, "trip_miles"),
      seconds: column(idx, "trip_time"),
      fare: column(idx, "base_passenger_fare"),
      tolls: column(idx, "tolls")
    }
    for (const line of lines.slice(1)) {
      if (seen.has(line)) continue
      seen.add(line)
      const f = parseCsvLine(line)
      const provider = HVFHS_LICENSES[textAt(f, c.license)]
      const pickup = zones.get(numberAt(f, c.pu)), destination = zones.get(numberAt(f, c.dropoff))
      const distanceKm = numberAt(f, c.miles) * KM_PER_MILE, durationMinutes = numberAt(f, c.seconds) / 60
      const fare = numberAt(f, c.fare) + (c.tolls >= 0 ? amountAt(f, c.tolls) : 0)
      if (provider === undefined || pickup === undefined || destination === undefined) continue
      if (!(distanceKm > 0 && durationMinutes > 0 && fare > 0)) continue
      const list = out.get(provider) ?? []
      list.push({ fare, distanceKm, durationMinutes, pickup, destination })
      out.set(provider, list)
    }
  }
  return out
}
