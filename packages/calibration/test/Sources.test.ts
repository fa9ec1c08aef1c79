import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, FastCheck as fc } from "effect"
import { greatCircleKm, SAMPLE_ROUTE_PROFILE } from "@ridequote/core"
import { arbitraryCoordinates } from "@ridequote/core/testing"
import { localClock } from "@ridequote/markets"
import { inferRoute, isHeldOut, parseZoneCentroids, readTrips, rowKey } from "@ridequote/calibration"

const ZONES = parseZoneCentroids(
  "LocationID,Borough,Zone,service_zone,centroid_lon,centroid_lat\n" +
    "161,Manhattan,Midtown Center,Yellow Zone,-73.977698,40.758028\n" +
    "236,Manhattan,Upper East Side North,Yellow Zone,-73.957012,40.780436\n" +
    "264,Unknown,NV,N/A,,\n"
)
const NYC_HEADER =
  "vendor_id,pickup_datetime,dropoff_datetime,passenger_count,trip_distance,rate_code_id,store_and_fwd_flag," +
  "pickup_location_id,dropoff_location_id,payment_type,fare_amount,extra,mta_tax,tip_amount,tolls_amount," +
  "improvement_surcharge,total_amount,congestion_surcharge"
const nycRow = (over: Partial<Record<string, string>> = {}): string => {
  const row: Record<string, string> = {
    vendor_id: "2", pickup_datetime: "2019-03-05 08:10:00", dropoff_datetime: "2019-03-05 08:25:00",
    passenger_count: "1", trip_distance: "2.10", rate_code_id: "1", store_and_fwd_flag: "N",
    pickup_location_id: "161", dropoff_location_id: "236", payment_type: "1", fare_amount: "12.5", extra: "1.0",
    mta_tax: "0.5", tip_amount: "3.0", tolls_amount: "0.0", improvement_surcharge: "0.3", total_amount: "19.8",
    congestion_surcharge: "2.5", ...over
  }
  return NYC_HEADER.split(",").map((c) => row[c] ?? "").join(",")
}
const nyc = (...rows: Array<string>) =>
  Either.getOrThrow(readTrips("nyc-tlc", [{ path: "t.csv", text: [NYC_HEADER, ...rows].join("\n") }], "s", ZONES))

describe("NYC TLC records", () => {
  it("price is everything but the tip: total_amount − tip_amount", () => {
    const [trip] = nyc(nycRow({ tolls_amount: "5.76", total_amount: "25.56" })).trips
    expect(trip?.price).toBe(22.56) // 12.5 + 1 + 0.5 + 0.3 + 2.5 + 5.76, tip (3.0) excluded
    expect(trip?.fees).toEqual({ mta_tax: 0.5, improvement_surcharge: 0.3, congestion_surcharge: 2.5 })
    expect(trip?.provider).toBe("curb")
    expect(trip?.distanceKm).toBeCloseTo(2.1 * 1.609344, 6)
    expect(trip?.durationMinutes).toBe(15)
    expect(trip?.hour).toBe(8)
    expect(trip?.dayOfWeek).toBe(2)
    expect(trip?.pickup).toEqual({ latitude: 40.758028, longitude: -73.977698 })
  })

  it("counts the congestion surcharge once when vendor 1 also writes it into extra (2019 records)", () => {
    // As in the TLC's 2019 files: extra 3.5 = 1.0 peak + 2.5 congestion, which is also in its own column.
    const [trip] = nyc(nycRow({ vendor_id: "1", extra: "3.5", total_amount: "19.8" })).trips
    expect(trip?.price).toBe(16.8)
  })

  it("without total_amount, adds up the component columns", () => {
    const header = NYC_HEADER.replace(",total_amount", "")
    const row = nycRow({ tolls_amount: "5.76" }).split(",")
    row.splice(NYC_HEADER.split(",").indexOf("total_amount"), 1)
    const [trip] = Either.getOrThrow(readTrips("nyc-tlc", [{ path: "t.csv", text: `${header}\n${row.join(",")}` }], "s", ZONES)).trips
    expect(trip?.price).toBe(22.56)
  })

  it("keeps only metered trips (rate code 1)", () => {
    expect(nyc(nycRow({ rate_code_id: "2" })).rejected).toEqual({ "rate-code-not-metered": 1 })
  })

  it("keeps only the documented vendors 1 and 2", () => {
    expect(nyc(nycRow({ vendor_id: "4" }), nycRow({ vendor_id: "" })).rejected).toEqual({ "vendor-not-modelled": 2 })
    expect(nyc(nycRow({ vendor_id: "1" })).trips[0]?.provider).toBe("creative-mobile")
  })

  it("drops zero distance, non-positive duration and bad timestamps", () => {
    const t = nyc(
      nycRow({ trip_distance: "0" }),
      nycRow({ dropoff_datetime: "2019-03-05 08:10:00" }),
      nycRow({ pickup_datetime: "2008-12-31 23:50:00" }),
      nycRow({ pickup_datetime: "2019-02-30 08:10:00" })
    )
    expect(t.trips).toHaveLength(0)
    expect(t.rejected).toEqual({ "zero-or-missing-distance": 1, "zero-or-negative-duration": 1, "bad-timestamp": 2 })
  })

  it("drops outliers: fares under the flag drop or over $500, and impossible speeds", () => {
    const t = nyc(nycRow({ fare_amount: "-5" }), nycRow({ fare_amount: "429490.2" }), nycRow({ trip_distance: "80" }))
    expect(t.rejected).toEqual({ "price-out-of-range": 2, "implausible-speed": 1 })
  })

  it("drops zones without a centroid and refuses zone files without --zones", () => {
    expect(nyc(nycRow({ dropoff_location_id: "264" })).rejected).toEqual({ "zone-without-centroid": 1 })
    const result = readTrips("nyc-tlc", [{ path: "t.csv", text: `${NYC_HEADER}\n${nycRow()}` }], "s", undefined)
    expect(Either.isLeft(result)).toBe(true)
  })

  it("refuses a file that is not of the format given", () => {
    const result = readTrips("chicago", [{ path: "t.csv", text: `${NYC_HEADER}\n${nycRow()}` }], "s", undefined)
    expect(Either.isLeft(result) && result.left.message).toContain("not a chicago file")
  })
})

const CHICAGO_HEADER =
  "pickup_community_area,fare,trip_start_month,trip_start_hour,trip_start_day,trip_start_timestamp,pickup_latitude," +
  "pickup_longitude,dropoff_latitude,dropoff_longitude,trip_miles,pickup_census_tract,dropoff_census_tract," +
  "payment_type,company,trip_seconds,dropoff_community_area,tips"

describe("Chicago records", () => {
  it("price is the fare; the timestamp's UTC fields are the local wall clock", () => {
    // 1400269500 = 2014-05-16T19:45:00 "UTC", i.e. 19:45 local on a Friday.
    const row = "8,12.45,5,19,6,1400269500,41.89,-87.63,41.95,-87.65,3.1,,,Credit Card,Taxi Affiliation Services,900,6,2.0"
    const t = Either.getOrThrow(readTrips("chicago", [{ path: "c.csv", text: `${CHICAGO_HEADER}\n${row}` }], "s", undefined))
    expect(t.trips[0]).toMatchObject({ price: 12.45, hour: 19, minute: 45, dayOfWeek: 5, provider: "Taxi Affiliation Services" })
  })

  it("drops zero miles (a known fault of this dataset) and missing coordinates", () => {
    const rows = [
      "8,12.45,5,19,6,1400269500,41.89,-87.63,41.95,-87.65,0,,,Cash,,900,6,0",
      "8,12.45,5,19,6,1400269500,,,,,3.1,,,Cash,,900,6,0"
    ]
    const t = Either.getOrThrow(readTrips("chicago", [{ path: "c.csv", text: [CHICAGO_HEADER, ...rows].join("\n") }], "s", undefined))
    expect(t.rejected).toEqual({ "zero-or-missing-distance": 1, "coordinates-missing": 1 })
  })
})

describe("held-out split", () => {
  it("is a deterministic function of the row: the same line is always on the same side", () => {
    fc.assert(fc.property(fc.string(), (line) => {
      expect(isHeldOut(rowKey("salt", line), 0.2)).toBe(isHeldOut(rowKey("salt", line), 0.2))
    }))
  })

  it("holds out about the requested share", () => {
    let held = 0
    for (let i = 0; i < 20_000; i++) if (isHeldOut(rowKey("salt", `row ${i}`), 0.2)) held++
    expect(held / 20_000).toBeCloseTo(0.2, 1)
  })
})

describe("route inference", () => {
  it.prop("the inferred road distance is the great circle times the detour factor, to the 10 m the resolver rounds to", [arbitraryCoordinates, arbitraryCoordinates, fc.integer({ min: 0, max: 23 })], ([a, b, hour]) => {
    const route = inferRoute(SAMPLE_ROUTE_PROFILE, a, b, hour)
    expect(route.greatCircleKm).toBe(greatCircleKm(a, b))
    expect(Math.abs(route.distanceKm - route.greatCircleKm * SAMPLE_ROUTE_PROFILE.detourFactor)).toBeLessThanOrEqual(0.005 + 1e-9)
  })
})

describe("local time of a market", () => {
  it("follows the zone's daylight-saving rules", () => {
    const ny = localClock("America/New_York")
    expect(ny(DateTime.toEpochMillis(DateTime.unsafeMake("2019-03-10T06:59:00Z"))).hour).toBe(1)
    expect(ny(DateTime.toEpochMillis(DateTime.unsafeMake("2019-03-10T07:00:00Z"))).hour).toBe(3)
    expect(ny(DateTime.toEpochMillis(DateTime.unsafeMake("2019-07-04T16:30:00Z")))).toEqual({
      hour: 12, minuteOfDay: 750, dayOfWeek: 4, dayType: "weekday"
    })
  })
})
