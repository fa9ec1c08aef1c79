/**
 * Riyadh (Transport General Authority public taxi fare of 2022-03-13, from the tariff alone):
 * the national rule (saudi-taxi.ts) on Riyadh's file, and RUH on the city meter.
 */
import { saudiTaxiFare } from "./saudi-taxi.js"
import { describe, it } from "@effect/vitest"
import { suppliedTrip } from "../trips.js"
import { expectRefusedBefore, shippedMarket } from "./support.js"

saudiTaxiFare({ id: "riyadh", name: "Riyadh", iata: "RUH", airport: { latitude: 24.9576, longitude: 46.6988 } })

describe("Riyadh: trips before the first rule (2022-03-13) are refused (audit G1)", () => {
  const FROM = { latitude: 24.7114, longitude: 46.6744 }
  const TO = { latitude: 24.6312, longitude: 46.7133 }
  it("before 2022-03-13: SR5.50 opening, SR1.80/km, SR0.80/min (Gulf News 2022-03-14): no-rule-for-date, not a price on the later rule", () => {
    const before = shippedMarket("riyadh").market
    const trip = suppliedTrip(before, FROM, TO, 8, 20)
    expectRefusedBefore(before, trip, "2022-03-09T11:00:00+03:00", "2022-03-13T11:00:00+03:00")
  })
})
