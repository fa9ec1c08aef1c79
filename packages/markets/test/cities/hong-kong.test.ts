/**
 * Hong Kong: trips dated before the file's first version are refused (define.beforeFirstRule "refuse",
 * audit G1, 2026-12-06); the rule then is known to have differed. Sources: packages/markets/models/SOURCES.md
 * (rows `hong-kong-tariff.json`).
 */
import { describe, it } from "@effect/vitest"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, shippedMarket } from "./support.js"

describe("Hong Kong: trips before the first rule (2017-04-09) are refused (audit G1)", () => {
  const FROM = { latitude: 22.2819, longitude: 114.1582 }
  const TO = { latitude: 22.2976, longitude: 114.1722 }
  it("before 2017-04-09: $22 for 2 km, $1.60 per 200 m to $78, $1 after (the 2017-02-07 press release's existing fare): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("hong-kong").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2017-04-05T11:00:00+08:00", "2017-04-09T11:00:00+08:00")
  })
})
