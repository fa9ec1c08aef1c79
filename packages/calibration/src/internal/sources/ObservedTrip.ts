/**
 * One observed trip, normalised from any source format: what was paid (everything but tips),
 * for what route, at what local time, with which provider.
 */
import type { Coordinates } from "@ridequote/core"

/** A trip record in the one shape fitting and evaluation read, whatever its source format. */
export interface ObservedTrip {
  /** Hash of the raw record; decides the train/held-out split. */
  readonly key: number
  /** Provider as named in the source (vendor id, company name); the fit maps it to an id. */
  readonly provider: string
  /** Everything the rider paid but the tip. */
  readonly price: number
  /**
   * The fixed per-trip fees and surcharges inside `price`, by the source's column name
   * (taxes, surcharges; 0 where the column is blank): the fee part of a tariff regime.
   */
  readonly fees: Readonly<Record<string, number>>
  readonly distanceKm: number
  readonly durationMinutes: number
  /** Local wall-clock start: date `YYYY-MM-DD`, hour, minute, day of week 0 = Sunday. */
  readonly localDate: string
  readonly hour: number
  readonly minute: number
  readonly dayOfWeek: number
  readonly pickup: Coordinates
  readonly destination: Coordinates
  /** Tolls inside `price`, where the source records them apart (NYC TLC `tolls_amount`). */
  readonly tolls?: number
}

/** Why a row was left out; counted per reason and written into the model's provenance. */
export type Rejection = string

export const KM_PER_MILE = 1.609344

/** Shared sanity bounds for metered trips (documented in docs, "Filters"). */
export const TRIP_BOUNDS = {
  minDurationMinutes: 0.5,
  maxDurationMinutes: 180,
  maxDistanceKm: 160,
  minSpeedKmh: 1,
  maxSpeedKmh: 100,
  maxPrice: 500
} as const

/** The checks every source applies once it has distance, duration and price. */
export const checkTrip = (distanceKm: number, durationMinutes: number, price: number): Rejection | undefined => {
  if (!(distanceKm > 0)) return "zero-or-missing-distance"
  if (!(durationMinutes > 0)) return "zero-or-negative-duration"
  if (durationMinutes < TRIP_BOUNDS.minDurationMinutes || durationMinutes > TRIP_BOUNDS.maxDurationMinutes) {
    return "duration-out-of-range"
  }
  if (distanceKm > TRIP_BOUNDS.maxDistanceKm) return "distance-out-of-range"
  const speed = distanceKm / (durationMinutes / 60)
  if (speed < TRIP_BOUNDS.minSpeedKmh || speed > TRIP_BOUNDS.maxSpeedKmh) return "implausible-speed"
  if (!(price > 0) || price > TRIP_BOUNDS.maxPrice) return "price-out-of-range"
  return undefined
}

/** Day of week (0 = Sunday) of a calendar date, by the proleptic Gregorian calendar. */
export const dayOfWeekOf = (year: number, month: number, day: number): number => {
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  return d.getUTCDay()
}

const pad = (n: number) => String(n).padStart(2, "0")
export const isoDate = (year: number, month: number, day: number): string =>
  `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`
