/**
 * San Francisco (SFMTA taxi meter, Transportation Code Div. II § 1124): the meter counts the
 * distance in started fifths of a mile ("each additional fifth of a mile or fraction thereof")
 * and the waiting or traffic delay in completed minutes ("each one minute"), the format's
 * `time.units` apart from the meter's `units` (since 2026-12-06: an audit found a started minute
 * charged for any slow second). Sources: packages/markets/models/SOURCES.md (San Francisco rows).
 */
import { describe, expect, it } from "@effect/vitest"
import { meterAmount } from "@ridequote/markets"
import { MILE, meterOn, shippedMarket } from "./support.js"

const { tariff } = shippedMarket("san-francisco")

describe("San Francisco: the 2022-11-17 meter ($4.15, $0.65 per fifth of a mile started, $0.65 per completed minute of delay)", () => {
  const meter = meterOn(tariff, "2026-12-08")
  const amount = (miles: number, seconds: number) => meterAmount(meter, { meterKm: miles * MILE, meterSeconds: seconds })
  it("a fraction of a fifth of a mile is charged: 1.01 miles cost one fifth more than 1 mile", () => {
    expect(amount(1.01, 0) - amount(1, 0)).toBeCloseTo(0.65, 9)
  })
  it("a minute of delay is charged when completed: 59 s add nothing, 60 s and 119 s add $0.65, 120 s add $1.30", () => {
    expect([59, 60, 119, 120].map((s) => Number((amount(3, s) - amount(3, 0)).toFixed(2)))).toEqual([0, 0.65, 0.65, 1.3])
  })
  it("both versions count time that way", () => {
    expect(tariff.versions.map((v) => v.meter?.time.units)).toEqual(["completed", "completed"])
  })
})
