import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it, layer } from "@effect/vitest"
import { DateTime, Effect, Either, Layer } from "effect"
import { MarketData, SAMPLE_MARKET_ID } from "@ridequote/core"
import type { Coordinates, Market, Trip } from "@ridequote/core"
import { calibratedMarket, joinMarkets, MarketsLive, meterAmount, parseModel, SHIPPED_MARKETS_DIR, versionAt } from "@ridequote/markets"
import { readFileSync } from "node:fs"
import { loadTariff, meterCharges, meterOn, MILE, tariffOf, view } from "./cities/support.js"
import { suppliedTrip } from "./trips.js"

/** The shipped models, relative to the repository root (where vitest runs). */
const SHIPPED = SHIPPED_MARKETS_DIR

const TIMES_SQUARE = { latitude: 40.758, longitude: -73.9855 }
const JFK = { latitude: 40.6413, longitude: -73.7781 }
const CHICAGO_LOOP = { latitude: 41.8781, longitude: -87.6298 }
const LISBON = { latitude: 38.7223, longitude: -9.1393 }

/** A 27 km, 45 min realtime trip from Times Square on its own route, starting at `iso`: the airport trips below. */
const fromTimesSquare = (market: Market, destination: Coordinates, iso: string): Trip => {
  const at = DateTime.unsafeMake(iso)
  return {
    pickup: TIMES_SQUARE,
    destination,
    distanceKm: 27,
    durationMinutes: 45,
    mode: "Realtime",
    routeSource: "supplied",
    localTime: market.localTime(at, TIMES_SQUARE),
    departAt: at
  }
}

describe("market selection by pickup", () => {
  layer(MarketsLive({ dir: SHIPPED, fallbackToSample: true }).pipe(Layer.provide(NodeFileSystem.layer)))((it) => {
    it.effect("a New York pickup is priced in the nyc market", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        expect((yield* markets.marketAt(TIMES_SQUARE)).id).toBe("nyc")
        expect((yield* markets.marketAt(JFK)).id).toBe("nyc")
      }))

    it.effect("a Chicago pickup is priced in the chicago market", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        expect((yield* markets.marketAt(CHICAGO_LOOP)).id).toBe("chicago")
      }))

    it.effect("a Chicago taxi of today is on the 2026 rule and carries its caveat; one of 2026-06-30 is on the 2016 rule and says nothing; one of 2015 on the 2012 rule, whose caveat names the airport tax of those years (amount not found)", () =>
      Effect.gen(function*() {
        const chicago = yield* (yield* MarketData).marketAt(CHICAGO_LOOP)
        const at = suppliedTrip(chicago, CHICAGO_LOOP, { latitude: 41.9214, longitude: -87.6513 }, 5.5, 15)
        const [today] = chicago.offers(at("2026-11-24T17:00:00Z"))
        expect(today?.source?.tariff?.effectiveFrom).toBe("2026-07-01")
        expect(today?.source?.level?.evidence).toMatch(/BACP notice of the rates in force from 2026-07-01 .*\$0\.31 per 45 s.*last checked 2026-12-06/)
        // The day before: the 2016 rule, no longer caveated (the ordinance it awaited is in the file).
        const [june] = chicago.offers(at("2026-06-30T17:00:00Z"))
        expect(june?.source?.tariff?.effectiveFrom).toBe("2016-01-01")
        expect(june?.source?.level).toEqual({ asOf: "2016-01-01" })
        // Both Tuesdays at 11:00 (no surcharge): $0.31 per 1/9 mile against $0.25 moves every quantile up.
        expect(today?.distribution.quantile(0.5)).toBeGreaterThan(june?.distribution.quantile(0.5) ?? Infinity)
        const [past] = chicago.offers(at("2015-11-24T17:00:00Z"))
        expect(past?.source?.tariff?.effectiveFrom).toBe("2012-07-01")
        expect(past?.source?.level?.asOf).toBe("2012-07-01")
        // An airport tax existed (Chicago Tribune 1993-01-11); its 2012–2015 amount was not found, so none is charged.
        expect(past?.source?.level?.evidence).toMatch(/^An airport tax existed before this version: .*Chicago Tribune, 1993-01-11.*amount in force from 2012-07-01 to 2015-12-31 was not found.*\(last checked 2026-12-06\)$/)
        expect(past?.source?.tariff?.charges ?? []).toEqual([])
        // Older than every rule the file has: priced on the earliest, and the offer says so.
        const [older] = chicago.offers(at("2011-11-22T17:00:00Z"))
        expect(older?.source?.tariff?.effectiveFrom).toBe("2012-07-01")
        expect(older?.source?.level?.asOf).toBe("2012-07-01")
        expect(older?.source?.level?.evidence).toMatch(/^the trip's date 2011-11-22 is before the earliest rule known for this market \(.*, in force from 2012-07-01\): priced on that rule, not on the one in force on 2011-11-22; An airport tax existed before this version: /)
        // The shared source of in-force quotes is not touched by it.
        expect(chicago.offers(at("2015-11-24T17:00:00Z"))[0]?.source?.level?.evidence).toMatch(/^An airport tax existed/)
      }))

    it.effect("a shared taxi from O'Hare or Midway costs the City's flat fee per person to Downtown or McCormick Place and between the airports; no other trip offers it", () =>
      Effect.gen(function*() {
        const chicago = yield* (yield* MarketData).marketAt(CHICAGO_LOOP)
        const OHARE = { latitude: 41.9779, longitude: -87.9042 }
        const MIDWAY = { latitude: 41.7868, longitude: -87.7522 }
        const MCCORMICK = { latitude: 41.8516, longitude: -87.6155 }
        const LINCOLN_SQUARE = { latitude: 41.9689, longitude: -87.6889 }
        const shared = (from: Coordinates, to: Coordinates, iso: string) =>
          chicago.offers(suppliedTrip(chicago, from, to, 28, 45)(iso)).find((o) => o.serviceLevel === "Shared")
        const price = (from: Coordinates, to: Coordinates, iso = "2026-11-24T17:00:00Z") => {
          const offer = shared(from, to, iso)
          return offer === undefined ? undefined : [0.05, 0.5, 0.95].map((q) => offer.distribution.quantile(q))
        }
        // From 2026-07-01, the 2025 ordinance's fees: $30 O'Hare → Downtown or McCormick Place, $22 from Midway, $45 between the airports.
        expect(price(OHARE, CHICAGO_LOOP)).toEqual([30, 30, 30])
        expect(price(OHARE, MCCORMICK)).toEqual([30, 30, 30])
        expect(price(MIDWAY, CHICAGO_LOOP)).toEqual([22, 22, 22])
        expect(price(MIDWAY, MCCORMICK)).toEqual([22, 22, 22])
        expect(price(OHARE, MIDWAY)).toEqual([45, 45, 45])
        expect(price(MIDWAY, OHARE)).toEqual([45, 45, 45])
        expect(price(OHARE, CHICAGO_LOOP, "2026-07-01T17:00:00Z")).toEqual([30, 30, 30])
        // The day before, BACP's earlier rates: $24 O'Hare → Downtown or McCormick Place, $18 from Midway, $37 between the airports.
        expect(price(OHARE, CHICAGO_LOOP, "2026-06-30T17:00:00Z")).toEqual([24, 24, 24])
        expect(price(OHARE, MCCORMICK, "2026-06-30T17:00:00Z")).toEqual([24, 24, 24])
        expect(price(MIDWAY, CHICAGO_LOOP, "2026-06-30T17:00:00Z")).toEqual([18, 18, 18])
        expect(price(MIDWAY, MCCORMICK, "2026-06-30T17:00:00Z")).toEqual([18, 18, 18])
        expect(price(OHARE, MIDWAY, "2026-06-30T17:00:00Z")).toEqual([37, 37, 37])
        expect(price(MIDWAY, OHARE, "2026-06-30T17:00:00Z")).toEqual([37, 37, 37])
        // Only from the airport cab stands, only to Downtown (north of 22nd Street, south of
        // Fullerton, east of Ashland) or McCormick Place.
        expect(price(CHICAGO_LOOP, OHARE)).toBeUndefined()
        expect(price(OHARE, LINCOLN_SQUARE)).toBeUndefined()
        expect(price(CHICAGO_LOOP, { latitude: 41.9214, longitude: -87.6513 })).toBeUndefined()
        const offer = shared(OHARE, CHICAGO_LOOP, "2026-11-24T17:00:00Z")
        expect(offer?.provider).toBe("chicago-taxi")
        expect(offer?.source?.product).toBe("Shared taxi from the airport cab stands (per person)")
        expect(offer?.source?.fare).toBe("O'Hare to Downtown or McCormick Place, shared ride (per person)")
        expect(offer?.source?.records).toBeUndefined()
        expect(offer?.source?.tariff?.effectiveFrom).toBe("2026-07-01")
        expect(offer?.source?.level?.evidence).toMatch(/inferred from their being in the same ordinance.*\$6 \(O'Hare\), \$4 \(Midway\) or \$8 .*last checked 2026-12-06/)
        const before = shared(OHARE, CHICAGO_LOOP, "2026-06-30T17:00:00Z")
        expect(before?.source?.tariff?.url).toBe("https://www.chicago.gov/city/en/depts/bacp/supp_info/chicabs.html")
        expect(before?.source?.level?.evidence).toBeUndefined()
        // The metered taxi of the same trip is still offered beside it.
        expect(chicago.offers(suppliedTrip(chicago, OHARE, CHICAGO_LOOP, 28, 45)("2026-11-24T17:00:00Z")).map((o) => o.serviceLevel))
          .toEqual(["Standard", "Shared"])
        // No records stand behind it: before the earliest rule the file knows, it has no price.
        expect(shared(OHARE, CHICAGO_LOOP, "2025-09-01T17:00:00Z")?.distribution.quantile(0.5)).toBe(24)
        expect(shared(OHARE, CHICAGO_LOOP, "2025-08-31T17:00:00Z")).toBeUndefined()
        expect(shared(OHARE, CHICAGO_LOOP, "2019-11-12T17:00:00Z")).toBeUndefined()
      }))

    it.effect("a Lisbon pickup falls back to the sample market", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        expect((yield* markets.marketAt(LISBON)).id).toBe(SAMPLE_MARKET_ID)
      }))

    it.effect("calibrated markets quote USD from the real providers of their city", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        const nyc = yield* markets.marketAt(TIMES_SQUARE)
        expect(nyc.currency).toBe("USD")
        const trip = {
          pickup: TIMES_SQUARE,
          destination: JFK,
          distanceKm: 27,
          durationMinutes: 45,
          mode: "Realtime" as const,
          routeSource: "supplied" as const,
          localTime: nyc.localTime(DateTime.unsafeMake("2019-03-05T13:15:00Z"), TIMES_SQUARE)
        }
        // A rider chooses a yellow taxi, not its meter vendor (their prices do not differ), or a ride-hail app.
        expect(nyc.offers(trip).map((o) => `${o.provider}/${o.serviceLevel}=${o.source?.product}`)).toEqual([
          "yellow-taxi/Standard=Yellow taxi",
          "lyft/Standard=Lyft",
          "uber/Standard=Uber",
          "via/Standard=Via"
        ])
      }))

    it.effect("Times Square → JFK is priced on the TLC's flat fare in force at the trip's date, with its surcharges, fees and the tolls the records show", () =>
      Effect.gen(function*() {
        const nyc = yield* (yield* MarketData).marketAt(TIMES_SQUARE)
        const tripAt = (iso: string, routeSource: "supplied" | "resolved" = "supplied") => ({ ...fromTimesSquare(nyc, JFK, iso), routeSource })
        const priced = (iso: string, routeSource?: "supplied" | "resolved") => {
          const [offer] = nyc.offers(tripAt(iso, routeSource))
          return { offer, p: [0.05, 0.25, 0.5, 0.75, 0.95].map((q) => Number(offer?.distribution.quantile(q).toFixed(2))) }
        }
        // Wednesday 2026-11-25, 10:00: $70 (2022 rule) + MTA tax 0.50 + improvement 1.00 +
        // congestion 2.50 + Congestion Relief Zone 0.75 = 74.75, + the toll the records show most (6.12).
        const now = priced("2026-11-25T15:00:00Z")
        expect(now.offer?.source?.fare).toBe("JFK–Manhattan flat fare")
        expect(now.offer?.source?.tariff?.effectiveFrom).toBe("2022-12-19")
        expect(now.offer?.source?.records).toEqual({ kind: "trips", from: "2019-07-01", to: "2019-12-31" })
        expect(now.p[0]).toBe(74.75)
        expect(now.p[2]).toBe(80.87)
        // 17:00 on a weekday: the flat fare's $5 rush hour surcharge; not on Thanksgiving (a legal holiday).
        expect(priced("2026-11-25T22:00:00Z").p[0]).toBe(79.75)
        expect(priced("2026-11-26T22:00:00Z").p[0]).toBe(74.75)
        // The same fare whatever the distance and the route source: it is flat.
        expect(priced("2026-11-25T15:00:00Z", "resolved").p).toEqual(now.p)
        // In 2019 the $52 fare of the 2012 rule: 52 + 0.50 + 0.30 + congestion 2.50, + 6.12 toll.
        expect(priced("2019-11-12T16:00:00Z").p[0]).toBe(55.3)
        expect(priced("2019-11-12T16:00:00Z").p[2]).toBe(61.42)
        // In 2018, before the congestion surcharge: 52 + 0.50 + 0.30 + 5.76 toll.
        expect(priced("2018-06-05T15:00:00Z").p[2]).toBe(58.56)
        // The other way round too.
        const back = nyc.offers({ ...tripAt("2026-11-25T15:00:00Z"), pickup: JFK, destination: TIMES_SQUARE })
        expect(back[0]?.distribution.quantile(0.5).toFixed(2)).toBe("82.87") // + the $2.00 airport pickup fee (2026-03-15)
        // Jersey City is in the NYC box but not in Manhattan: Jersey City → JFK is on the meter.
        const jerseyCity = { latitude: 40.7178, longitude: -74.0431 }
        const fromNj = nyc.offers({ ...tripAt("2026-11-25T15:00:00Z"), pickup: jerseyCity })
        expect(fromNj[0]?.source?.fare).toBeUndefined()
        // A trip inside Manhattan stays on the meter.
        const local = nyc.offers({ ...tripAt("2026-11-25T15:00:00Z"), destination: { latitude: 40.7128, longitude: -74.006 }, distanceKm: 6 })
        expect(local[0]?.source?.fare).toBeUndefined()
        expect(local[0]?.source?.tariff?.name).toBe("TLC taximeter rate of fare (2022)")
      }))

    it.effect("NYC's Uber, Lyft and Via (one night of May 2020) join the yellow taxi; the flat fare is the taxi's alone", () =>
      Effect.gen(function*() {
        const nyc = yield* (yield* MarketData).marketAt(TIMES_SQUARE)
        const trip = fromTimesSquare(nyc, JFK, "2026-11-25T15:00:00Z")
        const offers = nyc.offers(trip)
        expect(offers.map((o) => `${o.provider}/${o.serviceLevel}=${o.source?.product}`)).toEqual([
          "yellow-taxi/Standard=Yellow taxi",
          "lyft/Standard=Lyft",
          "uber/Standard=Uber",
          "via/Standard=Via"
        ])
        for (const o of offers.slice(1)) {
          expect(o.source?.records).toEqual({ kind: "trips", from: "2020-05-01", to: "2020-05-01" })
          // Priced by distance: a longer ride costs more.
          const longer = nyc.offers({ ...trip, distanceKm: 35 }).find((x) => x.provider === o.provider)
          expect(longer?.distribution.quantile(0.5)).toBeGreaterThan(o.distribution.quantile(0.5))
        }
        expect(offers[0]?.source?.fare).toMatch(/flat fare/)
      }))

    it.effect("Times Square → Newark airport: the meter plus the Newark surcharge and tolls", () =>
      Effect.gen(function*() {
        const nyc = yield* (yield* MarketData).marketAt(TIMES_SQUARE)
        const EWR = { latitude: 40.6895, longitude: -74.1745 }
        const trip = fromTimesSquare(nyc, EWR, "2026-11-25T15:00:00Z")
        const [newark] = nyc.offers(trip)
        expect(newark?.source?.tariff?.charges).toContain("Newark surcharge")
        // The same trip on the meter alone (a point near but outside the Newark zone is not EWR).
        const [metered] = nyc.offers({ ...trip, destination: { latitude: 40.745, longitude: -74.03 } })
        expect(metered?.source?.tariff?.charges).not.toContain("Newark surcharge")
        const extra = (newark?.distribution.quantile(0.5) ?? 0) - (metered?.distribution.quantile(0.5) ?? 0)
        // The $20 surcharge (2022 rule) + the tolls the records' Newark trips paid.
        expect(extra).toBeGreaterThan(20)
        expect(extra).toBeLessThan(40)
      }))
  })

  layer(MarketsLive({ dir: SHIPPED, fallbackToSample: false }).pipe(Layer.provide(NodeFileSystem.layer)))((it) => {
    it.effect("without the fallback a place no market serves is MarketNotServed", () =>
      Effect.gen(function*() {
        const markets = yield* MarketData
        const result = yield* Effect.either(markets.marketAt(LISBON))
        expect(Either.isLeft(result) && result.left._tag).toBe("MarketNotServed")
        // The refusal names the nearest markets, measured to their areas: from Lisbon, Madrid
        // (~497 km to its box), then Barcelona (~995 km).
        const nearest = Either.isLeft(result) ? result.left.nearest ?? [] : []
        expect(nearest.length).toBe(Math.min(3, markets.markets.length))
        expect(nearest.map((m) => m.distanceKm)).toEqual([...nearest.map((m) => m.distanceKm)].sort((a, b) => a - b))
        expect(nearest.slice(0, 2).map((m) => m.id)).toEqual(["madrid", "barcelona"])
        expect(nearest[0]?.distanceKm).toBeGreaterThan(450)
        expect(nearest[0]?.distanceKm).toBeLessThan(550)
        expect(nearest[1]?.distanceKm).toBeGreaterThan(900)
        expect(nearest[1]?.distanceKm).toBeLessThan(1_100)
        expect(Either.isLeft(result) && result.left.message).toMatch(/^no market serves \(.*\); nearest: .+ \([\d,]+ km\)/)
        expect((yield* markets.marketAt(TIMES_SQUARE)).id).toBe("nyc")
      }))
  })

  it.effect("a folder with a bad model fails to load, naming the file", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(
        Effect.provide(MarketData, MarketsLive({ dir: "packages/markets/test/fixtures/bad-markets", fallbackToSample: true }))
      )
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(result.left.message).toContain("bad-markets/wrong-version.json")
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})

describe("models that join another market", () => {
  const read = (name: string) =>
    Either.getOrThrow(parseModel(name, readFileSync(`${SHIPPED}/${name}`, "utf8")))

  it.effect("a joining model whose market is not loaded, or that repeats one of its providers, is refused", () =>
    Effect.gen(function*() {
      const rideHail = calibratedMarket(read("nyc-ride-hail.json"))
      const alone = yield* Effect.either(joinMarkets([rideHail], () => "nyc-ride-hail.json"))
      expect(Either.isLeft(alone) && alone.left.message).toMatch(/joins market "nyc", which is not in the folder/)
      const nyc = read("nyc.json")
      const twice = calibratedMarket({ ...read("nyc-ride-hail.json"), providers: [...rideHail.model.providers.slice(0, 2), { provider: "yellow-taxi", serviceLevel: "Standard" }] })
      const clash = yield* Effect.either(joinMarkets([calibratedMarket(nyc), twice], () => "clash.json"))
      expect(Either.isLeft(clash) && clash.left.message).toMatch(/yellow-taxi\/Standard is already in market "nyc"/)
      const joined = yield* joinMarkets([calibratedMarket(nyc), rideHail], () => "")
      expect(joined.map((m) => m.id)).toEqual(["nyc"])
    }))
})

describe("Chicago's meter from 2026-07-01: the 2025 ordinance ($0.31 per 1/9 mile, $0.25 per 45 s, rush and overnight surcharges)", () => {
  const doc = loadTariff("chicago")
  const taxi = tariffOf(doc)
  it("takes effect on 2026-07-01; the 2016 rule holds to 2026-06-30", () => {
    expect(["2016-01-01", "2026-06-30", "2026-07-01", "2026-11-24"].map((d) => versionAt(taxi, d).effectiveFrom))
      .toEqual(["2016-01-01", "2016-01-01", "2026-07-01", "2026-07-01"])
  })
  it("charges $3.25 for the first 1/9 mile, then each completed 1/9 mile at $0.31 and each completed 45 s of slow time at $0.25", () => {
    const meter = meterOn(taxi, "2026-11-24")
    // 5 km past the first 1/9 mile (0.178816 km): 4.821184 ÷ 0.178816 = 26.96, 26 completed units.
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 0 })).toBeCloseTo(3.25 + 26 * 0.31, 9)
    // 10 slow minutes: 600 s ÷ 45 = 13.3, 13 completed units: 3.25 + 8.06 + 3.25 = 14.56.
    expect(meterAmount(meter, { meterKm: 5, meterSeconds: 600 })).toBeCloseTo(14.56, 9)
    // The first 1/9 mile alone is the flag.
    expect(meterAmount(meter, { meterKm: MILE / 9, meterSeconds: 44 })).toBeCloseTo(3.25, 9)
    // The speed at which time and distance pay alike: $20.00 an hour against $0.31 per 0.178816 km.
    expect(meter.time.crossoverKmh).toBeCloseTo(20 / (0.31 / 0.178816), 2)
    // The same trip on the 2016 rule: 26 × $0.25 and 16 completed 36 s (600 ÷ 36 = 16.7) × $0.20.
    expect(meterAmount(meterOn(taxi, "2026-06-30"), { meterKm: 5, meterSeconds: 600 })).toBeCloseTo(3.25 + 6.5 + 3.2, 9)
  })
  it("adds $2.50 from 15:30 to 19:00 and $1.00 from 20:00 to 06:00, every day; the $4.00 departure tax from the airports is unchanged", () => {
    const extra = (date: string, minute: number, pickup: ReadonlySet<string> = new Set()) =>
      Number((meterCharges(taxi, view(date, minute, pickup)).total(10, 0) - 10).toFixed(2))
    // Tuesday 2026-11-24 and Sunday 2026-11-29, at 11:00, 15:29, 15:30, 18:59, 19:00, 19:59, 20:00, 05:59, 06:00.
    const minutes = [660, 929, 930, 1139, 1140, 1199, 1200, 359, 360]
    expect(minutes.map((m) => extra("2026-11-24", m))).toEqual([0, 0, 2.5, 2.5, 0, 0, 1, 1, 0])
    expect(minutes.map((m) => extra("2026-11-29", m))).toEqual([0, 0, 2.5, 2.5, 0, 0, 1, 1, 0])
    expect(extra("2026-11-24", 660, new Set(["ohare-airport"]))).toBe(4)
    expect(extra("2026-11-24", 1020, new Set(["midway-airport"]))).toBe(6.5)
    // None of them on the 2016 rule the day before, but the departure tax.
    expect([extra("2026-06-30", 1020), extra("2026-06-30", 1380), extra("2026-06-30", 660, new Set(["ohare-airport"]))]).toEqual([0, 0, 4])
  })
})
