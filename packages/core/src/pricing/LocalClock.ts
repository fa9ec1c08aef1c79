/** Local wall-clock time for markets: from a fixed UTC offset, or the solar offset of a longitude. */
import { DateTime } from "effect"
import type { Coordinates } from "../Geo.js"
import type { LocalTime } from "../ports/MarketData.js"

const MINUTE_MS = 60_000
const DAY_MINUTES = 1440

/** Local time at `epochMs` for a place `offsetMinutes` ahead of UTC. 1970-01-01 was a Thursday. */
export const localTimeAtOffset = (epochMs: number, offsetMinutes: number): LocalTime => {
  const localMinutes = Math.floor(epochMs / MINUTE_MS) + offsetMinutes
  const day = Math.floor(localMinutes / DAY_MINUTES)
  const minuteOfDay = localMinutes - day * DAY_MINUTES
  const dayOfWeek = (((day + 4) % 7) + 7) % 7
  return {
    hour: Math.floor(minuteOfDay / 60),
    minuteOfDay,
    dayOfWeek,
    dayType: dayOfWeek === 0 || dayOfWeek === 6 ? "weekend" : "weekday"
  }
}

/**
 * Solar offset: round(longitude / 15) hours, i.e. the nautical time zone of the meridian.
 * Without a time-zone database (core carries none) it is the best guess that works everywhere:
 * it is within an hour of the civil time of most places, and off by more where politics moved
 * the clock (China uses UTC+8 across five solar zones; Spain sits an hour east of its sun).
 * Markets that know their zone (calibrated markets) use it instead.
 */
export const solarOffsetMinutes = (longitude: number): number =>
  Number.isFinite(longitude) ? Math.round(longitude / 15) * 60 : 0

/** Local time by solar offset (longitude ÷ 15°, whole hours): the sample market's clock. */
export const solarLocalTime = (at: DateTime.Utc, where: Coordinates): LocalTime =>
  localTimeAtOffset(DateTime.toEpochMillis(at), solarOffsetMinutes(where.longitude))
