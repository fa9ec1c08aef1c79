/** Maps a trip to its residual bucket: distance band × day part × day type. */
import type { LocalTime } from "@ridequote/core"
import type { Buckets } from "./ModelFile.js"

/** The grouping the shipped models use (see docs: distance bands in km, day parts by local hour). */
export const DEFAULT_BUCKETS: Buckets = {
  distanceBandsKm: [1.5, 3, 6, 12, 25],
  // night 0–5, morning peak 6–9, midday 10–15, evening peak 16–19, evening 20–23
  dayPartStartHours: [0, 6, 10, 16, 20]
}

/** The index of a trip's distance band: how many band limits its distance reaches. */
export const distanceBand = (buckets: Buckets, distanceKm: number): number => {
  const bands = buckets.distanceBandsKm
  let i = 0
  while (i < bands.length && distanceKm >= (bands[i] ?? Number.POSITIVE_INFINITY)) i++
  return i
}

export const dayPart = (buckets: Buckets, hour: number): number => {
  const starts = buckets.dayPartStartHours
  let i = 0
  while (i + 1 < starts.length && hour >= (starts[i + 1] ?? 24)) i++
  return i
}

/** Index of the time bucket: day part, then weekday/weekend. */
export const timeBucket = (buckets: Buckets, time: Pick<LocalTime, "hour" | "dayType">): number =>
  dayPart(buckets, time.hour) + (time.dayType === "weekend" ? buckets.dayPartStartHours.length : 0)

/** The residual bucket of a trip: its distance band × its time bucket (day part, day type). */
export const bucketOf = (buckets: Buckets, distanceKm: number, time: Pick<LocalTime, "hour" | "dayType">): number =>
  distanceBand(buckets, distanceKm) * buckets.dayPartStartHours.length * 2 + timeBucket(buckets, time)
