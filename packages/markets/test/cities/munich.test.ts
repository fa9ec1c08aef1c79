/**
 * Munich (Landeshauptstadt München Taxitarifordnung): each version's meter on worked examples
 * computed by hand from the published amounts, the minimum fare and every fixed fare between the
 * airport, the Messe and the Hauptbahnhof. Sources: packages/markets/models/sources/munich.md.
 */
import { describe, expect, it } from "@effect/vitest"
import { chargesFor, meterAmount, priceTrip, versionAt } from "@ridequote/markets"
import { suppliedTrip } from "../trips.js"
import { meterOn, shippedMarket, view } from "./support.js"

const { market, tariff } = shippedMarket("munich")
const AIRPORT = { latitude: 48.3538, longitude: 11.781 }
const HBF = { latitude: 48.1402, longitude: 11.56 }
const MESSE = { latitude: 48.1365, longitude: 11.696 }
const MARIENPLATZ = { latitude: 48.1374, longitude: 11.5755 }

describe("Munich: Taxitarifordnung from 2025-01-01", () => {
  const meter = meterOn(tariff, "2026-12-08")
  it("€5.70 + €2.70/km in €0.20 steps charged as they begin (74.07 m), €39 an hour of waiting (18.46 s a step)", () => {
    // 10 km: exactly 135 steps = €27.00.
    expect(meterAmount(meter, { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(32.7, 9)
    // 3.3 km: 44.55 steps, the 45th begun = €9.00.
    expect(meterAmount(meter, { meterKm: 3.3, meterSeconds: 0 })).toBeCloseTo(14.7, 9)
    // 10 min waiting: 32.5 steps, 33 begun = €6.60.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(5.7 + 6.6, 9)
    expect(meter.time.crossoverKmh).toBeCloseTo(39 / 2.7, 9)
  })
  it("the Mindestfahrpreis is €5.90 (Grundpreis and the first step)", () => {
    const v = versionAt(tariff, "2026-12-08")
    const charges = chargesFor(v, "meter", view("2026-12-08").moment, view("2026-12-08").places, new Set(), 2)
    expect(charges.total(meterAmount(meter, { meterKm: 0, meterSeconds: 0 }), 0)).toBeCloseTo(5.9, 9)
    expect(charges.total(meterAmount(meter, { meterKm: 0.05, meterSeconds: 0 }), 0)).toBeCloseTo(5.9, 9)
    expect(charges.total(meterAmount(meter, { meterKm: 0.1, meterSeconds: 0 }), 0)).toBeCloseTo(6.1, 9)
  })
  it("fixed fares both ways: Flughafen–Hauptbahnhof €106, Flughafen–Messe €94, Messe–Hauptbahnhof €43; elsewhere the meter", () => {
    const [muc, hbf, messe, centre] = [AIRPORT, HBF, MESSE, MARIENPLATZ].map((p) => market.tariffs.locate(p))
    if (muc === undefined || hbf === undefined || messe === undefined || centre === undefined) throw new Error("zones")
    expect(market.serves(AIRPORT)).toBe(true)
    const fare = (a: ReadonlySet<string>, b: ReadonlySet<string>, date = "2026-12-08") =>
      priceTrip(market.tariffs, tariff, { distanceKm: 38, durationMinutes: 40, routeSource: "resolved" }, view(date, 660, a, b), 2)
    for (const [a, b, amount] of [[muc, hbf, 106], [hbf, muc, 106], [muc, messe, 94], [messe, muc, 94], [messe, hbf, 43], [hbf, messe, 43]] as const) {
      const priced = fare(a, b)
      expect([priced.distribution.quantile(0.05), priced.distribution.quantile(0.95)]).toEqual([amount, amount])
    }
    // Marienplatz is 0.9 km from the Hauptbahnhof, outside its zone: metered (a resolved 38 km route's median is above the meter on 30 km, €86.70).
    const metered = fare(muc, centre)
    expect(metered.fare).toBeUndefined()
    expect(metered.distribution.quantile(0.5)).toBeGreaterThan(5.7 + 30 * 2.7)
    expect(metered.distribution.quantile(0.05)).not.toBe(metered.distribution.quantile(0.95))
  })
})

describe("Munich before 2025: the tariffs of 2022-06-01 and 2024-04-01", () => {
  it("2022: €5.30 + €2.30/km (10 km €28.30, 'mehr als 28 Euro'); 2024-04: €5.50 + €2.50/km (10 km €30.50)", () => {
    expect(["2022-05-31", "2022-06-01", "2024-01-01", "2024-03-31", "2024-04-01", "2024-12-31", "2025-01-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2022-01-01", "2022-06-01", "2022-06-01", "2022-06-01", "2024-04-01", "2024-04-01", "2025-01-01"])
    expect(meterAmount(meterOn(tariff, "2024-01-01"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(28.3, 9)
    expect(meterAmount(meterOn(tariff, "2024-06-04"), { meterKm: 10, meterSeconds: 0 })).toBeCloseTo(30.5, 9)
    // Waiting €36 an hour in 2022 (€0.20 per 20 s): 10 min are 30 steps.
    expect(meterAmount(meterOn(tariff, "2024-01-01"), { meterKm: 0, meterSeconds: 600 })).toBeCloseTo(5.3 + 6, 9)
  })
  it("the airport – Hauptbahnhof fixed fare was €95 on 2024-01-01 and €101 from 2024-04-01", () => {
    const muc = market.tariffs.locate(AIRPORT), hbf = market.tariffs.locate(HBF)
    const at = (date: string) =>
      priceTrip(market.tariffs, tariff, { distanceKm: 38, durationMinutes: 40, routeSource: "resolved" }, view(date, 660, muc, hbf), 2).distribution.quantile(0.5)
    expect([at("2024-01-01"), at("2024-04-01"), at("2025-01-01")]).toEqual([95, 101, 106])
  })
})

describe("Munich from 2021-03-01: the Taxitarifordnung of 2021-02-05 and its step of 2022-01-01 (Taxikurier reprint, secondary); before it, refused", () => {
  const minimum = (date: string, km: number) => {
    const v = versionAt(tariff, date)
    return chargesFor(v, "meter", view(date).moment, view(date).places, new Set(), 2).total(meterAmount(meterOn(tariff, date), { meterKm: km, meterSeconds: 0 }), 0)
  }
  it("versions: 2021-03-01 to 2021-12-31, 2022-01-01 to 2022-05-31, then 2022-06-01", () => {
    expect(["2021-03-01", "2021-12-31", "2022-01-01", "2022-05-31", "2022-06-01"].map((d) => versionAt(tariff, d).effectiveFrom))
      .toEqual(["2021-03-01", "2021-03-01", "2022-01-01", "2022-01-01", "2022-06-01"])
  })
  it("2021: €4.50 + €0.20 per 100.00 m begun (€2.00/km), €0.20 per 24 s of waiting (€30/h) below 15 km/h; minimum €4.70", () => {
    const meter = meterOn(tariff, "2021-06-01")
    // 3.33 km: 33.3 units, the 34th begun = 6.80; 4.50 + 6.80 = 11.30.
    expect(meterAmount(meter, { meterKm: 3.33, meterSeconds: 0 })).toBeCloseTo(11.3, 9)
    // 9 min waiting: 540 / 24 = 22.5 units, 23 begun = 4.60; 4.50 + 4.60 = 9.10.
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 540 })).toBeCloseTo(9.1, 9)
    expect(meter.time.crossoverKmh).toBe(15)
    // Mindestfahrpreis 4.70 = Grundpreis 4.50 + the first unit.
    expect(minimum("2021-06-01", 0)).toBeCloseTo(4.7, 9)
  })
  it("2022-01-01: €4.60 + €0.20 per 95.23 m begun (€2.10/km), waiting unchanged; minimum €4.80", () => {
    const meter = meterOn(tariff, "2022-03-01")
    // 3.3 km: 3.3 / 0.09523 = 34.65 units, the 35th begun = 7.00; 4.60 + 7.00 = 11.60.
    expect(meterAmount(meter, { meterKm: 3.3, meterSeconds: 0 })).toBeCloseTo(11.6, 9)
    expect(meterAmount(meter, { meterKm: 0, meterSeconds: 540 })).toBeCloseTo(4.6 + 4.6, 9)
    expect(meter.time.crossoverKmh).toBe(14.28)
    expect(minimum("2022-03-01", 0)).toBeCloseTo(4.8, 9)
  })
  it("fixed fares Flughafen–Hauptbahnhof €79, Flughafen–Messe €71, Messe–Hauptbahnhof €35 until 2022-05-31 (€95 / €85 / €39 from 2022-06-01)", () => {
    const [muc, hbf, messe] = [AIRPORT, HBF, MESSE].map((p) => market.tariffs.locate(p))
    if (muc === undefined || hbf === undefined || messe === undefined) throw new Error("zones")
    const at = (date: string, a: ReadonlySet<string>, b: ReadonlySet<string>) =>
      priceTrip(market.tariffs, tariff, { distanceKm: 38, durationMinutes: 40, routeSource: "resolved" }, view(date, 660, a, b), 2).distribution.quantile(0.5)
    expect([at("2021-06-01", muc, hbf), at("2021-06-01", hbf, muc), at("2022-05-31", muc, hbf), at("2022-06-01", muc, hbf)]).toEqual([79, 79, 79, 95])
    expect([at("2021-06-01", muc, messe), at("2021-06-01", messe, hbf)]).toEqual([71, 35])
    // The market's own quote: MUC → Hauptbahnhof on 2021-06-01 at 11:00 is the €79 fixed fare.
    const offers = market.offers(suppliedTrip(market, AIRPORT, HBF, 38, 40)("2021-06-01T11:00:00+02:00"))
    expect(offers.map((o) => [o.distribution.quantile(0.05), o.distribution.quantile(0.95)])).toEqual([[79, 79]])
  })
  it("refuses a trip dated before 2021-03-01 (no-rule-for-date): the 2019 rule (degressive, MUC–Messe €67) is known to differ", () => {
    const trip = (at: string) => suppliedTrip(market, AIRPORT, HBF, 38, 40)(at)
    expect(market.offers(trip("2021-02-28T11:00:00+01:00"))).toEqual([])
    expect(market.unoffered?.(trip("2021-02-28T11:00:00+01:00"))?.message)
      .toBe("market munich knows no rule in force on 2021-02-28: its earliest known rule is in force from 2021-03-01")
    expect(market.unoffered?.(trip("2021-03-01T11:00:00+01:00"))).toBeUndefined()
  })
})
