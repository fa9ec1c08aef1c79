/** The solar local clock (the sample market's). The route estimator is tested in @ridequote/routes. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import { localTimeAtOffset, solarLocalTime, solarOffsetMinutes } from "../../src/pricing/LocalClock.js"
import { BERLIN } from "./fixtures.js"

describe("solar local time", () => {
  it("offset is round(longitude / 15) hours", () => {
    expect(solarOffsetMinutes(13.405)).toBe(60)
    expect(solarOffsetMinutes(-74.006)).toBe(-300)
    expect(solarOffsetMinutes(7.4)).toBe(0)
    expect(solarOffsetMinutes(7.6)).toBe(60)
    expect(solarOffsetMinutes(180)).toBe(720)
    expect(solarOffsetMinutes(-180)).toBe(-720)
  })

  it("gives hour, minute of day, day of week and day type (1970-01-01 was a Thursday)", () => {
    expect(localTimeAtOffset(0, 0)).toEqual({ hour: 0, minuteOfDay: 0, dayOfWeek: 4, dayType: "weekday" })
    // Saturday 2026-11-21 23:30 UTC is Sunday 00:30 at UTC+1 and Saturday 18:30 at UTC−5.
    const at = DateTime.unsafeMake("2026-11-21T23:30:00.000Z")
    expect(solarLocalTime(at, BERLIN)).toEqual({ hour: 0, minuteOfDay: 30, dayOfWeek: 0, dayType: "weekend" })
    expect(solarLocalTime(at, { latitude: 40.7, longitude: -74 })).toEqual({
      hour: 18,
      minuteOfDay: 1110,
      dayOfWeek: 6,
      dayType: "weekend"
    })
    // Before the epoch too.
    expect(localTimeAtOffset(-60_000, 0)).toEqual({ hour: 23, minuteOfDay: 1439, dayOfWeek: 3, dayType: "weekday" })
  })
})
