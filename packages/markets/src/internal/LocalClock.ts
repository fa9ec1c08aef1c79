/**
 * Local wall-clock time in a market's time zone, via Intl (the runtime's tz database), so
 * daylight-saving changes are handled without a time-zone library.
 */
import { localTimeAtOffset } from "@ridequote/core"
import type { LocalTime } from "@ridequote/core"

/** Zone offsets only change on quarter hours (even the :45 zones), so one lookup serves a quarter hour. */
const QUARTER_HOUR_MS = 15 * 60_000
const QUARTERS_PER_DAY = 96
/** Bounded caches (days of offsets, dates of midnights): a backtest over years of trips must not grow them without limit (20,000 days: 54 years). */
const MAX_CACHED_OFFSETS = 20_000

/** A function from an instant (epoch ms) to the local time in `timeZone`. */
export const localClock = (timeZone: string): ((epochMillis: number) => LocalTime) => {
  // Made when the clock is first read: building a formatter costs ~0.1–0.3 ms, and a server
  // starting with fifty cities reads the clocks of the few its first trips are in.
  let formatter: Intl.DateTimeFormat | undefined
  const format = () =>
    formatter ??= new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit"
    })
  // Intl is slow (tens of µs a call): the offset is looked up once per UTC day, at its first
  // and its last quarter hour. Where the two agree the whole day has that offset (a zone changes
  // its offset at most once in a day, months apart); a day with a change keeps its quarters'
  // own offsets. One lookup per quarter hour instead, bounded at 20,000, was cleared over and
  // over by an evaluation of two years of trips in no particular order (~70,000 quarters): 4 %
  // of NYC's `market evaluate`.
  const offsetOfQuarter = (quarter: number): number => {
    const at = quarter * QUARTER_HOUR_MS
    const p: Record<string, number> = {}
    for (const part of format().formatToParts(at)) if (part.type !== "literal") p[part.type] = Number(part.value)
    const asUtc = Date.UTC(p["year"] ?? 1970, (p["month"] ?? 1) - 1, p["day"] ?? 1, (p["hour"] ?? 0) % 24, p["minute"] ?? 0)
    return Math.round((asUtc - at) / 60_000)
  }
  /** Per UTC day: its offset, or per quarter of the day when it changes within it. */
  const days = new Map<number, number | Map<number, number>>()
  const offsetAt = (quarter: number): number => {
    const day = Math.floor(quarter / QUARTERS_PER_DAY)
    let known = days.get(day)
    if (known === undefined) {
      const first = offsetOfQuarter(day * QUARTERS_PER_DAY)
      const last = offsetOfQuarter(day * QUARTERS_PER_DAY + QUARTERS_PER_DAY - 1)
      known = first === last ? first : new Map<number, number>()
      if (days.size >= MAX_CACHED_OFFSETS) days.clear()
      days.set(day, known)
    }
    if (typeof known === "number") return known
    let offset = known.get(quarter)
    if (offset === undefined) known.set(quarter, offset = offsetOfQuarter(quarter))
    return offset
  }
  return (epochMillis) => localTimeAtOffset(epochMillis, offsetAt(Math.floor(epochMillis / QUARTER_HOUR_MS)))
}

/**
 * A function from an instant (epoch ms) to the local calendar month (1–12) in `timeZone`, with
 * the same offset lookup as `localClock` (what a market's seasonal factors are read by).
 */
export const localMonthClock = (timeZone: string): ((epochMillis: number) => number) => {
  const clock = localClock(timeZone)
  return (epochMillis) => {
    const local = clock(epochMillis)
    const utcMinute = ((Math.floor(epochMillis / 60_000) % 1440) + 1440) % 1440
    let offset = local.minuteOfDay - utcMinute
    if (offset > 720) offset -= 1440
    if (offset < -720) offset += 1440
    return new Date(epochMillis + offset * 60_000).getUTCMonth() + 1
  }
}

/** LocalTime from its parts; Saturday and Sunday are the weekend (public holidays are not modelled). */
export const wallClock = (hour: number, minute: number, dayOfWeek: number): LocalTime => ({
  hour,
  minuteOfDay: hour * 60 + minute,
  dayOfWeek,
  dayType: dayOfWeek === 0 || dayOfWeek === 6 ? "weekend" : "weekday"
})

/**
 * The instant (epoch ms) of local midnight starting `isoDate` in `timeZone`: where a tariff
 * regime begins. Two passes settle the offset even when midnight is near a DST change.
 */
export const localMidnight = (timeZone: string, isoDate: string): number => {
  const key = `${timeZone} ${isoDate}`
  const cached = midnights.get(key)
  if (cached !== undefined) return cached
  const at = midnightOf(sharedClock(timeZone), isoDate)
  if (midnights.size >= MAX_CACHED_OFFSETS) midnights.clear()
  midnights.set(key, at)
  return at
}

/**
 * An evaluation asks for the midnight of every trip's date, and a new Intl formatter costs
 * tens of microseconds: 39 % of `market evaluate`'s CPU on NYC went to building one per trip.
 * One clock per time zone (there are a handful) and each date's midnight are kept instead.
 */
const clocks = new Map<string, (epochMillis: number) => LocalTime>()
const midnights = new Map<string, number>()
const sharedClock = (timeZone: string) => {
  let clock = clocks.get(timeZone)
  if (clock === undefined) clocks.set(timeZone, clock = localClock(timeZone))
  return clock
}

const midnightOf = (clock: (epochMillis: number) => LocalTime, isoDate: string): number => {
  const wall = Date.parse(`${isoDate}T00:00:00Z`)
  let at = wall
  for (let i = 0; i < 2; i++) {
    const local = clock(at)
    // Minutes the local clock is ahead of UTC at `at` (days wrap: compare within ±12 h).
    const utcMinute = Math.floor(at / 60_000) % 1440
    let offset = local.minuteOfDay - ((utcMinute + 1440) % 1440)
    if (offset > 720) offset -= 1440
    if (offset < -720) offset += 1440
    at = wall - offset * 60_000
  }
  return at
}

/**
 * A function from an instant (epoch ms) to the local calendar date `YYYY-MM-DD` in `timeZone`:
 * the date a tariff's versions and dated charges are read on. Intl formatting costs
 * microseconds, so the date is kept for the UTC quarter-hour it was read in (every zone's
 * offset, and every change of it, is a whole number of quarter-hours: the local date cannot
 * change inside one).
 */
export const localDateClock = (timeZone: string): ((epochMillis: number) => string) => {
  // Made on first use, as localClock's.
  let formatter: Intl.DateTimeFormat | undefined
  let cachedQuarter = Number.NaN, cachedDate = ""
  return (epochMillis) => {
    const quarter = Math.floor(epochMillis / QUARTER_HOUR_MS)
    if (quarter !== cachedQuarter) {
      formatter ??= new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      cachedQuarter = quarter
      cachedDate = formatter.format(new Date(epochMillis))
    }
    return cachedDate
  }
}
