/**
 * The taximeter of a tariff: what it charges for the distance and the time it counts.
 *
 * The meter reads two facts of a trip, not its route: `meterKm`, the distance it charges
 * (for a "below-speed" meter, the distance covered at or above the crossover speed) and
 * `meterSeconds`, the time it charges (below the crossover speed; for an "always" meter the
 * whole trip). Which facts a trip has is the trip model's business (records or the route
 * resolver): the meter only applies the rule.
 */
import type { Meter } from "./TariffFile.js"

/** What the meter counts of one trip. */
export interface MeterReading {
  readonly meterKm: number
  readonly meterSeconds: number
}

// Floating point (and units written to a few decimals): a unit counts as completed within a millionth of one.
const EPS = 1e-6

const countUnits = (exact: number, units: Meter["units"]): number =>
  exact <= EPS ? 0 : units === "started" ? Math.ceil(exact - EPS) : Math.floor(exact + EPS)

/**
 * The meter's charge for the distance alone: each tier's price per unit over the part of
 * [initialKm, meterKm] that lies in the tier. `units` rounding is applied per tier (a unit does
 * not straddle two tiers); `exact: true` gives the unrounded amount (what an average over many
 * trips of this length costs, used where the trip itself is a distribution).
 */
export const distanceCharge = (meter: Meter, meterKm: number, exact = false): number => {
  let total = 0
  const tiers = meter.distance
  for (let i = 0; i < tiers.length; i++) {
    const tier = tiers[i]
    if (tier === undefined) continue
    const start = Math.max(tier.fromKm, meter.initialKm)
    const end = Math.min(meterKm, tiers[i + 1]?.fromKm ?? Number.POSITIVE_INFINITY)
    if (end <= start) continue
    const units = (end - start) / tier.unitKm
    total += tier.price * (exact ? units : countUnits(units, meter.units))
  }
  return total
}

/** The meter's charge for the time it counts (beyond the seconds the initial charge covers), in its time units' own count where the rule words them apart. */
export const timeCharge = (meter: Meter, meterSeconds: number, exact = false): number => {
  if (meter.time.runs === "never") return 0
  const seconds = Math.max(0, meterSeconds - (meter.initialSeconds ?? 0))
  const units = seconds / meter.time.unitSeconds
  return meter.time.price * (exact ? units : countUnits(units, meter.time.units ?? meter.units))
}

/**
 * The distance a shared counter has counted: the distance charged plus the slow time turned
 * into distance at one distance unit (of the first tier) per time unit.
 */
export const sharedCounterKm = (meter: Meter, reading: MeterReading): number =>
  reading.meterKm + (Math.max(0, reading.meterSeconds) / meter.time.unitSeconds) * (meter.distance[0]?.unitKm ?? 0)

/**
 * What the meter shows at the end of a trip: the initial charge, the distance and the time,
 * rounded as the meter's `roundTo` says (not when `exact`: an average over many trips of this
 * length is not a multiple of the step).
 */
export const meterAmount = (meter: Meter, reading: MeterReading, exact = false): number => {
  const amount = meter.time.counter === "shared"
    ? meter.initial + distanceCharge(meter, sharedCounterKm(meter, reading), exact)
    : meter.initial + distanceCharge(meter, reading.meterKm, exact) + timeCharge(meter, reading.meterSeconds, exact)
  return meter.roundTo === undefined || exact ? amount : roundToStep(amount, meter.roundTo.step)
}

/** The nearest multiple of `step`, halves up (within a millionth of a step, for sums of decimal prices). */
const roundToStep = (amount: number, step: number): number => Math.floor(amount / step + 0.5 + EPS) * step

/**
 * What the meter counts of a trip of `distanceKm` in `durationMinutes`, of which
 * `slowMinutes` ran below the crossover speed (ignored by meters whose time runs always or
 * never). Below the crossover the taxi still moves: at most the crossover speed times the
 * slow time is taken off the charged distance, which the rules do not count twice; half the
 * crossover speed is the taken average (stop-and-go spends the slow time between a standstill
 * and the crossover). A `concurrent` counter does count it twice, as its rule says: every metre
 * as distance, and the slow time on top.
 */
export const meterReading = (meter: Meter, distanceKm: number, durationMinutes: number, slowMinutes: number): MeterReading => {
  if (meter.time.runs === "always") return { meterKm: distanceKm, meterSeconds: durationMinutes * 60 }
  if (meter.time.runs === "never") return { meterKm: distanceKm, meterSeconds: 0 }
  const slow = Math.min(Math.max(0, slowMinutes), durationMinutes)
  if (meter.time.counter === "concurrent") return { meterKm: distanceKm, meterSeconds: slow * 60 }
  const slowKm = Math.min(distanceKm, ((meter.time.crossoverKmh ?? 0) / 2) * (slow / 60))
  return { meterKm: distanceKm - slowKm, meterSeconds: slow * 60 }
}
