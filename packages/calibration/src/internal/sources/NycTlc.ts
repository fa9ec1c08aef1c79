/**
 * NYC TLC yellow-taxi trip records (taxi-zone or coordinate files; snake_case or the TLC's own
 * column names).
 *
 * Passenger price = total_amount − tip_amount: everything the rider paid except the tip.
 * Not the sum of the component columns: from February 2019 vendor 1 (CMT) writes the $2.50
 * congestion surcharge into `extra` as well as into `congestion_surcharge`, while its
 * total_amount counts it once, so the components overstate its trips by $2.50. Files without
 * total_amount fall back to fare_amount + extra + mta_tax + improvement_surcharge +
 * congestion_surcharge + tolls_amount (+ airport_fee). Only metered trips (rate code 1) of the two documented
 * technology vendors are kept: 1 = Creative Mobile Technologies, 2 = Curb Mobility (VeriFone
 * until 2019). Vendor 4 appears in 2018–2019 files but is undocumented by the TLC: left out.
 */
import type { Coordinates } from "@ridequote/core"
import { amountAt, column, headerIndex, numberAt, parseCsvLine, textAt } from "./Csv.js"
import { checkTrip, dayOfWeekOf, isoDate, KM_PER_MILE, TRIP_BOUNDS } from "./ObservedTrip.js"
import type { ObservedTrip, Rejection } from "./ObservedTrip.js"

export const NYC_VENDORS: Readonly<Record<string, string>> = { "1": "creative-mobile", "2": "curb" }

/** TLC taxi zone → centroid, from nyc-taxi-zones-with-centroids.csv (LocationID, ..., centroid_lon, centroid_lat). */
export type ZoneCentroids = ReadonlyMap<number, Coordinates>

/** Zone centroids from the TLC's centroid CSV text; rows without a numeric id and coordinates are skipped. */
export const parseZoneCentroids = (text: string): ZoneCentroids => {
  const lines = text.split("\n").filter((l) => l.trim() !== "")
  const idx = headerIndex(parseCsvLine(lines[0] ?? ""))
  const id = column(idx, "LocationID", "location_id")
  const lon = column(idx, "centroid_lon", "lon", "longitude")
  const lat = column(idx, "centroid_lat", "lat", "latitude")
  const zones = new Map<number, Coordinates>()
  for (const line of lines.slice(1)) {
    const f = parseCsvLine(line)
    const z = numberAt(f, id), x = numberAt(f, lon), y = numberAt(f, lat)
    if (Number.isInteger(z) && Number.isFinite(x) && Number.isFinite(y)) zones.set(z, { latitude: y, longitude: x })
  }
  return zones
}

/**
 * A trip of a rate code other than the meter's, kept for the special fares (JFK flat fare,
 * Newark): what a metered trip records (the price is everything but the tip) but its provider,
 * with its rate code and zones.
 */
export interface SpecialFareTrip extends Omit<ObservedTrip, "provider"> {
  readonly rateCode: number
  readonly pickupZone: number
  readonly dropoffZone: number
}

/** The rate codes read as special fares: 2 JFK flat fare, 3 Newark. */
export const SPECIAL_RATE_CODES: ReadonlySet<number> = new Set([2, 3])

/** Zone id → borough, from the same centroids file (`Borough` column). */
export const parseZoneBoroughs = (text: string): ReadonlyMap<number, string> => {
  const lines = text.split("\n").filter((l) => l.trim() !== "")
  const idx = headerIndex(parseCsvLine(lines[0] ?? ""))
  const id = column(idx, "LocationID", "location_id")
  const borough = column(idx, "Borough", "borough")
  const out = new Map<number, string>()
  if (borough < 0) return out
  for (const line of lines.slice(1)) {
    const f = parseCsvLine(line)
    const z = numberAt(f, id)
    if (Number.isInteger(z)) out.set(z, textAt(f, borough))
  }
  return out
}

interface LocalStamp {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  /** Minutes since an arbitrary epoch, for durations (both ends are the same local clock). */
  readonly minutes: number
}

const STAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/

/** "2018-01-11 18:24:44" as local wall time; undefined if malformed or not a real date. */
export const parseLocalStamp = (s: string): LocalStamp | undefined => {
  const m = STAMP.exec(s.trim())
  if (m === null) return undefined
  // Each group read on its own: an array of them, mapped and destructured, cost more than the match.
  const year = Number(m[1]), month = Number(m[2]), day = Number(m[3])
  const hour = Number(m[4]), minute = Number(m[5]), second = Number(m[6] ?? "0")
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  if (d.getUTCDate() !== day) return undefined
  d.setUTCHours(hour, minute, second, 0)
  return { year, month, day, hour, minute, minutes: d.getTime() / 60_000 }
}

/**
 * The flat per-trip fees: the same for every trip they apply to, whatever its length or time
 * (the time-of-day `extra` and the tolls are left in the metered part). Their changes mark
 * tariff regimes, e.g. the $2.50 congestion surcharge from February 2019.
 */
const FEE_COLUMNS = [
  ["mta_tax", "mta"],
  ["improvement_surcharge", "improvement"],
  ["congestion_surcharge", "congestion"],
  ["airport_fee", "airport"]
] as const

/** The TLC began publishing trip records in 2009; earlier stamps are clock faults. */
const FIRST_YEAR = 2009

export const nycTlcRows = (
  header: ReadonlyArray<string>,
  zones: ZoneCentroids | undefined,
  /** Receives the trips of rate codes 2 and 3 (still counted as not metered for the meter's fit). */
  onSpecial?: (trip: SpecialFareTrip) => void
): ((fields: ReadonlyArray<string>, key: number) => ObservedTrip | Rejection) => {
  const idx = headerIndex(header)
  const c = {
    vendor: column(idx, "vendor_id", "VendorID"),
    pickupAt: column(idx, "pickup_datetime", "tpep_pickup_datetime"),
    dropoffAt: column(idx, "dropoff_datetime", "tpep_dropoff_datetime"),
    distance: column(idx, "trip_distance"),
    rateCode: column(idx, "rate_code_id", "RatecodeID", "RateCodeID"),
    payment: column(idx, "payment_type"),
    puZone: column(idx, "pickup_location_id", "PULocationID"),
    doZone: column(idx, "dropoff_location_id", "DOLocationID"),
    puLon: column(idx, "pickup_longitude"),
    puLat: column(idx, "pickup_latitude"),
    doLon: column(idx, "dropoff_longitude"),
    doLat: column(idx, "dropoff_latitude"),
    fare: column(idx, "fare_amount"),
    extra: column(idx, "extra"),
    mta: column(idx, "mta_tax"),
    improvement: column(idx, "improvement_surcharge"),
    congestion: column(idx, "congestion_surcharge"),
    tolls: column(idx, "tolls_amount"),
    airport: column(idx, "airport_fee", "Airport_fee"),
    total: column(idx, "total_amount"),
    tip: column(idx, "tip_amount")
  }
  const byZone = c.puZone >= 0 && c.doZone >= 0
  const point = (fields: ReadonlyArray<string>, zoneCol: number, lonCol: number, latCol: number) => {
    if (byZone) return zones?.get(numberAt(fields, zoneCol))
    const longitude = numberAt(fields, lonCol), latitude = numberAt(fields, latCol)
    // 0/0 and out-of-range points are GPS faults.
    if (!(Math.abs(latitude) > 1 && Math.abs(latitude) <= 90 && Math.abs(longitude) > 1 && Math.abs(longitude) <= 180)) {
      return undefined
    }
    return { latitude, longitude }
  }
  const row = (f: ReadonlyArray<string>, key: number): ObservedTrip | Rejection => {
    const provider = NYC_VENDORS[textAt(f, c.vendor)]
    if (provider === undefined) return "vendor-not-modelled"
    const rateCode = numberAt(f, c.rateCode)
    const special = onSpecial !== undefined && byZone && SPECIAL_RATE_CODES.has(rateCode)
    if (rateCode !== 1 && !special) return "rate-code-not-metered"
    const payment = numberAt(f, c.payment)
    // 3 no charge, 4 dispute, 6 voided: the fare column does not say what was paid.
    if (payment === 3 || payment === 4 || payment === 6) return "payment-not-charged"
    const start = parseLocalStamp(textAt(f, c.pickupAt))
    const end = parseLocalStamp(textAt(f, c.dropoffAt))
    if (start === undefined || end === undefined || start.year < FIRST_YEAR) return "bad-timestamp"
    const fare = numberAt(f, c.fare)
    // The meter's flag drop is $2.50 (2012–2022): a smaller fare is a refund or an adjustment.
    if (!(fare >= 2.5) || fare > TRIP_BOUNDS.maxPrice) return "price-out-of-range"
    const fees: Record<string, number> = {}
    for (const [name, col] of FEE_COLUMNS) if (c[col] >= 0) fees[name] = amountAt(f, c[col])
    const total = numberAt(f, c.total)
    const price = Number.isFinite(total)
      ? total - amountAt(f, c.tip)
      : fare + amountAt(f, c.extra) + amountAt(f, c.mta) + amountAt(f, c.improvement) +
        amountAt(f, c.congestion) + amountAt(f, c.tolls) + amountAt(f, c.airport)
    const distanceKm = numberAt(f, c.distance) * KM_PER_MILE
    const durationMinutes = end.minutes - start.minutes
    const bad = checkTrip(distanceKm, durationMinutes, price)
    if (bad !== undefined) return bad
    const pickup = point(f, c.puZone, c.puLon, c.puLat)
    const destination = point(f, c.doZone, c.doLon, c.doLat)
    if (pickup === undefined || destination === undefined) return byZone ? "zone-without-centroid" : "coordinates-missing"
    // What a metered trip and a special-fare trip both record.
    const observed = {
      key,
      price: Math.round(price * 100) / 100,
      fees,
      distanceKm,
      durationMinutes,
      localDate: isoDate(start.year, start.month, start.day),
      hour: start.hour,
      minute: start.minute,
      dayOfWeek: dayOfWeekOf(start.year, start.month, start.day),
      pickup,
      destination,
      tolls: c.tolls >= 0 ? amountAt(f, c.tolls) : 0
    }
    if (rateCode !== 1) {
      onSpecial?.({ ...observed, rateCode, pickupZone: numberAt(f, c.puZone), dropoffZone: numberAt(f, c.doZone) })
      return "rate-code-not-metered"
    }
    return { ...observed, provider }
  }
  // A special-fare row is "not metered" for the meter's fit whatever else is wrong with it:
  // the meter's filter counts stay what they were before special fares were read.
  return (f, key) => {
    const out = row(f, key)
    return typeof out === "string" && out !== "vendor-not-modelled" && numberAt(f, c.rateCode) !== 1
      ? "rate-code-not-metered"
      : out
  }
}

/** Whether a header is a zone-level file (needs `--zones`). */
export const nycNeedsZones = (header: ReadonlyArray<string>): boolean => {
  const idx = headerIndex(header)
  return column(idx, "pickup_location_id", "PULocationID") >= 0
}
