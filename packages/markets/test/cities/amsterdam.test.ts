/**
 * Amsterdam: trips dated before the file's first version are refused (define.beforeFirstRule "refuse",
 * audit G1, 2026-12-06); the rule then is known to have differed. Sources: packages/markets/models/SOURCES.md
 * (rows `amsterdam-tariff.json`).
 */
import { describe, it } from "@effect/vitest"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, shippedMarket } from "./support.js"

describe("Amsterdam: trips before the first rule (2014-01-01) are refused (audit G1)", () => {
  const FROM = { latitude: 52.3731, longitude: 4.8926 }
  const TO = { latitude: 52.3389, longitude: 4.873 }
  it("before 2014 the maximum tariff charged a start covering 2 km and no amount per minute (Stcrt. 2013-34683, 2013-12-13, replaced that structure by €2.89 + €2.12/km + €0.35/min): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("amsterdam").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2013-12-28T11:00:00+01:00", "2014-01-01T11:00:00+01:00")
  })
})
