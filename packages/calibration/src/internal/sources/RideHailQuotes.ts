/**
 * Ride-hail price records (`--format ride-hail`): one quote or trip per CSV line, with the
 * provider, its product, the price, the provider's route distance and where the ride goes
 * (named places + a places file, or coordinates). The layout of the public Boston Uber/Lyft
 * quotes (Kaggle "Uber and Lyft cab prices", 2018) is read as it is; docs/calibration.md,
 * "Fitting a ride-hail market of your own", lists the columns.
 *
 * Products are mapped onto the shared service levels by the table below (docs/calibration.md,
 * "Service levels"), extended or overridden by the operator's `--products` file.
 */
import { Either, Schema } from "effect"
import { ServiceLevel } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { parseCsvLine } from "./Csv.js"
import { KM_PER_MILE } from "./ObservedTrip.js"
import { rowKey, TripRecordsInvalid } from "./TripRecords.js"
import type { TripFile } from "./TripRecords.js"

/** One ride-hail price record as read from the source: provider, product, its service level, price and route. */
export interface ObservedQuote {
  /**
   * Hash of the record's request; decides train/held-out splits. A price-estimate request
   * returns one row per product, all with the same route distance, and the Boston layout keeps
   * them as one run of consecutive rows (`callKeys`); the quotes of one request never straddle
   * a split (a held-out UberX would otherwise be priced from its own request's UberXL, which
   * met the same moment's traffic and surge). A completed trip is its own key.
   */
  readonly key: number
  /** Provider id (`uber`, `lyft`). */
  readonly provider: string
  /** The provider's own product name, as the records spell it. */
  readonly product: string
  readonly serviceLevel: ServiceLevel
  readonly price: number
  /** The provider's own route distance. */
  readonly distanceKm: number
  /** Surge multiplier where the records show one (1 otherwise): informative, part of the spread. */
  readonly surge: number
  readonly pickup: Coordinates
  readonly destination: Coordinates
  /** Epoch ms interval the record's timestamp allows (a timestamp rounded by a spreadsheet is wide). */
  readonly time?: { readonly from: number; readonly to: number }
}

/** The ride-hail records read from the input files, with how many rows were read and why others were skipped. */
export interface QuoteTable {
  readonly quotes: ReadonlyArray<ObservedQuote>
  readonly rowsRead: number
  readonly rejected: Readonly<Record<string, number>>
}

/** Provider/product → service level, for the products of the public Uber and Lyft data. */
export const KNOWN_PRODUCTS: ReadonlyArray<readonly [provider: string, product: string, level: ServiceLevel]> = [
  ["uber", "UberPool", "Shared"],
  ["uber", "UberX", "Standard"],
  ["uber", "UberXL", "XL"],
  ["uber", "Black", "Premium"],
  ["uber", "Black SUV", "PremiumXL"],
  ["uber", "WAV", "Accessible"],
  ["lyft", "Shared", "Shared"],
  ["lyft", "Lyft", "Standard"],
  ["lyft", "Lyft XL", "XL"],
  ["lyft", "Lux", "Comfort"],
  ["lyft", "Lux Black", "Premium"],
  ["lyft", "Lux Black XL", "PremiumXL"]
]

export type ProductTable = ReadonlyMap<string, ServiceLevel>

const productKey = (provider: string, product: string): string => `${provider}/${product.trim().toLowerCase()}`

/** A provider id from a name: lower-case words joined by dashes. */
export const providerId = (name: string): string =>
  name.toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64) || "other"

/** The built-in table, then the operator's rows (`provider,product,serviceLevel`) over it. */
export const productTable = (
  extra: ReadonlyArray<readonly [string, string, ServiceLevel]> = []
): ProductTable => new Map([...KNOWN_PRODUCTS, ...extra].map(([p, name, level]) => [productKey(providerId(p), name), level]))

/** Parses a products file: header `provider,product,serviceLevel`, one product per line. */
export const parseProducts = (
  path: string,
  text: string
): Either.Either<ReadonlyArray<readonly [string, string, ServiceLevel]>, TripRecordsInvalid> => {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "")
  const header = parseCsvLine(lines[0] ?? "").map((h) => h.trim().toLowerCase())
  const [ip, in_, il] = ["provider", "product", "servicelevel"].map((n) => header.indexOf(n))
  if (ip === undefined || in_ === undefined || il === undefined || ip < 0 || in_ < 0 || il < 0) {
    return Either.left(new TripRecordsInvalid({ path, message: "a products file needs the columns provider, product, serviceLevel" }))
  }
  const out: Array<readonly [string, string, ServiceLevel]> = []
  const isLevel = Schema.is(ServiceLevel)
  for (const [n, line] of lines.slice(1).entries()) {
    const f = parseCsvLine(line)
    const level = (f[il] ?? "").trim()
    if (!isLevel(level)) {
      return Either.left(new TripRecordsInvalid({ path, message: `line ${n + 2}: unknown service level "${level}"` }))
    }
    out.push([(f[ip] ?? "").trim(), (f[in_] ?? "").trim(), level])
  }
  return Either.right(out)
}

/** Named places: `name,latitude,longitude`. */
export type Places = ReadonlyMap<string, Coordinates>

/** Reads a places CSV (`name,latitude,longitude`, any column order); a missing column or bad coordinates fail naming the file (and the line). */
export const parsePlaces = (path: string, text: string): Either.Either<Places, TripRecordsInvalid> => {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "")
  const header = parseCsvLine(lines[0] ?? "").map((h) => h.trim().toLowerCase())
  const [iname, ilat, ilon] = ["name", "latitude", "longitude"].map((n) => header.indexOf(n))
  if (iname === undefined || ilat === undefined || ilon === undefined || iname < 0 || ilat < 0 || ilon < 0) {
    return Either.left(new TripRecordsInvalid({ path, message: "a places file needs the columns name, latitude, longitude" }))
  }
  const places = new Map<string, Coordinates>()
  for (const [n, line] of lines.slice(1).entries()) {
    const f = parseCsvLine(line)
    const latitude = Number(f[ilat]), longitude = Number(f[ilon])
    if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) {
      return Either.left(new TripRecordsInvalid({ path, message: `line ${n + 2}: bad coordinates` }))
    }
    places.set((f[iname] ?? "").trim().toLowerCase(), { latitude, longitude })
  }
  return Either.right(places)
}

/** The interval an epoch-ms timestamp allows, given how many digits it kept ("1.54362E+12": ± 5·10⁶ ms). */
export const timestampInterval = (text: string): { from: number; to: number } | undefined => {
  const t = text.trim()
  const m = /^(\d+)(?:\.(\d*))?(?:[eE]\+?(\d+))?$/.exec(t)
  if (m === null) return undefined
  const value = Number(t)
  if (!Number.isFinite(value) || value <= 0) return undefined
  const decimals = (m[2] ?? "").length
  const exponent = Number(m[3] ?? "0")
  const unit = 10 ** (exponent - decimals)
  // Digits dropped by rounding are only unknown when an exponent shows they were dropped.
  const half = m[3] === undefined ? 0 : unit / 2
  return { from: value - half, to: value + half }
}

/** Column lookup: an exact name, or a header ending in " <name>" ("Uber Price" for "price"). */
const findColumn = (header: ReadonlyArray<string>, ...names: ReadonlyArray<string>): number => {
  const lower = header.map((h) => h.trim().toLowerCase())
  for (const n of names) {
    const exact = lower.indexOf(n)
    if (exact >= 0) return exact
  }
  for (const n of names) {
    const suffix = lower.findIndex((h) => h.endsWith(` ${n}`))
    if (suffix >= 0) return suffix
  }
  return -1
}

export const MAX_QUOTE_PRICE = 500

/**
 * The price-estimate calls of one file, told apart by the rows' order: a call returns one row
 * per product for one route, and the Boston files (as the Kaggle collection they come from)
 * keep a call's rows together, so a call is a run of consecutive rows with the same provider,
 * places (or coordinates) and distance, each product at most once (a product seen again
 * starts the next call on the same route). The timestamps cannot tell: the rows of one run
 * carry times days apart (Uber's keep six digits; 56 of 6,232 pairs in a run are equal),
 * while the run shares its moment: Lyft's surge falls on two quotes of one run 334 times
 * where 16 would if they were apart, and two quotes' deviations from their product's line in
 * distance correlate at 0.57 (Uber) and 0.50 (Lyft) within a run, 0.11 and 0.10 between two
 * runs on one route (docs/calibration.md, "Evaluation" of ride-hail markets). Returns each row's
 * call, as text to hash: the file, the route and the run's ordinal in the file.
 */
const callKeys = (
  path: string,
  col: { readonly source: number; readonly destination: number; readonly miles: number; readonly km: number } & Record<
    "pickupLat" | "pickupLon" | "dropoffLat" | "dropoffLon",
    number
  >,
  hasCoordinates: boolean
) => {
  let route = "", ordinal = 0
  const products = new Set<string>()
  return {
    next: (f: ReadonlyArray<string>, provider: string, product: string): string => {
      const cell = (j: number) => (j >= 0 ? (f[j] ?? "").trim().toLowerCase() : "")
      const where = hasCoordinates
        ? [col.pickupLat, col.pickupLon, col.dropoffLat, col.dropoffLon].map(cell)
        : [cell(col.source), cell(col.destination)]
      const here = [provider, ...where, cell(col.km >= 0 ? col.km : col.miles)].join(",")
      if (here !== route || products.has(product)) (route = here, ordinal++, products.clear())
      products.add(product)
      return `${path},${route},${ordinal}`
    }
  }
}

/** Reads ride-hail quote/trip CSV files; every rejected row is counted by reason. */
export const readQuotes = (
  files: ReadonlyArray<TripFile>,
  salt: string,
  places: Places | undefined,
  products: ProductTable
): Either.Either<QuoteTable, TripRecordsInvalid> => {
  const quotes: Array<ObservedQuote> = []
  const rejected: Record<string, number> = {}
  const reject = (why: string) => (rejected[why] = (rejected[why] ?? 0) + 1)
  let rowsRead = 0
  for (const file of files) {
    const lines = file.text.split("\n")
    const header = parseCsvLine((lines[0] ?? "").replace(/^\uFEFF/, ""))
    const col = {
      provider: findColumn(header, "cab_type", "provider"),
      product: findColumn(header, "name", "product"),
      price: findColumn(header, "price"),
      miles: findColumn(header, "distance", "distance (mi)", "distance_miles"),
      km: findColumn(header, "distance_km"),
      surge: findColumn(header, "surge_multiplier", "surge multiplier"),
      time: findColumn(header, "time_stamp", "timestamp"),
      source: findColumn(header, "source"),
      destination: findColumn(header, "destination"),
      pickupLat: findColumn(header, "pickup_latitude"),
      pickupLon: findColumn(header, "pickup_longitude"),
      dropoffLat: findColumn(header, "dropoff_latitude"),
      dropoffLon: findColumn(header, "dropoff_longitude")
    }
    const hasCoordinates = col.pickupLat >= 0 && col.pickupLon >= 0 && col.dropoffLat >= 0 && col.dropoffLon >= 0
    const hasPlaces = col.source >= 0 && col.destination >= 0
    const missing = [
      col.provider < 0 ? "cab_type (or provider)" : undefined,
      col.product < 0 ? "name (or product)" : undefined,
      col.price < 0 ? "price" : undefined,
      col.miles < 0 && col.km < 0 ? "distance (miles) or distance_km" : undefined,
      !hasCoordinates && !hasPlaces ? "source and destination (or pickup_/dropoff_ latitude and longitude)" : undefined
    ].filter((m) => m !== undefined)
    if (missing.length > 0) {
      return Either.left(new TripRecordsInvalid({ path: file.path, message: `not a ride-hail file: missing column(s) ${missing.join(", ")}` }))
    }
    if (!hasCoordinates && places === undefined) {
      return Either.left(new TripRecordsInvalid({
        path: file.path,
        message: "the rows name places (source, destination): pass --places with a name,latitude,longitude file"
      }))
    }
    const calls = callKeys(file.path, col, hasCoordinates)
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] ?? ""
      if (line.trim() === "") continue
      rowsRead++
      const f = parseCsvLine(line)
      if (f.length < header.length) {
        reject("malformed-row")
        continue
      }
      const provider = providerId(f[col.provider] ?? "")
      const product = (f[col.product] ?? "").trim()
      const call = calls.next(f, provider, product)
      const priceText = (f[col.price] ?? "").trim()
      if (priceText === "") {
        reject("no-price")
        continue
      }
      const level = products.get(productKey(provider, product))
      if (level === undefined) {
        reject("unmapped-product")
        continue
      }
      const price = Number(priceText)
      if (!(price > 0 && price <= MAX_QUOTE_PRICE)) {
        reject("price-out-of-range")
        continue
      }
      const distanceKm = col.km >= 0 ? Number(f[col.km]) : Number(f[col.miles]) * KM_PER_MILE
      if (!(distanceKm > 0) || distanceKm > 160) {
        reject("zero-or-missing-distance")
        continue
      }
      let pickup: Coordinates | undefined, destination: Coordinates | undefined
      if (hasCoordinates) {
        const c = [col.pickupLat, col.pickupLon, col.dropoffLat, col.dropoffLon].map((j) => Number(f[j]))
        if (c.every((v) => Number.isFinite(v)) && Math.abs(c[0] ?? 99) <= 90 && Math.abs(c[2] ?? 99) <= 90) {
          pickup = { latitude: c[0] ?? 0, longitude: c[1] ?? 0 }
          destination = { latitude: c[2] ?? 0, longitude: c[3] ?? 0 }
        }
      } else {
        pickup = places?.get((f[col.source] ?? "").trim().toLowerCase())
        destination = places?.get((f[col.destination] ?? "").trim().toLowerCase())
      }
      if (pickup === undefined || destination === undefined) {
        reject("unknown-place")
        continue
      }
      const surge = col.surge >= 0 ? Number(f[col.surge]) : 1
      const time = col.time >= 0 ? timestampInterval(f[col.time] ?? "") : undefined
      quotes.push({
        key: rowKey(salt, call),
        provider,
        product,
        serviceLevel: level,
        price,
        distanceKm,
        surge: surge > 0 ? surge : 1,
        pickup,
        destination,
        ...(time === undefined ? {} : { time })
      })
    }
  }
  return Either.right({ quotes, rowsRead, rejected })
}

/** TLC high-volume for-hire licence → provider (TLC's HVFHV data dictionary). */
export const HVFHS_LICENSES: Readonly<Record<string, string>> = {
  HV0002: "juno",
  HV0003: "uber",
  HV0004: "via",
  HV0005: "lyft"
}

const HVFHS_PRODUCT: Readonly<Record<string, { readonly standard: string; readonly shared: string }>> = {
  juno: { standard: "Juno", shared: "Juno shared" },
  uber: { standard: "Uber", shared: "UberPool" },
  via: { standard: "Via", shared: "Via shared" },
  lyft: { standard: "Lyft", shared: "Lyft Shared" }
}

/** The fare components a rider pays, tips aside (`NA` and blanks are 0). */
const HVFHV_PRICE_COLUMNS = ["base_passenger_fare", "tolls", "bcf", "sales_tax", "congestion_surcharge", "airport_fee", "cbd_congestion_fee"]

/**
 * NYC TLC high-volume for-hire trips (`--format nyc-hvfhv`; Uber, Lyft, Via): completed trips
 * with zone ids (centroids from `--zones`). Price = base_passenger_fare + tolls + black-car
 * fund + sales tax + congestion surcharge + airport fee (+ the 2025 CBD congestion fee): what
 * the rider paid but the tip. The records do not name the product: a shared request
 * (`shared_request_flag` Y) is Shared, every other trip Standard (UberX, XL and Black alike:
 * a limit stated in docs/calibration.md).
 */
export const readHvfhv = (
  files: ReadonlyArray<TripFile>,
  salt: string,
  zones: ReadonlyMap<number, Coordinates> | undefined
): Either.Either<QuoteTable, TripRecordsInvalid> => {
  const quotes: Array<ObservedQuote> = []
  const rejected: Record<string, number> = {}
  const reject = (why: string) => (rejected[why] = (rejected[why] ?? 0) + 1)
  let rowsRead = 0
  for (const file of files) {
    const lines = file.text.split("\n")
    const header = parseCsvLine((lines[0] ?? "").replace(/^\uFEFF/, "")).map((h) => h.trim().replace(/^"|"$/g, ""))
    const col = (name: string) => header.findIndex((h) => h.toLowerCase() === name.toLowerCase())
    const license = col("hvfhs_license_num"), pu = col("PULocationID"), dof = col("DOLocationID"), miles = col("trip_miles")
    const shared = col("shared_request_flag")
    const missing = [["hvfhs_license_num", license], ["PULocationID", pu], ["DOLocationID", dof], ["trip_miles", miles], [
      "base_passenger_fare",
      col("base_passenger_fare")
    ]].filter(([, i]) => (i as number) < 0).map(([n]) => n)
    if (missing.length > 0) {
      return Either.left(new TripRecordsInvalid({ path: file.path, message: `not an nyc-hvfhv file: missing column(s) ${missing.join(", ")}` }))
    }
    if (zones === undefined) {
      return Either.left(new TripRecordsInvalid({ path: file.path, message: "pass --zones with the taxi-zone centroids (nyc-taxi-zones-with-centroids.csv)" }))
    }
    const priceCols = HVFHV_PRICE_COLUMNS.map(col).filter((i) => i >= 0)
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] ?? ""
      if (line.trim() === "") continue
      rowsRead++
      const f = parseCsvLine(line).map((x) => x.trim().replace(/^"|"$/g, ""))
      if (f.length < header.length - 2) {
        reject("malformed-row")
        continue
      }
      const provider = HVFHS_LICENSES[f[license] ?? ""]
      if (provider === undefined) {
        reject("licence-not-modelled")
        continue
      }
      const amounts = priceCols.map((j) => {
        const x = Number(f[j])
        return Number.isFinite(x) ? x : 0
      })
      const fare = Number(f[col("base_passenger_fare")])
      const price = Math.round(amounts.reduce((a, b) => a + b, 0) * 100) / 100
      if (!(fare > 0) || !(price > 0 && price <= MAX_QUOTE_PRICE)) {
        reject("price-out-of-range")
        continue
      }
      const distanceKm = Number(f[miles]) * KM_PER_MILE
      if (!(distanceKm > 0) || distanceKm > 160) {
        reject("zero-or-missing-distance")
        continue
      }
      const pickup = zones.get(Number(f[pu])), destination = zones.get(Number(f[dof]))
      if (pickup === undefined || destination === undefined) {
        reject("zone-without-centroid")
        continue
      }
      const isShared = shared >= 0 && (f[shared] ?? "").toUpperCase() === "Y"
      const names = HVFHS_PRODUCT[provider] ?? { standard: provider, shared: `${provider} shared` }
      quotes.push({
        key: rowKey(salt, line),
        provider,
        product: isShared ? names.shared : names.standard,
        serviceLevel: isShared ? "Shared" : "Standard",
        price,
        distanceKm,
        surge: 1,
        pickup,
        destination
      })
    }
  }
  return Either.right({ quotes, rowsRead, rejected })
}
