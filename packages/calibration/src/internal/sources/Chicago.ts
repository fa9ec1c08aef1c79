/**
 * City of Chicago "Taxi Trips" records (the TFX sample's columns).
 *
 * Passenger price = `fare` (the metered fare; tips, tolls and extras are separate columns and
 * tips are excluded by definition). `trip_start_timestamp` is Chicago local time written as if
 * it were UTC (SOURCES.md), so its UTC fields are the local wall clock. Coordinates are census
 * tract or community-area centroids. The provider is the taxi company (affiliation); a blank
 * company is kept and pooled with the small companies (see Fit: "other").
 */
import { column, headerIndex, numberAt, textAt } from "./Csv.js"
import { checkTrip, isoDate, KM_PER_MILE } from "./ObservedTrip.js"
import type { ObservedTrip, Rejection } from "./ObservedTrip.js"

/** Chicago's flag pull has been at least $3.25 since 2012. */
const MIN_FARE = 3.25

export const chicagoRows = (
  header: ReadonlyArray<string>
): ((fields: ReadonlyArray<string>, key: number) => ObservedTrip | Rejection) => {
  const idx = headerIndex(header)
  const c = {
    fare: column(idx, "fare"),
    start: column(idx, "trip_start_timestamp"),
    seconds: column(idx, "trip_seconds"),
    miles: column(idx, "trip_miles"),
    puLat: column(idx, "pickup_latitude"),
    puLon: column(idx, "pickup_longitude"),
    doLat: column(idx, "dropoff_latitude"),
    doLon: column(idx, "dropoff_longitude"),
    payment: column(idx, "payment_type"),
    company: column(idx, "company")
  }
  return (f, key) => {
    const payment = textAt(f, c.payment).toLowerCase()
    if (payment === "no charge" || payment === "dispute") return "payment-not-charged"
    const stamp = numberAt(f, c.start)
    if (!Number.isFinite(stamp) || stamp < Date.UTC(2000, 0, 1) / 1000) return "bad-timestamp"
    const fare = numberAt(f, c.fare)
    if (!(fare >= MIN_FARE)) return "price-out-of-range"
    const bad = checkTrip(numberAt(f, c.miles) * KM_PER_MILE, numberAt(f, c.seconds) / 60, fare)
    if (bad !== undefined) return bad
    const puLat = numberAt(f, c.puLat), puLon = numberAt(f, c.puLon)
    const doLat = numberAt(f, c.doLat), doLon = numberAt(f, c.doLon)
    if (![puLat, puLon, doLat, doLon].every(Number.isFinite)) return "coordinates-missing"
    const wall = new Date(stamp * 1000)
    return {
      key,
      provider: textAt(f, c.company),
      price: fare,
      // The file's `fare` is the meter alone; extras and tolls are separate columns it leaves out.
      fees: {},
      distanceKm: numberAt(f, c.miles) * KM_PER_MILE,
      durationMinutes: numberAt(f, c.seconds) / 60,
      localDate: isoDate(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate()),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      dayOfWeek: wall.getUTCDay(),
      pickup: { latitude: puLat, longitude: puLon },
      destination: { latitude: doLat, longitude: doLon }
    }
  }
}
