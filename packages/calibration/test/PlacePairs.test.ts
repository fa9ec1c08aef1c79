/**
 * Trips between known places (a ride-hail model's `placePairs`): the fit learns each provider's
 * price level and route km per pair of places, shrunk toward the distance model by its rows,
 * and each of its own routes between them (the distance it reported) with a level per product;
 * a quote between two places (each end within 300 m of one) is priced on them, anything else
 * on the distance model; the evaluation scores the model against a per-product line in
 * distance with its own residual quantiles, folds by request.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, FastCheck as fc } from "effect"
import type { Coordinates, Trip } from "@ridequote/core"
import { calibratedMarket, parseModel, priceQuantile, renderModel } from "@ridequote/markets"
import type { MarketModel } from "@ridequote/markets"
import {
  crossValidate,
  EVALUATION_LEVELS,
  fitRideHailMarket,
  foldOf,
  MIN_PAIR_ROWS,
  parsePlaces,
  PLACE_RADIUS_KM,
  productTable,
  readQuotes
} from "@ridequote/calibration"
import type { Place, QuoteTable, RideHailFitOptions } from "@ridequote/calibration"
import { callOut } from "../src/internal/PlacePairsFit.js"

const PLACES_CSV = "name,latitude,longitude\nA,42.35,-71.08\nB,42.36,-71.06\nC,42.34,-71.10\n"
const PLACES = Either.getOrThrow(parsePlaces("places.csv", PLACES_CSV))
const PLACE_LIST: ReadonlyArray<Place> = [...PLACES.entries()].map(([name, c]) => [name, c.latitude, c.longitude])
const at = (name: string): Coordinates => PLACES.get(name) ?? { latitude: 0, longitude: 0 }
/** A point `metres` north of a place. */
const north = (p: Coordinates, metres: number): Coordinates => ({ latitude: p.latitude + metres / 111_195, longitude: p.longitude })

interface PairSpec {
  readonly from: string
  readonly to: string
  readonly rows: number
  /** The pair's prices over the straight-line tariff (its traffic, its route). */
  readonly premium: number
  readonly miles: number
}

/** Quotes of UberX (2 + 1.5/km) and Lux Black (5 + 3/km), each pair at its premium, ±10 % wobble. */
const quotes = (pairs: ReadonlyArray<PairSpec>): QuoteTable => {
  const lines = ["distance,cab_type,time_stamp,destination,source,price,surge_multiplier,name"]
  let i = 0
  for (const pair of pairs) {
    for (let r = 0; r < pair.rows; r++, i++) {
      const miles = pair.miles * (1 + ((r % 5) - 2) / 50)
      const km = miles * 1.609344
      const wobble = 1 + (((i * 7919) % 21) - 10) / 100
      const uber = i % 2 === 0
      const price = Math.round((uber ? 2 + 1.5 * km : 5 + 3 * km) * pair.premium * wobble * 2) / 2
      lines.push(`${miles.toFixed(2)},${uber ? "Uber" : "Lyft"},${1543203646318 + i * 1000},${pair.to},${pair.from},${price},1,${uber ? "UberX" : "Lux Black"}`)
    }
  }
  return Either.getOrThrow(readQuotes([{ path: "q.csv", text: lines.join("\n") }], "test", PLACES, productTable()))
}

const OPTIONS: RideHailFitOptions = {
  id: "testville",
  name: "Testville",
  timeZone: "America/New_York",
  currency: "USD",
  source: "ride-hail",
  inputs: ["q.csv"],
  holdoutFraction: 0,
  salt: "test",
  recordKind: "quotes",
  places: PLACE_LIST
}

/** A → B is 30 % dearer than its distance says; the other pairs are priced on the line; C → B is thin. */
const SPECS: ReadonlyArray<PairSpec> = [
  { from: "a", to: "b", rows: 200, premium: 1.3, miles: 1.6 },
  { from: "b", to: "a", rows: 200, premium: 1, miles: 1.7 },
  { from: "a", to: "c", rows: 200, premium: 1, miles: 1.4 },
  { from: "c", to: "a", rows: 200, premium: 1, miles: 1.3 },
  { from: "b", to: "c", rows: 200, premium: 1, miles: 3.2 },
  { from: "c", to: "b", rows: MIN_PAIR_ROWS - 2, premium: 1.3, miles: 3.0 }
]

const fitted = (specs: ReadonlyArray<PairSpec> = SPECS): MarketModel => Either.getOrThrow(fitRideHailMarket(quotes(specs), OPTIONS))

/** A provider's row for a pair: `[from, to, rows, km, level supplied, level resolved]`. */
const pairRow = (model: MarketModel, provider: string, from: string, to: string) => {
  const names = model.placePairs?.places.map(([name]) => name) ?? []
  return model.placePairs?.pairs[provider]?.find(([f, t]) => names[f] === from && names[t] === to)
}

const tripOf = (model: MarketModel, pickup: Coordinates, destination: Coordinates, distanceKm: number, routeSource: Trip["routeSource"]): Trip => {
  const when = DateTime.unsafeMake(Date.UTC(2018, 11, 3, 17))
  return {
    pickup,
    destination,
    distanceKm,
    durationMinutes: 10,
    mode: "Realtime",
    routeSource,
    localTime: calibratedMarket(model).localTime(when, pickup)
  }
}

const p50s = (model: MarketModel, trip: Trip): Array<number> => calibratedMarket(model).offers(trip).map((o) => o.distribution.quantile(0.5))

describe("place pairs: the fit", () => {
  it("learns each provider's price level and median route km per pair; a thin pair is not listed", () => {
    const model = fitted()
    expect(model.placePairs?.radiusKm).toBe(PLACE_RADIUS_KM)
    expect(model.placePairs?.places.map(([name]) => name)).toEqual(["a", "b", "c"])
    for (const provider of ["uber", "lyft"]) {
      const dear = pairRow(model, provider, "a", "b")
      // The premium, measured against a distance model that itself absorbed part of it.
      expect(dear?.[4], provider).toBeGreaterThan(1.15)
      expect(dear?.[3], provider).toBeCloseTo(1.6 * 1.609344, 1)
      const plain = pairRow(model, provider, "b", "a")
      expect(Math.abs((plain?.[4] ?? 0) - 1), provider).toBeLessThan(0.12)
      expect(plain?.[4] ?? 0, provider).toBeLessThan(dear?.[4] ?? 0)
      expect(pairRow(model, provider, "c", "b"), provider).toBeUndefined()
    }
    // Both products of a provider were pooled: 100 rows each per pair.
    expect(pairRow(model, "uber", "a", "b")?.[2]).toBe(100)
  })

  it("shrinks a pair's level toward the distance model by its rows", () => {
    const thick = fitted()
    const thin = fitted(SPECS.map((s) => (s.from === "a" && s.to === "b" ? { ...s, rows: 2 * (MIN_PAIR_ROWS + 2) } : s)))
    const [thickLevel = 0, thinLevel = 0] = [thick, thin].map((m) => pairRow(m, "uber", "a", "b")?.[4] ?? 0)
    expect(thinLevel).toBeGreaterThan(1)
    expect(thinLevel).toBeLessThan(thickLevel)
  })

  it("without places no pair table; the file round-trips with one", () => {
    const { places: _places, ...withoutPlaces } = OPTIONS
    expect(Either.getOrThrow(fitRideHailMarket(quotes(SPECS), withoutPlaces)).placePairs).toBeUndefined()
    const model = fitted()
    expect(Either.getOrThrow(parseModel("m.json", renderModel(model)))).toEqual(model)
  })

  it("the model file refuses a pair of one place, an unknown provider and a spread of the wrong shape", () => {
    const model = fitted()
    const table = model.placePairs
    if (table === undefined) throw new Error("no place pairs")
    const broken = (placePairs: typeof table) => parseModel("m.json", JSON.stringify({ ...model, placePairs }))
    const same = broken({ ...table, pairs: { ...table.pairs, uber: [[1, 1, 20, 2, 1, 1]] } })
    expect(Either.isLeft(same) && same.left.message).toContain("two different places")
    const stranger = broken({ ...table, pairs: { ...table.pairs, via: [[0, 1, 20, 2, 1, 1]] } })
    expect(Either.isLeft(stranger) && stranger.left.message).toContain("unknown provider via")
    const short = broken({ ...table, spreads: table.spreads.slice(1) })
    expect(Either.isLeft(short) && short.left.message).toContain("spreads")
  })
})

describe("place pairs: a quote", () => {
  const model = fitted()
  const regime = model.regimes[0]
  if (regime === undefined) throw new Error("no regime")
  const distanceOnly = (trip: Trip) =>
    model.providers.map((_, i) => priceQuantile(model, regime, i, trip.routeSource === "resolved" ? "resolved" : "supplied", trip.distanceKm, trip.durationMinutes, trip.localTime)(0.5))

  it("between two known places (each end within 300 m) is priced on the pair; 300 m or more away, on the distance model", () => {
    const km = 1.6 * 1.609344
    const near = tripOf(model, north(at("a"), 150), north(at("b"), -150), km, "supplied")
    const far = tripOf(model, north(at("a"), 400), at("b"), km, "supplied")
    const pair = p50s(model, near)
    const distance = distanceOnly(near)
    pair.forEach((p, i) => expect(p, `provider ${i}`).toBeGreaterThan((distance[i] ?? 0) * 1.1))
    expect(p50s(model, far)).toEqual(distanceOnly(far))
  })

  it("a pair the records hold too little of, and one place to itself, are priced on the distance model", () => {
    const thin = tripOf(model, at("c"), at("b"), 3 * 1.609344, "supplied")
    expect(p50s(model, thin)).toEqual(distanceOnly(thin))
    const nowhere = tripOf(model, at("a"), north(at("a"), 100), 1, "supplied")
    expect(p50s(model, nowhere)).toEqual(distanceOnly(nowhere))
  })

  it("with no distance sent, the pair's own median route km is the route: the resolver's guess does not move the price", () => {
    const guess = (km: number) => p50s(model, tripOf(model, at("a"), at("b"), km, "resolved"))
    expect(guess(1.5)).toEqual(guess(4))
    // With a distance sent, a longer route costs more between the same places.
    const sent = (km: number) => p50s(model, tripOf(model, at("a"), at("b"), km, "supplied"))
    sent(4).forEach((p, i) => expect(p).toBeGreaterThan(sent(2)[i] ?? Number.POSITIVE_INFINITY))
  })
})

describe("place pairs: the evaluation", () => {
  it("scores the model against a per-product line in distance with its own residual quantiles", () => {
    const e = Either.getOrThrow(crossValidate(quotes(SPECS), OPTIONS, 5))
    for (const p of e.products) {
      const name = `${p.provider}/${p.serviceLevel} ${p.route}`
      expect(p.lineImprovement, name).toBeCloseTo(1 - p.pinball / p.linePinball, 12)
      // A straight line cannot see A → B's premium; the pair table does.
      expect(p.lineImprovement, name).toBeGreaterThan(0.1)
    }
  })

  it("the line is the least-squares line: on prices exactly linear in distance its pinball is nil", () => {
    const lines = ["distance,cab_type,time_stamp,destination,source,price,surge_multiplier,name"]
    for (let i = 0; i < 400; i++) {
      const miles = 0.5 + (i % 40) / 10
      lines.push(`${miles.toFixed(2)},Uber,${1543203646318 + i * 1000},b,a,${(3 + 2 * miles * 1.609344).toFixed(6)},1,UberX`)
    }
    const table = Either.getOrThrow(readQuotes([{ path: "l.csv", text: lines.join("\n") }], "test", PLACES, productTable()))
    const { places: _places, ...withoutPlaces } = OPTIONS
    const e = Either.getOrThrow(crossValidate(table, withoutPlaces, 5))
    const supplied = e.products.find((p) => p.route === "supplied")
    // Prices were written to a millionth of a dollar: that is all the line misses by.
    expect(supplied?.linePinball).toBeLessThan(1e-6)
    expect(supplied?.pinball).toBeGreaterThan(1e-3)
  })
})

/**
 * Price-estimate calls (requests): each quotes two Uber products at one moment, with one route
 * distance and one timestamp. Between A and B the provider takes two routes: 1.6 mi, priced as
 * the other pairs' line says, and, one call in six, 1.9 mi, a slow route that makes UberX 25 % dearer; a Black
 * SUV's price is its base (25 + 0.5/km) whatever the route. The other pairs give the line its
 * variety of distances.
 */
const requests = (shock: (request: number) => number = () => 1, routeMiles?: (request: number) => number): QuoteTable => {
  const lines = ["distance,cab_type,time_stamp,destination,source,price,surge_multiplier,name"]
  const pairs = [["a", "b"], ["b", "a"], ["a", "c"], ["c", "a"], ["b", "c"], ["c", "b"]] as const
  for (let i = 0; i < 600; i++) {
    const [from, to] = pairs[i % pairs.length] ?? ["a", "b"]
    const between = from === "a" && to === "b"
    const slow = between && i % 36 === 0
    const miles = routeMiles?.(i) ?? (between ? (slow ? 1.9 : 1.6) : 0.8 + ((i * 37) % 100) / 40)
    const km = miles * 1.609344
    const s = shock(i)
    const wobble = (k: number) => 1 + ((((i + k) * 7919) % 11) - 5) / 100
    const uberX = Math.round((2 + 1.5 * km) * (slow ? 1.25 : 1) * s * wobble(0) * 2) / 2
    const suv = Math.round((25 + 0.5 * km) * s * wobble(3) * 2) / 2
    const at = 1543203646318 + i * 60_000
    lines.push(`${miles.toFixed(2)},Uber,${at},${to},${from},${uberX},1,UberX`)
    lines.push(`${miles.toFixed(2)},Uber,${at},${to},${from},${suv},1,Black SUV`)
  }
  return Either.getOrThrow(readQuotes([{ path: "r.csv", text: lines.join("\n") }], "test", PLACES, productTable()))
}

/** A product's route row between two places at a route distance: `[from, to, km, requests, level]`. */
const routeRow = (model: MarketModel, product: number, from: string, to: string, miles: number) => {
  const names = model.placePairs?.places.map(([name]) => name) ?? []
  return model.placePairs?.routes?.[product]?.find(([f, t, km]) => names[f] === from && names[t] === to && Math.abs(km - miles * 1.609344) < 0.008)
}

describe("place pairs: a provider's own routes", () => {
  const model = Either.getOrThrow(fitRideHailMarket(requests(), OPTIONS))
  const [uberX, suv] = [0, 1]

  it("lists each route by the distance the provider reported, with its requests; a slow route's level is above its pair's", () => {
    expect(model.providers.map((p) => p.product)).toEqual(["UberX", "Black SUV"])
    const pair = pairRow(model, "uber", "a", "b")
    const slow = routeRow(model, uberX, "a", "b", 1.9)
    const usual = routeRow(model, uberX, "a", "b", 1.6)
    // 100 requests between A and B, one in six on the slow route.
    expect(slow?.[3]).toBe(17)
    expect(usual?.[3]).toBe(83)
    // The route's deviation is pooled over the provider's products (the SUV's indifference
    // dilutes it), UberX's elasticity (> 1) takes part of it back: well above the pair's level.
    expect(slow?.[4] ?? 0).toBeGreaterThan((pair?.[4] ?? Number.POSITIVE_INFINITY) * 1.08)
    expect(usual?.[4] ?? Number.POSITIVE_INFINITY).toBeLessThan(slow?.[4] ?? 0)
  })

  it("a product whose price does not follow the route (elasticity near 0) keeps its pair's level on the slow route", () => {
    const pair = pairRow(model, "uber", "a", "b")?.[4] ?? Number.NaN
    const slow = routeRow(model, suv, "a", "b", 1.9)?.[4] ?? Number.NaN
    expect(Math.abs(slow / pair - 1)).toBeLessThan(0.03)
    expect(model.provenance.notes.join("\n")).toMatch(/uber\/Standard 1\.\d+, uber\/PremiumXL 0\.\d+/)
  })

  it("a supplied distance on the slow route is priced at its level; 50 m off it, at the pair's", () => {
    const km = 1.9 * 1.609344
    const on = p50s(model, tripOf(model, at("a"), at("b"), km, "supplied"))
    const off = p50s(model, tripOf(model, at("a"), at("b"), km + 0.05, "supplied"))
    expect((on[uberX] ?? 0) / (off[uberX] ?? Number.POSITIVE_INFINITY)).toBeGreaterThan(1.05)
    expect(Math.abs((on[suv] ?? 0) / (off[suv] ?? Number.NaN) - 1)).toBeLessThan(0.03)
  })

  it("a quote's own request never teaches its level: with a moment shared by a call's products and a route per call, coverage holds", () => {
    // Every call its own route (distance) and its own moment (×0.6 … ×1.6 on both products).
    const table = requests((i) => 0.6 + ((i * 37) % 101) / 100, (i) => 1 + i / 250)
    const e = Either.getOrThrow(crossValidate(table, OPTIONS, 5))
    for (const p of e.products.filter((x) => x.route === "supplied")) {
      for (const [level, nominal] of EVALUATION_LEVELS) {
        expect(Math.abs((p.coverage[level] ?? Number.NaN) - nominal), `${p.product} ${level}`).toBeLessThanOrEqual(0.05)
      }
    }
  })

  it("a fold's pair and route tables are built from its training requests alone", () => {
    const table = requests()
    const train = (q: { readonly key: number }) => foldOf(q.key, 5) !== 0
    const fold = Either.getOrThrow(fitRideHailMarket(table, { ...OPTIONS, train }))
    const training = table.quotes.filter(train)
    expect(training.length).toBeLessThan(table.quotes.length * 0.9)
    expect(Object.values(fold.placePairs?.pairs ?? {}).flat().reduce((n, row) => n + row[2], 0)).toBe(training.length)
    const slow = (q: (typeof training)[number]) =>
      Math.abs(q.distanceKm - 1.9 * 1.609344) < 1e-6 && q.pickup.latitude === at("a").latitude && q.destination.latitude === at("b").latitude
    const slowRequests = new Set(training.filter(slow).map((q) => q.key)).size
    expect(routeRow(fold, uberX, "a", "b", 1.9)?.[3]).toBe(slowRequests)
    expect(slowRequests).toBeLessThan(17)
  })

  it("the model file refuses routes that do not list the market's providers, or a route of a pair with no row", () => {
    const table = model.placePairs
    if (table?.routes === undefined) throw new Error("no routes")
    const broken = (routes: typeof table.routes) => parseModel("m.json", JSON.stringify({ ...model, placePairs: { ...table, routes } }))
    const short = broken(table.routes.slice(1))
    expect(Either.isLeft(short) && short.left.message).toContain("placePairs.routes must list")
    const stray = broken([table.routes[0] ?? [], [[1, 1, 4.8, 3, 1.1]]])
    expect(Either.isLeft(stray) && stray.left.message).toContain("a route of a pair the provider has no row for")
    expect(Either.getOrThrow(parseModel("m.json", renderModel(model)))).toEqual(model)
  })
})

describe("place pairs: a median with one call left out", () => {
  // The leave-one-call-out spread reads, for every row, its pair's and its route's median
  // without the row's own call; `callOut` answers from one sort. It must give the very numbers
  // that sorting the rest again gives (the shipped boston.json is fitted through it).
  it.prop("callOut's median, rows and calls are those of the rest, sorted again", [
    fc.array(fc.record({ request: fc.integer({ min: 0, max: 6 }), log: fc.double({ min: -2, max: 2, noNaN: true }) }), { maxLength: 40 }),
    fc.integer({ min: -1, max: 7 }),
    fc.double({ min: -1, max: 1, noNaN: true })
  ], ([rows, out, shift]) => {
    const pairRows = rows.map((r) => ({ product: 0, ...r }))
    const without = out < 0 ? undefined : out
    const rest = pairRows.filter((r) => r.request !== without)
    const sorted = rest.map((r) => r.log - shift).sort((a, b) => a - b)
    const mid = sorted.length >> 1
    const median = sorted.length === 0
      ? Number.NaN
      : sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
    const got = callOut(pairRows)(without, shift)
    expect(got.rows).toBe(rest.length)
    expect(got.calls).toBe(new Set(rest.map((r) => r.request)).size)
    expect(Object.is(got.median, median) || got.median === median).toBe(true)
  })
})
