/**
 * Berlin: trips dated before the file's first version are refused (define.beforeFirstRule "refuse",
 * audit G1, 2026-12-06); the rule then is known to have differed. Sources: packages/markets/models/SOURCES.md
 * (rows `berlin-tariff.json`).
 */
import { describe, it } from "@effect/vitest"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, shippedMarket } from "./support.js"

describe("Berlin: trips before the first rule (2014-02-19) are refused (audit G1)", () => {
  const FROM = { latitude: 52.5219, longitude: 13.4132 }
  const TO = { latitude: 52.5065, longitude: 13.3325 }
  it("before 2014-02-19: €3.20 and €1.65/km to 7 km (dpa via welt.de 2014-02 and nachtdroschke.de 2014-02-20: 'von 3,20 auf 3,40 Euro', 'von 1,65 auf 1,79 Euro'): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("berlin").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2014-02-15T11:00:00+01:00", "2014-02-19T11:00:00+01:00")
  })
})
