/**
 * `localClock` keeps one offset per UTC day (looked up at the day's first and last quarter hour)
 * and falls back to quarter hours on a day whose offset changes. Here it is held to Intl itself,
 * asked afresh for every instant, across the days zones change their clocks.
 */
import { describe, expect, it } from "@effect/vitest"
import { localClock } from "@ridequote/markets"

/** The local wall clock of an instant, straight from Intl (the reference). */
const reference = (timeZone: string) => {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit"
  })
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  return (epochMillis: number) => {
    const p: Record<string, string> = {}
    for (const part of format.formatToParts(epochMillis)) p[part.type] = part.value
    const hour = Number(p["hour"]) % 24
    return { hour, minuteOfDay: hour * 60 + Number(p["minute"]), dayOfWeek: days.indexOf(p["weekday"] ?? "") }
  }
}

const HOUR_MS = 3_600_000

// Zones whose changes differ: an hour at 02:00 local (New York), at 01:00 UTC (Berlin), in the
// southern hemisphere (Sydney), half an hour (Lord Howe), a :45 offset with its own change
// (Chatham), none at all (Kathmandu, +5:45).
const ZONES = ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kathmandu"]

describe("localClock", () => {
  it("agrees with Intl at every 7 minutes of the days around each clock change of 2024 and 2025", () => {
    for (const zone of ZONES) {
      const clock = localClock(zone)
      const expected = reference(zone)
      // The instants where the zone's offset changes: found by hourly steps through two years.
      const offsetAt = (t: number) => {
        const r = expected(t)
        return (r.minuteOfDay - (Math.floor(t / 60_000) % 1440) + 2880) % 1440
      }
      const changes: Array<number> = []
      const start = Date.UTC(2024, 0, 1), end = Date.UTC(2026, 0, 1)
      for (let t = start; t < end; t += HOUR_MS) if (offsetAt(t) !== offsetAt(t + HOUR_MS)) changes.push(t)
      if (zone !== "Asia/Kathmandu") expect(changes.length, zone).toBeGreaterThanOrEqual(4)
      // In the order a backtest may meet them: later days first, then earlier ones.
      for (const change of [...changes].reverse()) {
        for (let t = change - 36 * HOUR_MS; t <= change + 36 * HOUR_MS; t += 7 * 60_000) {
          const got = clock(t)
          const want = expected(t)
          expect({ hour: got.hour, minuteOfDay: got.minuteOfDay, dayOfWeek: got.dayOfWeek }, `${zone} ${new Date(t).toISOString()}`)
            .toEqual(want)
        }
      }
    }
  })

  it("agrees with Intl at instants spread over sixty years, in no order", () => {
    for (const zone of ZONES) {
      const clock = localClock(zone)
      const expected = reference(zone)
      // A fixed pseudo-random walk (no wall clock, no Math.random): the same instants every run.
      let x = 123_456_789
      for (let i = 0; i < 3_000; i++) {
        x = (x * 1_103_515_245 + 12_345) % 2_147_483_648
        const t = Date.UTC(1970, 0, 1) + Math.floor((x / 2_147_483_648) * 60 * 365.25 * 24) * HOUR_MS + (i % 4) * 15 * 60_000
        const got = clock(t)
        expect({ hour: got.hour, minuteOfDay: got.minuteOfDay, dayOfWeek: got.dayOfWeek }, `${zone} ${new Date(t).toISOString()}`)
          .toEqual(expected(t))
      }
    }
  })
})
