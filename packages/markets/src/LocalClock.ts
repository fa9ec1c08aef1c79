/**
 * Local wall-clock time in a market's time zone, via Intl (the runtime's tz database), so
 * daylight-saving changes are handled without a time-zone library.
 */
import type { LocalTime } from "@ridequote/core"

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 }

/** A function from an instant (epoch ms) to the local time in `timeZone`. */
export const localClock = (timeZone: string): ((epochMillis: number) => LocalTime) => {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit"
  })
  return (epochMillis) => {
    let hour = 0, minute = 0, dayOfWeek = 0
    for (const part of format.formatToParts(epochMillis)) {
      if (part.type === "hour") hour = Number(part.value) % 24
      else if (part.type === "minute") minute = Number(part.value)
      else if (part.type === "weekday") dayOfWeek = WEEKDAYS[part.value] ?? 0
    }
    return wallClock(hour, minute, dayOfWeek)
  }
}

/** LocalTime from its parts; Saturday and Sunday are the weekend (public holidays are not modelled). */
export const wallClock = (hour: number, minute: number, dayOfWeek: number): LocalTime => ({
  hour,
  minuteOfDay: hour * 60 + minute,
  dayOfWeek,
  dayType: dayOfWeek === 0 || dayOfWeek === 6 ? "weekend" : "weekday"
})
