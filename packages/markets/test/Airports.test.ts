/**
 * Airports as places callers name (docs/airports.md): each shipped airport's reference point
 * is in the zone its rules name, so a quote that starts or ends there gets the airport's rule
 * (one test per kind of rule: a fixed fare, a pick-up fee, an airport meter), and a point
 * outside the zone does not; and each market's reach (a destination far beyond it is refused).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { MarketData, reachRule } from "@ridequote/core"
import type { Coordinates, Market } from "@ridequote/core"
import {
  DEFAULT_REACH_KM,
  definedMarket,
  loadMarketModels,
  MarketsLive,
  parseTariff,
  reachOfMarket,
  SHIPPED_MARKETS_DIR
} from "@ridequote/markets"
import type { TariffDocument } from "@ridequote/markets"
import { readdirSync, readFileSync } from "node:fs"
import { suppliedTrip } from "./trips.js"

const shippedTariffs: ReadonlyArray<TariffDocument> = readdirSync(SHIPPED_MARKETS_DIR)
  .filter((name) => name.endsWith("-tariff.json"))
  .map((name) => Either.getOrThrow(parseTariff(name, readFileSync(`${SHIPPED_MARKETS_DIR}/${name}`, "utf8"))))

const airportOf = (iata: string): Coordinates => {
  const found = shippedTariffs.flatMap((t) => t.airports).find((a) => a.iata === iata)
  if (found === undefined) throw new Error(`no shipped airport ${iata}`)
  return { latitude: found.latitude, longitude: found.longitude }
}

/** `km` due north of `p` (1° of latitude = 111.195 km on the mean sphere). */
const north = (p: Coordinates, km: number): Coordinates => ({ latitude: p.latitude + km / 111.195, longitude: p.longitude })

const TIMES_SQUARE = { latitude: 40.758, longitude: -73.9855 }
const TOKYO_STATION = { latitude: 35.6812, longitude: 139.7671 }
/** Chiyoda ward office: the centre of the fixed-fare zone of 千代田区. */
const CHIYODA = { latitude: 35.694, longitude: 139.7536 }
const UNION_SQUARE_SF = { latitude: 37.788, longitude: -122.4075 }
const MARINA_BAY = { latitude: 1.2834, longitude: 103.8607 }
const ALEXANDERPLATZ = { latitude: 52.5219, longitude: 13.4132 }

describe("airports of the shipped tariff files", () => {
  it("list the airports the brief names, each code once across the files", () => {
    const codes = shippedTariffs.flatMap((t) => t.airports.map((a) => `${t.market}:${a.iata}`)).sort()
    for (const code of ["nyc:JFK", "nyc:LGA", "nyc:EWR", "chicago:ORD", "chicago:MDW", "boston:BOS", "san-francisco:SFO", "tokyo:HND", "berlin:BER", "singapore:SIN", "amsterdam:AMS", "hong-kong:HKG"]) {
      expect(codes).toContain(code)
    }
    const iatas = codes.map((c) => c.split(":")[1])
    expect(new Set(iatas).size).toBe(iatas.length)
  })

  it("each airport's reference point lies in the zone its rules name (what makes a trip from the listed point 'at' the airport)", () => {
    for (const t of shippedTariffs) {
      const market = definedMarket(t)
      for (const airport of t.airports) {
        const zone = t.zones[airport.zone]
        expect(zone, `${t.market} ${airport.iata}`).toBeDefined()
        if (market === undefined) continue
        expect(market.tariffs.locate(airport).has(airport.zone), `${t.market} ${airport.iata} in ${airport.zone}`).toBe(true)
      }
    }
  })
})

describe("a quote at the airport gets the airport's rule", () => {
  layer(MarketsLive({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false }).pipe(Layer.provide(NodeFileSystem.layer)))((it) => {
    it.effect("every listed airport is served by the market that lists it (a pickup there is quoted by that market)", () =>
      Effect.gen(function*() {
        const data = yield* MarketData
        for (const t of shippedTariffs) {
          for (const airport of t.airports) {
            expect((yield* data.marketAt(airport)).id, airport.iata).toBe(t.market)
          }
        }
      }))

    it.effect("a fixed fare: Haneda → Chiyoda at 23:00 on 2026-12-08 is the ¥9,000 late-night fixed fare; from 3 km outside the zone it is the meter", () =>
      Effect.gen(function*() {
        const tokyo = yield* (yield* MarketData).marketAt(airportOf("HND"))
        // 23:00 in Tokyo = 14:00 UTC.
        const at = "2026-12-08T14:00:00Z"
        const [fixed] = tokyo.offers(suppliedTrip(tokyo, airportOf("HND"), CHIYODA, 18, 30)(at))
        expect(fixed?.source?.fare).toBe("Haneda fixed fare, 千代田区 Chiyoda, late night 22:00–05:00")
        expect(fixed?.distribution.quantile(0.05)).toBe(9000)
        expect(fixed?.distribution.quantile(0.95)).toBe(9000)
        // The zone is 2 km round the terminals: 3 km north is not at the airport.
        const [metered] = tokyo.offers(suppliedTrip(tokyo, north(airportOf("HND"), 3), CHIYODA, 18, 30)(at))
        expect(metered?.source?.fare).toBeUndefined()
        expect(metered?.distribution.quantile(0.05)).not.toBe(metered?.distribution.quantile(0.95))
      }))

    it.effect("a pick-up fee: SFO → Union Square on 2026-12-08 pays the SFO pick-up fee; Union Square → SFO does not", () =>
      Effect.gen(function*() {
        const data = yield* MarketData
        const sf = yield* data.marketAt(airportOf("SFO"))
        const at = "2026-12-08T18:00:00Z"
        const [from] = sf.offers(suppliedTrip(sf, airportOf("SFO"), UNION_SQUARE_SF, 22, 30)(at))
        expect(from?.source?.tariff?.charges).toContain("SFO pick-up fee")
        const [to] = sf.offers(suppliedTrip(sf, UNION_SQUARE_SF, airportOf("SFO"), 22, 30)(at))
        expect(to?.source?.tariff?.charges ?? []).not.toContain("SFO pick-up fee")
        // The fee is $5.50 on every percentile (2021-08-04 on).
        for (const q of [0.05, 0.5, 0.95]) {
          expect((from?.distribution.quantile(q) ?? 0) - (to?.distribution.quantile(q) ?? 0)).toBeCloseTo(5.5, 2)
        }
      }))

    it.effect("a pick-up surcharge by time: Changi → Marina Bay at 10:00 on 2026-12-08 pays the Changi Airport surcharge; Marina Bay → Changi does not", () =>
      Effect.gen(function*() {
        const sg = yield* (yield* MarketData).marketAt(airportOf("SIN"))
        const at = "2026-12-08T02:00:00Z" // 10:00 in Singapore
        const [from] = sg.offers(suppliedTrip(sg, airportOf("SIN"), MARINA_BAY, 20, 25)(at))
        expect(from?.source?.tariff?.charges).toContain("Changi Airport surcharge")
        const [to] = sg.offers(suppliedTrip(sg, MARINA_BAY, airportOf("SIN"), 20, 25)(at))
        expect(to?.source?.tariff?.charges ?? []).not.toContain("Changi Airport surcharge")
      }))

    it.effect("an airport meter: BER → Alexanderplatz on 2026-12-08 is on Tarifstufe 3 (trips from BER); the way back on the city meter", () =>
      Effect.gen(function*() {
        const berlin = yield* (yield* MarketData).marketAt(airportOf("BER"))
        const at = "2026-12-08T11:00:00Z"
        const [from] = berlin.offers(suppliedTrip(berlin, airportOf("BER"), ALEXANDERPLATZ, 25, 35)(at))
        expect(from?.source?.fare).toBe("Tarifstufe 3 (trips from BER)")
        const [to] = berlin.offers(suppliedTrip(berlin, ALEXANDERPLATZ, airportOf("BER"), 25, 35)(at))
        expect(to?.source?.fare).toBeUndefined()
      }))
  })
})

describe("a market's reach", () => {
  const loaded = loadMarketModels(SHIPPED_MARKETS_DIR).pipe(Effect.provide(NodeFileSystem.layer))
  const marketNamed = (id: string) => Effect.map(loaded, (ms) => {
    const found = ms.find((m) => m.id === id)
    if (found === undefined) throw new Error(`no market ${id}`)
    return found
  })
  const refusal = (market: Market, destination: Coordinates) => Either.flip(reachRule(market, destination))

  it.effect("New York: a destination in Asia is not served, naming the market, its 150 km reach and the distance; JFK → Manhattan and a destination 100 km out are", () =>
    Effect.gen(function*() {
      const served = yield* marketNamed("nyc")
      const nyc: Market = { ...served, reach: reachOfMarket(served) }
      expect(nyc.reach?.km).toBe(DEFAULT_REACH_KM)
      const asia = refusal(nyc, TOKYO_STATION)
      expect(Either.isRight(asia)).toBe(true)
      if (Either.isRight(asia)) {
        expect(asia.right.reason).toBe("destination-beyond-reach")
        expect(asia.right.reach?.market).toBe("nyc")
        expect(asia.right.reach?.reachKm).toBe(150)
        expect(asia.right.reach?.distanceKm).toBeGreaterThan(10_000)
      }
      expect(Either.isRight(reachRule(nyc, TIMES_SQUARE))).toBe(true)
      expect(Either.isRight(reachRule(nyc, airportOf("JFK")))).toBe(true)
      // The NYC box's north edge is 40.9175: 100 km beyond it is served, 160 km is not.
      const edge = { latitude: 40.9175, longitude: -73.9 }
      expect(Either.isRight(reachRule(nyc, north(edge, 100)))).toBe(true)
      expect(Either.isLeft(reachRule(nyc, north(edge, 160)))).toBe(true)
    }))

  it.effect("a defined market reaches from its area and from the airport zones it also serves (SFO), and define.reachKm sets its own reach", () =>
    Effect.gen(function*() {
      const sf = yield* marketNamed("san-francisco")
      const reach = reachOfMarket(sf)
      // San Jose is 50 km from the SFO zone's box (farther from the city's): within 150 km.
      expect(reach.distanceKm({ latitude: 37.3382, longitude: -121.8863 })).toBeCloseTo(50.4, 0)
      expect(reach.distanceKm(airportOf("SFO"))).toBe(0)
      const tariff = shippedTariffs.find((t) => t.market === "san-francisco")
      const define = tariff?.define
      if (tariff === undefined || define === undefined) return expect.unreachable("san-francisco defines its market")
      const near = definedMarket({ ...tariff, define: { ...define, reachKm: 20 } })
      if (near === undefined) return expect.unreachable("a defined market")
      expect(reachOfMarket(near).km).toBe(20)
    }))
})
