/**
 * The level factors the NYC tariff ships for Uber and Lyft are what the 2025 TLC records in
 * fares/ say: the estimate is recomputed here from the records and the shipped files.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { parseModel, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { marketTariffs, parseTariff } from "@ridequote/markets/model"
import { estimateLevel, hvfhvLevelTrips, parseZoneCentroids } from "@ridequote/calibration"

const FARES = join(import.meta.dirname, "..", "fares")
const read = (name: string) => readFileSync(join(SHIPPED_MARKETS_DIR, name), "utf8")
const nycTariffs = marketTariffs(Either.getOrThrow(parseTariff("nyc-tariff.json", read("nyc-tariff.json"))))
const rideHailModel = Either.getOrThrow(parseModel("nyc-ride-hail.json", read("nyc-ride-hail.json")))

describe("NYC Uber and Lyft at the level of their newest records", () => {
  it("the shipped level factors are what the 2025 TLC records in fares/ say (recomputed here)", () => {
    const zones = parseZoneCentroids(gunzipSync(readFileSync(join(FARES, "nyc-taxi-zones-with-centroids.csv.gz"))).toString())
    const texts = ["basefare", "driverpay", "tripmiles"].map((n) => readFileSync(join(FARES, `nyc-hvfhv-2025-sample100-${n}.csv`), "utf8"))
    const trips = hvfhvLevelTrips(texts, zones)
    for (const provider of ["uber", "lyft"]) {
      const tariff = nycTariffs.byProvider.get(`${provider}/Standard`)
      const shipped = tariff?.versions.at(-1)?.level
      const index = rideHailModel.providers.findIndex((p) => p.provider === provider)
      const measured = tariff === undefined ? undefined : estimateLevel(rideHailModel, index, tariff, nycTariffs.locate, "2020-05-01", trips.get(provider) ?? [])
      expect(measured?.trips).toBeGreaterThan(50)
      expect({ factor: shipped?.factor, low: shipped?.low, high: shipped?.high })
        .toEqual({ factor: measured?.factor, low: measured?.low, high: measured?.high })
    }
  })
})
