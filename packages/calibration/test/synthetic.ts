/**
 * Synthetic trip records with a known price distribution, for tests: price =
 * (3 + 1.2·km + 0.3·min) × exp(σ·Z), Z standard normal, so the true quantile at q is
 * (3 + 1.2·km + 0.3·min) × exp(σ·Φ⁻¹(q)). A seeded generator keeps every run identical.
 */
import { normalQuantile } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import type { ObservedTrip, TripTable } from "@ridequote/calibration"

export const SIGMA = 0.15
export const trueBase = (km: number, minutes: number): number => 3 + 1.2 * km + 0.3 * minutes
export const trueQuantile = (km: number, minutes: number, q: number): number =>
  trueBase(km, minutes) * Math.exp(SIGMA * normalQuantile(q))

/** mulberry32: a small, well-mixed 32-bit PRNG. */
export const seeded = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const CENTER: Coordinates = { latitude: 45, longitude: 10 }
const KM_PER_DEG = 111.2

export const syntheticTable = (rows: number, seed = 42, providers = ["alpha", "beta"]): TripTable => {
  const rand = seeded(seed)
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
  const trips: Array<ObservedTrip> = []
  for (let i = 0; i < rows; i++) {
    const km = 0.5 + rand() * 19.5
    const minutes = (km / 22) * 60 + rand() * 8
    // A straight east–west line whose great circle is km / 1.3 (a detour factor of 1.3).
    const gcKm = km / 1.3
    const pickup = { latitude: CENTER.latitude + (rand() - 0.5) * 0.1, longitude: CENTER.longitude + (rand() - 0.5) * 0.1 }
    const destination = {
      latitude: pickup.latitude,
      longitude: pickup.longitude + gcKm / (KM_PER_DEG * Math.cos((pickup.latitude * Math.PI) / 180))
    }
    const hour = Math.floor(rand() * 24)
    trips.push({
      key: Math.floor(rand() * 2 ** 32),
      provider: providers[i % providers.length] ?? "alpha",
      price: Math.round(trueBase(km, minutes) * Math.exp(SIGMA * normal()) * 100) / 100,
      fees: {},
      distanceKm: km,
      durationMinutes: minutes,
      localDate: "2024-05-01",
      hour,
      minute: Math.floor(rand() * 60),
      dayOfWeek: Math.floor(rand() * 7),
      pickup,
      destination
    })
  }
  return { trips, rowsRead: rows, rejected: {} }
}

export const fitOptions = {
  id: "synthetic",
  name: "Synthetic test market",
  timeZone: "Europe/Rome",
  currency: "USD",
  source: "synthetic",
  inputs: [],
  holdoutFraction: 0.2,
  salt: "test",
  minProviderRows: 100,
  serviceLevel: "Standard" as const
}
