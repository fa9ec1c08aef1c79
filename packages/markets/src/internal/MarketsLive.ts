/**
 * MarketData from a folder of fitted models, with core's sample market as an optional
 * fallback for every place none of them serves.
 *
 * A pickup is served by the market whose area contains it (a market defined by its tariff
 * also serves the zones it names, e.g. an airport outside its city; a fitted market the zones of
 * the airports its tariff lists); where areas overlap the smaller area wins (a city inside a
 * region), then the lower id, so the choice is deterministic. Without a match: the sample market
 * if `fallbackToSample`, else MarketNotServed naming the nearest markets, which the API answers
 * as a 422 `result:market-not-served` (docs/api.md). Each market carries its reach (how far its
 * trips may go, `DEFAULT_REACH_KM` unless its file says) and its airports (docs/airports.md).
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect, Either, Layer } from "effect"
import type { DateTime } from "effect"
import { MarketData, marketNotServed, sampleMarket } from "@ridequote/core"
import type { Coordinates, Market, MarketAirport, MarketReach, NearestMarket, Trip } from "@ridequote/core"
import { boxOf, contains, distanceKmToArea, distanceKmToBox, extent } from "./Area.js"
import { calibratedMarket } from "./CalibratedMarket.js"
import type { CalibratedMarket } from "./CalibratedMarket.js"
import { invalid, parseJson, parseModelJson } from "./ModelFile.js"
import type { Area, MarketModel, MarketModelInvalid } from "./ModelFile.js"
import { marketTariffs } from "./tariff/MarketTariffs.js"
import { definedMarket, lazyDefinedMarket } from "./tariff/TariffMarket.js"
import { zoneBoxes } from "./tariff/Zones.js"
import type { DefinedMarket } from "./tariff/TariffMarket.js"
import type { MarketTariffs } from "./tariff/MarketTariffs.js"
import { decodeTariffHead, decodeTariffJson, definesMarket, flatFaresOnly, isTariffJson } from "./tariff/TariffFile.js"
import { HEADS_INDEX_FILE, indexedHead, parseHeadsIndex } from "./tariff/HeadsIndex.js"
import type { IndexedHead } from "./tariff/HeadsIndex.js"
import { SHIPPED_MARKETS_DIR } from "./Shipped.js"
import type { MarketsOptions } from "./Shipped.js"
import type { Airport } from "./tariff/TariffFile.js"
import type { TariffDocument, TariffHead } from "./tariff/TariffFile.js"

export type { MarketsOptions } from "./Shipped.js"

/**
 * Reads and decodes every *.json file in `dir` (name order): market models (`ridequote-market`)
 * and tariffs (`ridequote-tariff`), each tariff pricing the providers of the market it names
 * or, with `define`, a market of its own priced on the tariff alone (after the fitted ones).
 * Any bad file fails the whole load.
 */
export const loadMarketModels = (
  dir: string,
  options: {
    /**
     * Decode a tariff-defined market's rules when a trip or a listing first needs them, its
     * head (area, clock, zones, airports) at once: for a folder whose files are known good (the
     * shipped one, which the tests decode in full), so that fifty cities cost the start-up
     * their heads only. A file that fails to decode then is a defect, not a refusal at load.
     */
    readonly rulesOnFirstUse?: boolean
  } = {}
): Effect.Effect<ReadonlyArray<ServedMarket>, MarketModelInvalid, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const names = yield* fs.readDirectory(dir).pipe(
      Effect.mapError((e) => invalid(dir, `cannot read the markets folder (${e.message})`))
    )
    const files = names.filter((n) => n.endsWith(".json")).sort()
    const folder = dir.replace(/\/+$/, "")
    // Read by heads, a folder may carry them decoded (the shipped one does: HeadsIndex.ts).
    const noIndex: ReadonlyMap<string, IndexedHead> = new Map()
    const index = options.rulesOnFirstUse !== true
      ? undefined
      : names.includes(HEADS_INDEX_FILE)
      ? yield* fs.readFileString(`${folder}/${HEADS_INDEX_FILE}`).pipe(Effect.map(parseHeadsIndex), Effect.orElseSucceed(() => noIndex))
      : noIndex
    const documents = yield* Effect.forEach(files, (name) => {
      const path = `${folder}/${name}`
      return fs.readFileString(path).pipe(
        Effect.mapError((e) => invalid(path, `cannot read (${e.message})`)),
        Effect.flatMap((text) => parseMarketFile(path, text, index === undefined ? undefined : { index, file: name }))
      )
    })
    const models = documents.flatMap((d) => (d.kind === "model" ? [d] : []))
    const tariffDocs = documents.flatMap((d) => (d.kind === "tariff" || d.kind === "head" ? [d] : []))
    const tariffsOf = new Map<string, MarketTariffs>()
    const defined: Array<{ readonly path: string; readonly market: DefinedMarket }> = []
    for (const t of tariffDocs) {
      const id = t.kind === "head" ? t.head.market : t.tariff.market
      if (tariffsOf.has(id) || defined.some((d) => d.market.id === id)) {
        return yield* invalid(t.path, `a second tariff file for market "${id}"`)
      }
      if (t.kind === "head") {
        if (models.some((m) => m.model.id === id)) return yield* invalid(t.path, `defines market "${id}", which a model in the folder already is`)
        const { json, path } = t
        defined.push({
          path,
          market: lazyDefinedMarket(t.head, () => Either.getOrThrowWith(decodeTariffJson(path, json), (e) => new Error(e.message)))
        })
        continue
      }
      const own = definedMarket(t.tariff)
      if (own !== undefined) {
        if (models.some((m) => m.model.id === t.tariff.market)) {
          return yield* invalid(t.path, `defines market "${t.tariff.market}", which a model in the folder already is`)
        }
        defined.push({ path: t.path, market: own })
        continue
      }
      const priced = models.filter((m) => m.model.id === t.tariff.market || m.model.joins === t.tariff.market)
      if (priced.length === 0) return yield* invalid(t.path, `prices market "${t.tariff.market}", which no model in the folder is`)
      for (const p of t.tariff.tariffs) {
        const model = priced.find((m) => m.model.providers.some((mp) => mp.provider === p.provider && mp.serviceLevel === p.serviceLevel)) ??
          // A product the records lack is priced on its flat fares alone, by the market the file names.
          (flatFaresOnly(p) ? priced.find((m) => m.model.id === t.tariff.market) : undefined)
        if (model === undefined) {
          return yield* invalid(t.path, `tariff ${p.provider}/${p.serviceLevel}: market "${t.tariff.market}" has no such provider (a product its records lack must be priced by flat fares alone: no meter or level in any version)`)
        }
        if (model.model.currency !== t.tariff.currency) return yield* invalid(t.path, `currency ${t.tariff.currency} is not the market's (${model.model.currency})`)
      }
      tariffsOf.set(t.tariff.market, marketTariffs(t.tariff))
    }
    const markets = models.map((m) => calibratedMarket(m.model, tariffsOf.get(m.model.joins ?? m.model.id)))
    const ids = new Set<string>()
    for (const [i, m] of markets.entries()) {
      if (ids.has(m.id)) return yield* invalid(models[i]?.path ?? dir, `market id "${m.id}" is used by another file`)
      ids.add(m.id)
    }
    const joined = yield* joinMarkets(markets, (m) => models[markets.indexOf(m)]?.path ?? dir)
    return [...joined, ...defined.map((d) => d.market)]
  })

/** A market a folder serves: fitted from records (with its tariffs), or defined by a tariff file alone. */
export type ServedMarket = CalibratedMarket | DefinedMarket

const areaOf = (m: ServedMarket): Area => ("model" in m ? m.model.area : m.area)
/**
 * A fitted market serves pickups in its model's area and at the airports its tariff file lists
 * (their zones): Boston's records are of the city, but its rules price Logan (a defined market
 * says so with `define.alsoServes`).
 */
const servesPoint = (m: ServedMarket, p: Coordinates): boolean =>
  "model" in m ? contains(m.model.area, p) || airportZoneAt(m, p) : m.serves(p)

const airportZoneAt = (m: CalibratedMarket, p: Coordinates): boolean => {
  const tariffs = m.tariffs
  if (tariffs === undefined || tariffs.document.airports.length === 0) return false
  const zones = tariffs.locate(p)
  return tariffs.document.airports.some((a) => zones.has(a.zone))
}

/** A file of a markets folder, decoded by its `format` (a tariff defining its market: its head alone, when asked). */
type MarketFile =
  | { readonly kind: "model"; readonly path: string; readonly model: MarketModel }
  | { readonly kind: "tariff"; readonly path: string; readonly tariff: TariffDocument }
  | { readonly kind: "head"; readonly path: string; readonly head: TariffHead; readonly json: unknown }

/**
 * A file of a markets folder, decoded by its `format`; with `heads` (the folder read by heads), a
 * tariff defining its market by its head alone, taken from the folder's index when it holds it.
 */
const parseMarketFile = (
  path: string,
  text: string,
  heads: { readonly index: ReadonlyMap<string, IndexedHead>; readonly file: string } | undefined
): Either.Either<MarketFile, MarketModelInvalid> =>
  parseJson(text, (reason) => invalid(path, reason)).pipe(Either.flatMap((json): Either.Either<MarketFile, MarketModelInvalid> =>
    isTariffJson(json) && heads !== undefined && definesMarket(json)
      ? indexedHead(heads.index, heads.file, json, () => decodeTariffHead(path, json)).pipe(
        Either.map((head) => ({ kind: "head" as const, path, head, json })),
        Either.mapLeft((e) => invalid(path, e.message))
      )
      : isTariffJson(json)
      ? decodeTariffJson(path, json).pipe(
        Either.map((tariff) => ({ kind: "tariff" as const, path, tariff })),
        Either.mapLeft((e) => invalid(path, e.message))
      )
      : parseModelJson(path, json).pipe(Either.map((model) => ({ kind: "model" as const, path, model })))
  ))

/**
 * Models that join another market (`joins`: NYC's Uber and Lyft beside its yellow taxi) add
 * their offers to that market's: one market, the joined one's area, clock and routes; each
 * model prices its own providers on its own regimes.
 */
export const joinMarkets = (
  markets: ReadonlyArray<CalibratedMarket>,
  pathOf: (m: CalibratedMarket) => string
): Effect.Effect<ReadonlyArray<CalibratedMarket>, MarketModelInvalid> =>
  Effect.gen(function*() {
    const joining = markets.filter((m) => m.model.joins !== undefined)
    const out: Array<CalibratedMarket> = []
    for (const base of markets) {
      if (base.model.joins !== undefined) continue
      const extras = joining.filter((m) => m.model.joins === base.id)
      if (extras.length === 0) {
        out.push(base)
        continue
      }
      const keys = new Set(base.model.providers.map((p) => `${p.provider}/${p.serviceLevel}`))
      for (const extra of extras) {
        for (const p of extra.model.providers) {
          const key = `${p.provider}/${p.serviceLevel}`
          if (keys.has(key)) return yield* invalid(pathOf(extra), `provider ${key} is already in market "${base.id}"`)
          keys.add(key)
        }
      }
      // A joining model's resolved spread was fitted on its own detour factor; a resolved trip
      // of the joined market comes with the joined one's: its km are read on the joining scale.
      const scales = extras.map((e) => e.model.routeProfile.detourFactor / base.model.routeProfile.detourFactor)
      const offersOf = (trip: Trip, e: CalibratedMarket, i: number) =>
        e.offers(trip.routeSource === "resolved" ? { ...trip, distanceKm: trip.distanceKm * (scales[i] ?? 1) } : trip)
      out.push({ ...base, offers: (trip) => [...base.offers(trip), ...extras.flatMap((e, i) => offersOf(trip, e, i))] })
    }
    for (const m of joining) {
      if (!out.some((b) => b.id === m.model.joins)) {
        return yield* invalid(pathOf(m), `joins market "${m.model.joins ?? ""}", which is not in the folder`)
      }
    }
    return out
  })

/**
 * How far beyond its area a market's trips may go, unless its tariff file says otherwise
 * (`define.reachKm`): 150 km. An airport an hour from its city lies well inside it (the farthest
 * of ACI's fifty busiest from its city's centre, Narita, Kuala Lumpur, Istanbul or Denver, is
 * 40–65 km by road and less from the city's area), and so does a day's ride to the next town
 * (New York to Philadelphia, 130 km from Manhattan, about 100 km from the NYC area's edge);
 * another city's airport across a border or another continent is not. A taxi meter prices such
 * long rides by its rule all the same; beyond that, a price from a city's tariff would be a
 * guess (docs/airports.md, "Reach").
 */
export const DEFAULT_REACH_KM = 150

/** The boxes a market serves pickups in: its area's box, and the zones beyond it (a defined market's alsoServes: SFO; a fitted market's airports: Logan). */
const servedBoxes = (m: ServedMarket): ReadonlyArray<ReturnType<typeof boxOf>> =>
  "model" in m
    ? [boxOf(m.model.area), ...(m.tariffs?.document.airports ?? []).flatMap((a) => zoneBoxes(m.tariffs?.document.zones ?? {}, a.zone))]
    : [boxOf(m.area), ...m.head.define.alsoServes.flatMap((zone) => zoneBoxes(m.head.zones, zone))]

/** A market's reach: `reachKm` (or the default) beyond the boxes it serves pickups in. */
export const reachOfMarket = (m: ServedMarket): MarketReach => {
  const boxes = servedBoxes(m)
  const km = ("model" in m ? undefined : m.head.define.reachKm) ?? DEFAULT_REACH_KM
  return {
    km,
    distanceKm: (p) => {
      let nearest = Number.POSITIVE_INFINITY
      for (const box of boxes) {
        const d = distanceKmToBox(box, p)
        if (d === 0) return 0
        if (d < nearest) nearest = d
      }
      return nearest
    }
  }
}

/** The airports a market's tariff file lists, as callers name them (no zone: that is the file's own business). */
export const airportsOfMarket = (m: ServedMarket): ReadonlyArray<MarketAirport> => {
  const listed: ReadonlyArray<Airport> = ("model" in m ? m.tariffs?.document.airports : m.head.airports) ?? []
  return listed.map(({ iata, latitude, longitude, name }) => ({ iata, name, latitude, longitude }))
}

/** `market` with more fields, its getters kept as getters (a market whose rules are read on first use stays unread). */
const extended = <M extends Market>(market: M, more: Pick<Market, "reach" | "coverage">): M =>
  Object.defineProperties(Object.create(Object.getPrototypeOf(market) as object | null) as M, {
    ...Object.getOwnPropertyDescriptors(market),
    ...Object.getOwnPropertyDescriptors(more)
  })

/**
 * A served market (fitted, or defined by its tariff) with a `coverage` for listings (`GET
 * /v1/markets`): its own when it has one; else its model's area (bounding box) and time zone,
 * its airports, and each offer's basis at a moment as the market publishes it for a plain trip
 * at its centre then (the regime in force; a special fare between zones does not apply to such
 * a trip). And its `reach`: how far its trips may go.
 */
const withCoverage = <M extends ServedMarket>(market: M): M => {
  const reach = market.reach ?? reachOfMarket(market)
  if (market.coverage !== undefined) return extended(market, { reach })
  const area = boxOf(areaOf(market))
  const centre = { latitude: (area.south + area.north) / 2, longitude: (area.west + area.east) / 2 }
  const plainTrip = (at: DateTime.Utc): Trip => ({
    pickup: centre,
    destination: { latitude: centre.latitude + 0.02, longitude: centre.longitude },
    distanceKm: 5,
    durationMinutes: 15,
    mode: "Realtime",
    routeSource: "supplied",
    localTime: market.localTime(at, centre),
    departAt: at
  })
  return extended(market, {
    reach,
    coverage: {
      area,
      timeZone: "model" in market ? market.model.timeZone : market.timeZone,
      airports: airportsOfMarket(market),
      offers: (at) => {
        const trip = plainTrip(at)
        const offered = market.offers(trip).map(({ provider, serviceLevel, source }) => ({ provider, serviceLevel, source: source ?? {} }))
        // Products offered on flat fares alone are listed too, though no flat fare covers the plain trip.
        const flatOnly = "model" in market ? market.flatFareProducts(trip) : []
        return flatOnly.length === 0 ? offered : [...offered, ...flatOnly.filter((f) => !offered.some((o) => o.provider === f.provider && o.serviceLevel === f.serviceLevel))]
      }
    }
  })
}

/** A 1° cell of the globe, as a number (361 columns: longitude 180 is a column of its own). */
const cellOf = (latitude: number, longitude: number): number => Math.floor(latitude + 90) * 361 + Math.floor(longitude + 180)

/**
 * The market serving a pickup: the first of `ordered` (the smallest area first) that serves it.
 * Each 1° cell lists the markets whose reach touches it, in that order, so a pickup is tested
 * against the few markets near it, however many are loaded (a scan of every market cost a NYC
 * quote 0.6 µs with the ten shipped, against 0.06 µs with four).
 */
export const marketFinder = (ordered: ReadonlyArray<ServedMarket>): ((p: Coordinates) => ServedMarket | undefined) => {
  const cells = new Map<number, Array<ServedMarket>>()
  for (const m of ordered) {
    const listed = new Set<number>()
    for (const box of servedBoxes(m)) {
      for (let lat = Math.floor(box.south); lat <= Math.floor(box.north); lat++) {
        for (let lon = Math.floor(box.west); lon <= Math.floor(box.east); lon++) {
          const cell = cellOf(lat, lon)
          if (listed.has(cell)) continue
          listed.add(cell)
          const list = cells.get(cell)
          if (list === undefined) cells.set(cell, [m])
          else list.push(m)
        }
      }
    }
  }
  return (p) => cells.get(cellOf(p.latitude, p.longitude))?.find((m) => servesPoint(m, p))
}

/** MarketData over calibrated markets and an optional fallback. */
export const marketDataOf = (markets: ReadonlyArray<ServedMarket>, fallback: Market | undefined): MarketData => {
  const ordered = markets.map(withCoverage).sort((a, b) => extent(areaOf(a)) - extent(areaOf(b)) || (a.id < b.id ? -1 : 1))
  const all: ReadonlyArray<Market> = fallback === undefined ? ordered : [...ordered, fallback]
  const find = marketFinder(ordered)
  // Only on a refusal: every market's distance from the point, for the error to name the nearest.
  const nearestTo = (pickup: Coordinates): ReadonlyArray<NearestMarket> =>
    ordered.map((m) => ({ id: m.id, name: m.name, distanceKm: distanceKmToArea(areaOf(m), pickup) }))
  return {
    markets: all,
    marketAt: (pickup: Coordinates) => {
      const found = find(pickup) ?? fallback
      return found !== undefined ? Effect.succeed(found) : Effect.fail(marketNotServed(pickup, nearestTo(pickup)))
    }
  }
}

/** MarketData: every model in `dir` plus (optionally) core's sample market. */
export const MarketsLive = (
  options: MarketsOptions
): Layer.Layer<MarketData, MarketModelInvalid, FileSystem.FileSystem> =>
  Layer.effect(
    MarketData,
    Effect.map(
      options.dir === undefined
        ? Effect.succeed([])
        // The shipped files are decoded in full by the tests: their cities' rules are read on first use.
        : loadMarketModels(options.dir, { rulesOnFirstUse: options.dir === SHIPPED_MARKETS_DIR }),
      (markets) => marketDataOf(markets, options.fallbackToSample ? sampleMarket : undefined)
    )
  )
