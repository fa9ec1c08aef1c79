/** One test per quote rule, bound and audit rule of docs/api.md ("POST /v1/quote"), through `Quotes.quote`. */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Layer, TestClock } from "effect"
import type { BehaviorId } from "../../src/Ids.js"
import { MarketNotServed, noRuleForDate } from "../../src/Errors.js"
import { MarketData } from "../../src/ports/MarketData.js"
import type { Market, Trip } from "../../src/ports/MarketData.js"
import { RouteResolver } from "../../src/ports/RouteResolver.js"
import { Quotes } from "../../src/pricing/Quotes.js"
import { SAMPLE_OFFERS, servingEverywhere } from "../../src/pricing/SampleMarket.js"
import { sampleMarket } from "../../src/pricing/SampleMarket.js"
import { tariffMarket } from "../../src/pricing/TariffMarket.js"
import { SAMPLE_DEMAND } from "../../src/pricing/SampleMarket.js"
import { InMemoryAudit } from "../../src/testing/pricing.js"
import type { QuoteRequest } from "../../src/Quote.js"
import { RECOMMENDATION_LABELS } from "../../src/Quote.js"
import { account, BERLIN, BERLIN_WEST, context, engine, recordingResolver } from "./fixtures.js"

const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0)
const NOW = DateTime.unsafeMake(NOW_MS)
const MIN = 60_000
const DAY = 86_400_000

const supplied: QuoteRequest = { pickup: BERLIN, destination: BERLIN_WEST, distanceKm: 12.4, durationMinutes: 27 }
const at = (offsetMs: number) => DateTime.unsafeMake(NOW_MS + offsetMs)

/** Runs one quote at NOW (TestClock) and returns its exit plus what the audit recorded. */
const quoteAt = (request: QuoteRequest, options: Parameters<typeof engine>[0] = {}, who = account()) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(NOW_MS)
    const quotes = yield* Quotes
    const exit = yield* Effect.exit(quotes.quote(who, request, context(NOW)))
    const records = yield* (yield* InMemoryAudit).records
    return { exit, records }
  }).pipe(Effect.provide(engine(options)))

const failureCode = (exit: Exit.Exit<unknown, { readonly code: string }>): string | undefined =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error.code : undefined

describe("route metadata and mode rules", () => {
  it.effect("rule 1: neither distanceKm nor durationMinutes → the resolver infers both from pickup and destination", () =>
    Effect.gen(function*() {
      const resolver = recordingResolver({ distanceKm: 7.5, durationMinutes: 18 })
      const { exit, records } = yield* quoteAt({ pickup: BERLIN, destination: BERLIN_WEST }, {
        routeResolver: resolver.layer
      })
      const response = yield* exit
      expect(resolver.queries).toHaveLength(1)
      expect(resolver.queries[0]?.pickup).toEqual(BERLIN)
      expect(resolver.queries[0]?.destination).toEqual(BERLIN_WEST)
      expect([response.distanceKm, response.durationMinutes]).toEqual([7.5, 18])
      const decision = records[0]?.decision
      expect(decision?.outcome === "quoted" && decision.route).toEqual({ source: "resolved", distanceKm: 7.5, durationMinutes: 18 })
    }))

  it.effect("rule 2: both supplied → the route resolver is bypassed and the supplied values are used", () =>
    Effect.gen(function*() {
      const resolver = recordingResolver({ distanceKm: 99, durationMinutes: 99 })
      const { exit, records } = yield* quoteAt(supplied, { routeResolver: resolver.layer })
      const response = yield* exit
      expect(resolver.queries).toHaveLength(0)
      expect([response.distanceKm, response.durationMinutes]).toEqual([12.4, 27])
      const decision = records[0]?.decision
      expect(decision?.outcome === "quoted" && decision.route.source).toBe("supplied")
    }))

  it.effect("rule 3: exactly one of distanceKm and durationMinutes → 400 result:route-metadata-incomplete", () =>
    Effect.gen(function*() {
      for (const request of [
        { pickup: BERLIN, destination: BERLIN_WEST, distanceKm: 12.4 },
        { pickup: BERLIN, destination: BERLIN_WEST, durationMinutes: 27 }
      ]) {
        const resolver = recordingResolver({ distanceKm: 1, durationMinutes: 1 })
        const { exit, records } = yield* quoteAt(request, { routeResolver: resolver.layer })
        expect(failureCode(exit)).toBe("result:route-metadata-incomplete")
        expect(resolver.queries).toHaveLength(0)
        expect(records.map((r) => r.decision)).toMatchObject([
          { outcome: "rejected", code: "result:route-metadata-incomplete" }
        ])
      }
    }))

  it.effect("rule 4: scheduledAt at least 30 minutes in the future → Scheduled (exactly 30 minutes included)", () =>
    Effect.gen(function*() {
      for (const offset of [30 * MIN, 30 * MIN + 1, 31 * MIN, 2 * DAY, 90 * DAY]) {
        const { exit } = yield* quoteAt({ ...supplied, scheduledAt: at(offset) })
        expect((yield* exit).mode).toBe("Scheduled")
      }
    }))

  it.effect("rule 5: scheduledAt sooner than 30 minutes from now, in the past, or absent → Realtime", () =>
    Effect.gen(function*() {
      for (const scheduledAt of [at(30 * MIN - 1), at(29 * MIN), at(0), at(-60 * MIN), undefined]) {
        const request = scheduledAt === undefined ? supplied : { ...supplied, scheduledAt }
        const { exit } = yield* quoteAt(request)
        expect((yield* exit).mode).toBe("Realtime")
      }
    }))

  it.effect("account Pending or Blocked → 403 result:account-blocked, audited, nothing priced", () =>
    Effect.gen(function*() {
      for (const status of ["Pending", "Blocked"] as const) {
        const resolver = recordingResolver({ distanceKm: 1, durationMinutes: 1 })
        const { exit, records } = yield* quoteAt({ pickup: BERLIN, destination: BERLIN_WEST }, {
          routeResolver: resolver.layer
        }, account({ status }))
        expect(failureCode(exit)).toBe("result:account-blocked")
        expect(resolver.queries).toHaveLength(0)
        expect(records.map((r) => r.decision)).toMatchObject([{ outcome: "rejected", code: "result:account-blocked" }])
      }
    }))
})

describe("quote bounds", () => {
  it.effect("scheduledAt more than 90 days ahead → result:invalid-request; exactly 90 days is accepted", () =>
    Effect.gen(function*() {
      expect(failureCode((yield* quoteAt({ ...supplied, scheduledAt: at(90 * DAY + 1) })).exit)).toBe(
        "result:invalid-request"
      )
      expect(Exit.isSuccess((yield* quoteAt({ ...supplied, scheduledAt: at(90 * DAY) })).exit)).toBe(true)
    }))

  it.effect("distanceKm outside (0, 1000] → result:invalid-request; 1000 is accepted", () =>
    Effect.gen(function*() {
      for (const distanceKm of [0, -1, 1000.01, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(failureCode((yield* quoteAt({ ...supplied, distanceKm })).exit)).toBe("result:invalid-request")
      }
      expect(Exit.isSuccess((yield* quoteAt({ ...supplied, distanceKm: 1000 })).exit)).toBe(true)
    }))

  it.effect("durationMinutes outside (0, 1440] → result:invalid-request; 1440 is accepted", () =>
    Effect.gen(function*() {
      for (const durationMinutes of [0, -5, 1440.5, Number.NaN]) {
        expect(failureCode((yield* quoteAt({ ...supplied, durationMinutes })).exit)).toBe("result:invalid-request")
      }
      expect(Exit.isSuccess((yield* quoteAt({ ...supplied, durationMinutes: 1440 })).exit)).toBe(true)
    }))

  it.effect("coordinates outside latitude [-90, 90] / longitude [-180, 180] or not finite → result:invalid-request", () =>
    Effect.gen(function*() {
      for (const pickup of [{ latitude: 90.1, longitude: 0 }, { latitude: 0, longitude: -180.5 }, {
        latitude: Number.NaN,
        longitude: 0
      }]) {
        expect(failureCode((yield* quoteAt({ ...supplied, pickup })).exit)).toBe("result:invalid-request")
      }
      const poles = { pickup: { latitude: 90, longitude: 180 }, destination: { latitude: -90, longitude: -180 } }
      expect(Exit.isSuccess((yield* quoteAt({ ...supplied, ...poles })).exit)).toBe(true)
    }))

  it.effect("a resolved route outside the bounds → 400 result:invalid-request", () =>
    Effect.gen(function*() {
      const paris = { latitude: 48.8566, longitude: 2.3522 }
      const sydney = { latitude: -33.8688, longitude: 151.2093 }
      const far = yield* quoteAt({ pickup: paris, destination: sydney })
      expect(failureCode(far.exit)).toBe("result:invalid-request")
      expect(far.records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:invalid-request" })
      // Same point: a zero-length route is not a trip.
      expect(failureCode((yield* quoteAt({ pickup: paris, destination: paris })).exit)).toBe("result:invalid-request")
    }))

  it.effect("each service level has exactly one point per label, in order saver, balanced, priority, non-decreasing", () =>
    Effect.gen(function*() {
      const response = yield* (yield* quoteAt(supplied)).exit
      for (const points of Object.values(response.recommendations)) {
        expect(points.map((p) => p.label)).toEqual(RECOMMENDATION_LABELS)
        expect(points.map((p) => p.price)).toEqual([...points.map((p) => p.price)].sort((a, b) => a - b))
      }
    }))

  it.effect("every service level with at least one provider appears in both recommendations and marketPrices", () =>
    Effect.gen(function*() {
      // A market without Economy and Comfort: they must not appear; Standard and XL must.
      const partial: Market = tariffMarket({
        id: sampleMarket.id,
        name: "partial",
        currency: sampleMarket.currency,
        routeProfile: sampleMarket.routeProfile,
        localTime: sampleMarket.localTime,
        offers: SAMPLE_OFFERS.filter((o) => o.serviceLevel === "Standard" || o.serviceLevel === "XL"),
        demand: SAMPLE_DEMAND
      })
      for (const market of [sampleMarket, partial]) {
        const response = yield* (yield* quoteAt(supplied, {
          marketData: Layer.succeed(MarketData, servingEverywhere(market))
        })).exit
        const offered = new Set(market.offers({
          pickup: BERLIN,
          destination: BERLIN_WEST,
          distanceKm: 1,
          durationMinutes: 1,
          mode: "Realtime",
          routeSource: "supplied",
          localTime: { hour: 0, minuteOfDay: 0, dayOfWeek: 1, dayType: "weekday" }
        }).map((o) => o.serviceLevel))
        expect(new Set(Object.keys(response.recommendations))).toEqual(offered)
        expect(new Set(Object.keys(response.marketPrices).map((k) => k.split("/")[1]))).toEqual(offered)
      }
    }))

  it.effect("marketPrices keys are \"<provider>/<serviceLevel>\" with p5 ≤ p25 ≤ p50 ≤ p75 ≤ p95", () =>
    Effect.gen(function*() {
      const response = yield* (yield* quoteAt(supplied)).exit
      expect(Object.keys(response.marketPrices)).toEqual(SAMPLE_OFFERS.map((o) => `${o.provider}/${o.serviceLevel}`))
      for (const p of Object.values(response.marketPrices)) {
        expect([p.p5, p.p25, p.p50, p.p75, p.p95]).toEqual([p.p5, p.p25, p.p50, p.p75, p.p95].sort((a, b) => a - b))
      }
    }))

  it.effect("a place no market serves → result:market-not-served (audited), not a malformed request's code", () =>
    Effect.gen(function*() {
      const nowhere = Layer.succeed(MarketData, {
        marketAt: () => Effect.fail(new MarketNotServed({ message: "no market serves this pickup" })),
        markets: []
      })
      const { exit, records } = yield* quoteAt(supplied, { marketData: nowhere })
      expect(failureCode(exit)).toBe("result:market-not-served")
      expect(records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:market-not-served" })
    }))

  /** The sample market with a reach: 150 km beyond a box around Berlin. */
  const reaching = (km: number) => {
    const box = { south: 52.3, west: 13.0, north: 52.7, east: 13.8 }
    const inside = (p: { latitude: number; longitude: number }) =>
      p.latitude >= box.south && p.latitude <= box.north && p.longitude >= box.west && p.longitude <= box.east
    const market: Market = {
      ...sampleMarket,
      reach: {
        km,
        // Good enough for the test: degrees of latitude off the box, as km.
        distanceKm: (p) => (inside(p) ? 0 : Math.max(box.south - p.latitude, p.latitude - box.north, 0) * 111.2 + (p.longitude < box.west || p.longitude > box.east ? 1000 : 0))
      }
    }
    return Layer.succeed(MarketData, { marketAt: () => Effect.succeed(market), markets: [market] })
  }

  it.effect("the market's reach: a destination beyond it → result:market-not-served naming why, audited, whatever distance is supplied", () =>
    Effect.gen(function*() {
      const resolver = recordingResolver({ distanceKm: 7.5, durationMinutes: 18 })
      // A Berlin pickup, a destination in Tokyo, 6.2 km supplied: not a 6.2 km Berlin ride.
      const { exit, records } = yield* quoteAt(
        { pickup: BERLIN, destination: { latitude: 35.68, longitude: 139.77 }, distanceKm: 6.2, durationMinutes: 21 },
        { marketData: reaching(150), routeResolver: resolver.layer }
      )
      expect(failureCode(exit)).toBe("result:market-not-served")
      const error = Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error?._tag === "MarketNotServed" && error.reason).toBe("destination-beyond-reach")
      expect(error?._tag === "MarketNotServed" && error.reach?.reachKm).toBe(150)
      expect(records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:market-not-served" })
      expect(resolver.queries).toHaveLength(0)
    }))

  it.effect("the market's reach: a destination within it is priced on the supplied distance (rule 2 holds)", () =>
    Effect.gen(function*() {
      // 1° of latitude north of the box: 111 km out, inside a 150 km reach.
      const { exit } = yield* quoteAt(
        { pickup: BERLIN, destination: { latitude: 53.7, longitude: 13.4 }, distanceKm: 6.2, durationMinutes: 21 },
        { marketData: reaching(150) }
      )
      const response = yield* exit
      expect([response.distanceKm, response.durationMinutes]).toEqual([6.2, 21])
      // The same destination with a 100 km reach is refused: the limit is the market's own.
      const { exit: refused } = yield* quoteAt(
        { pickup: BERLIN, destination: { latitude: 53.7, longitude: 13.4 }, distanceKm: 6.2, durationMinutes: 21 },
        { marketData: reaching(100) }
      )
      expect(failureCode(refused)).toBe("result:market-not-served")
    }))

  it.effect("a market with no offer for the trip (fixed fares alone, none covering it) → result:market-not-served, reason no-rule-for-trip, naming its airports, audited", () =>
    Effect.gen(function*() {
      const fixedFaresOnly: Market = {
        ...sampleMarket,
        offers: () => [],
        coverage: {
          area: { south: 52.3, west: 13.0, north: 52.7, east: 13.8 },
          timeZone: "Europe/Berlin",
          offers: () => [],
          airports: [{ iata: "BER", name: "Berlin Brandenburg", latitude: 52.3667, longitude: 13.5033 }]
        }
      }
      const { exit, records } = yield* quoteAt(supplied, {
        marketData: Layer.succeed(MarketData, { marketAt: () => Effect.succeed(fixedFaresOnly), markets: [fixedFaresOnly] })
      })
      expect(failureCode(exit)).toBe("result:market-not-served")
      const error = Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error?._tag === "MarketNotServed" && error.reason).toBe("no-rule-for-trip")
      expect(error?.message).toContain("(airports BER)")
      expect(records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:market-not-served" })
    }))

  it.effect("a market with no offer that says why (a date before the earliest rule it knows) → its own refusal, no-rule-for-date, audited", () =>
    Effect.gen(function*() {
      const seen: Array<Trip> = []
      const tooEarly: Market = {
        ...sampleMarket,
        offers: () => [],
        unoffered: (trip) => {
          seen.push(trip)
          return noRuleForDate(sampleMarket.id, "2024-01-01", "2026-01-25")
        }
      }
      const { exit, records } = yield* quoteAt(supplied, {
        marketData: Layer.succeed(MarketData, { marketAt: () => Effect.succeed(tooEarly), markets: [tooEarly] })
      })
      const error = Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error?._tag === "MarketNotServed" && error.reason).toBe("no-rule-for-date")
      expect(error?.message).toBe(`market ${sampleMarket.id} knows no rule in force on 2024-01-01: its earliest known rule is in force from 2026-01-25`)
      // The market is asked about the trip it priced (with its route and departure).
      expect(seen.map((t) => [t.distanceKm, t.durationMinutes])).toEqual([[supplied.distanceKm, supplied.durationMinutes]])
      expect(records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:market-not-served" })
    }))

  it.effect("recommendations come from the default behavior; other enabled behaviors are priced as shadow", () =>
    Effect.gen(function*() {
      const pricing = {
        defaultBehavior: "premium" as BehaviorId,
        enabledBehaviors: ["undercut", "premium", "market-median"] as Array<BehaviorId>
      }
      const { exit, records } = yield* quoteAt(supplied, {}, account({ pricing }))
      const response = yield* exit
      const decision = records[0]?.decision
      if (decision?.outcome !== "quoted") return expect.unreachable("quote was not recorded as quoted")
      expect(decision.behavior).toBe("premium")
      expect(decision.recommendations).toEqual(response.recommendations)
      expect(Object.keys(decision.shadow ?? {}).sort()).toEqual(["market-median", "undercut"])
      // premium prices one bracket above market-median: its saver is market-median's balanced.
      const median = decision.shadow?.["market-median"]
      expect(response.recommendations["Standard"]?.[0]?.price).toBe(median?.["Standard"]?.[1]?.price)
    }))

  it.effect("an account whose default behavior is unknown: audited as result:internal and a defect (500)", () =>
    Effect.gen(function*() {
      const pricing = { defaultBehavior: "gone" as BehaviorId, enabledBehaviors: [] }
      const { exit, records } = yield* quoteAt(supplied, {}, account({ pricing }))
      expect(Exit.isFailure(exit) && exit.cause._tag === "Die").toBe(true)
      expect(records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:internal" })
    }))

  it.effect("an enabled behavior the registry does not know is skipped in shadow pricing, the quote succeeds", () =>
    Effect.gen(function*() {
      const pricing = { defaultBehavior: "market-median" as BehaviorId, enabledBehaviors: ["gone" as BehaviorId] }
      const { exit, records } = yield* quoteAt(supplied, {}, account({ pricing }))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(records[0]?.decision).not.toHaveProperty("shadow")
    }))

  it.effect("the route resolver failing → result:unavailable, audited", () =>
    Effect.gen(function*() {
      const { RouteUnavailable } = yield* Effect.promise(() => import("../../src/Errors.js"))
      const down = Layer.succeed(RouteResolver, {
        resolve: () => Effect.fail(new RouteUnavailable({ message: "router down" }))
      })
      const { exit, records } = yield* quoteAt({ pickup: BERLIN, destination: BERLIN_WEST }, { routeResolver: down })
      expect(failureCode(exit)).toBe("result:unavailable")
      expect(records[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:unavailable" })
    }))
})

describe("audit of every quote request", () => {
  it.effect("a quote is recorded before it is returned, with request, requestId and receivedAt", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const ctx = context(NOW)
      const response = yield* quotes.quote(account(), supplied, ctx)
      const [record] = yield* (yield* InMemoryAudit).records
      expect(record).toMatchObject({ accountId: account().id, requestId: ctx.requestId, request: supplied })
      expect(response.requestId).toBe(ctx.requestId)
      expect(record?.receivedAt).toEqual(NOW)
      expect(record?.decision).toMatchObject({ outcome: "quoted", market: "global-sample", marketPrices: response.marketPrices })
    }).pipe(Effect.provide(engine())))

  it.effect("audit unavailable → the quote fails with result:unavailable, quoted and rejected alike", () =>
    Effect.gen(function*() {
      const quotes = yield* Quotes
      const audit = yield* InMemoryAudit
      yield* audit.setAvailable(false)
      const ok = yield* Effect.exit(quotes.quote(account(), supplied, context()))
      const blocked = yield* Effect.exit(quotes.quote(account({ status: "Blocked" }), supplied, context()))
      expect(failureCode(ok)).toBe("result:unavailable")
      expect(failureCode(blocked)).toBe("result:unavailable")
      expect(yield* audit.records).toHaveLength(0)
    }).pipe(Effect.provide(engine())))

  it.effect("reject(): a body that could not be decoded is recorded with its code, then fails with it", () =>
    Effect.gen(function*() {
      const { InvalidRequest } = yield* Effect.promise(() => import("../../src/Errors.js"))
      const quotes = yield* Quotes
      const ctx = context()
      const exit = yield* Effect.exit(quotes.reject(account(), new InvalidRequest({ message: "malformed request body" }), ctx))
      expect(failureCode(exit)).toBe("result:invalid-request")
      const [record] = yield* (yield* InMemoryAudit).records
      expect(record).toMatchObject({
        requestId: ctx.requestId,
        decision: { outcome: "rejected", code: "result:invalid-request", message: "malformed request body" }
      })
      expect(record).not.toHaveProperty("request")
    }).pipe(Effect.provide(engine())))
})
