/**
 * Boston ride-hail (a fitted market: the Nov–Dec 2018 Uber and Lyft quotes): the level a trip's
 * date is priced at. Uber's level of mid-2022 (NetCredit's UberX estimate of about 2022-07-06,
 * ×1.335 the 2018 line) prices Uber trips from 2022-07-06; Lyft, with no Boston evidence after
 * 2018, keeps the 2018 level until 2025-01-01.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Coordinates, Market, Trip } from "@ridequote/core"
import { calibratedMarket, joinMarkets, parseModel, SHIPPED_MARKETS_DIR, versionAt } from "@ridequote/markets"
import { marketTariffs } from "../../src/internal/tariff/MarketTariffs.js"
import { parseTariff } from "../../src/internal/tariff/TariffFile.js"
import { loadTariff } from "./support.js"

const read = (name: string) => readFileSync(join(SHIPPED_MARKETS_DIR, name), "utf8")
const tariffs = marketTariffs(Either.getOrThrow(parseTariff("boston-tariff.json", read("boston-tariff.json"))))
const boston: Market = Effect.runSync(joinMarkets(
  [calibratedMarket(Either.getOrThrow(parseModel("boston.json", read("boston.json"))), tariffs)],
  (m) => m.id
))[0] as Market

const BOSTON_COMMON = { latitude: 42.355, longitude: -71.0656 }
const HARVARD_SQUARE = { latitude: 42.3736, longitude: -71.1190 }

const tripAt = (pickup: Coordinates, destination: Coordinates, iso: string): Trip => {
  const departAt = DateTime.unsafeMake(iso)
  return { pickup, destination, distanceKm: 6.5, durationMinutes: 18, mode: "Realtime", routeSource: "supplied", localTime: boston.localTime(departAt, pickup), departAt }
}
/** The offer of a provider's Standard product for the Common → Harvard Square trip (no Logan fee) at `iso`. */
const standard = (provider: string, iso: string) =>
  boston.offers(tripAt(BOSTON_COMMON, HARVARD_SQUARE, iso)).find((o) => o.provider === provider && o.serviceLevel === "Standard")

describe("Boston ride-hail: the level by the trip's date", () => {
  it("Uber's versions: the 2018 records' level to 2022-07-05, ×1.335 (1.28–1.39) from 2022-07-06 (the NetCredit check), ×1.354 from 2025-01-01", () => {
    const doc = loadTariff("boston")
    for (const t of doc.tariffs.filter((x) => x.provider === "uber")) {
      expect(t.versions.map((v) => [v.effectiveFrom, v.level?.factor])).toEqual([["2016-08-05", 1], ["2022-07-06", 1.335], ["2025-01-01", 1.354]])
      const mid = versionAt(t, "2024-01-10")
      expect([mid.level?.low, mid.level?.high, mid.level?.asOf]).toEqual([1.28, 1.39, "2022-07-06"])
      // A fitted market's version cannot carry a change window: none is set.
      expect(mid.changedAfter).toBeUndefined()
      // The Massport fee of those dates is unchanged: $3.25 each way at Logan until 2025-07-01.
      expect(mid.fees).toEqual(versionAt(t, "2019-10-01").fees)
    }
    for (const t of doc.tariffs.filter((x) => x.provider === "lyft")) {
      expect(t.versions.map((v) => [v.effectiveFrom, v.level?.factor])).toEqual([["2016-08-05", 1], ["2025-01-01", 1.392]])
    }
  })

  it("a 2024-01-10 UberX trip is priced at the mid-2022 level: its median ×1.335 that of 2022-07-05 (the 2018 level); Lyft's is unchanged", () => {
    const before = standard("uber", "2022-07-05T15:00:00Z")
    const after = standard("uber", "2024-01-10T16:00:00Z")
    expect(before?.source?.level?.factor).toBe(1)
    expect(after?.source?.level?.factor).toBe(1.335)
    expect(after?.source?.level?.evidence).toContain("NetCredit")
    // Same route, no fee off the airport: the median moves by the level's factor (cents rounding aside).
    expect((after?.distribution.quantile(0.5) ?? 0) / (before?.distribution.quantile(0.5) ?? 1)).toBeCloseTo(1.335, 2)
    const lyftBefore = standard("lyft", "2022-07-05T15:00:00Z")
    const lyftAfter = standard("lyft", "2024-01-10T16:00:00Z")
    expect(lyftAfter?.source?.level?.factor).toBe(1)
    expect((lyftAfter?.distribution.quantile(0.5) ?? 0) / (lyftBefore?.distribution.quantile(0.5) ?? 1)).toBeCloseTo(1, 2)
  })
})
