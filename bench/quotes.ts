/**
 * In-process quotes per second through `Quotes.quote` (Effect: sample market, supplied route,
 * an in-memory audit sink) against a plain TypeScript function that computes the same prices
 * with the same pure pricing code and no Effect. The gap is the cost of the Effect
 * orchestration: services, typed errors, the clock, the audit effect.
 */
import { DateTime, Effect, Layer, ManagedRuntime } from "effect"
import type { Account, AuditRecord, BehaviorId, QuoteRequest, QuoteResponse, RequestId, Trip } from "../packages/core/src/index.js"
import {
  AuditLog,
  BehaviorsLive,
  MAX_DISTANCE_KM,
  MAX_DURATION_MINUTES,
  MAX_SCHEDULE_AHEAD_DAYS,
  marketMedianBehavior,
  PricingLive,
  priceTrip,
  Quotes,
  QuotesLive,
  sampleMarket,
  SampleMarketLive,
  SCHEDULED_THRESHOLD_MINUTES
} from "../packages/core/src/index.js"
import { OfflineRouteResolverLive } from "../packages/routes/src/index.js"
import type { Suite } from "./harness.js"

const account: Account = {
  id: "0b5c4a1e-8f3d-4c2a-9e1b-7d6f5a4b3c2d" as Account["id"],
  name: "Bench",
  status: "Active",
  tokenTtlSeconds: 86_400,
  pricing: { defaultBehavior: "market-median" as BehaviorId, enabledBehaviors: [] },
  createdAt: DateTime.unsafeMake(0)
}
const request: QuoteRequest = {
  pickup: { latitude: 52.520008, longitude: 13.404954 },
  destination: { latitude: 52.5, longitude: 13.3 },
  distanceKm: 12.4,
  durationMinutes: 27,
  scheduledAt: DateTime.unsafeMake(Date.now() + 2 * 3_600_000)
}
const context = { requestId: "00000000-0000-4000-8000-000000000001" as RequestId, receivedAt: DateTime.unsafeMake(0) }

/** Both variants append here; emptied before each timed batch so memory stays flat. */
const sink: Array<AuditRecord> = []
const SinkAuditLog = Layer.succeed(AuditLog, {
  append: (record) => Effect.sync(() => { sink.push(record) }),
  page: () => Effect.die("not used by the benchmark"),
  pageJson: () => Effect.die("not used by the benchmark")
})

const runtime = ManagedRuntime.make(
  QuotesLive.pipe(
    Layer.provide(PricingLive),
    Layer.provide(BehaviorsLive),
    Layer.provide(SampleMarketLive),
    Layer.provide(OfflineRouteResolverLive),
    Layer.provide(SinkAuditLog)
  )
)
const quotes = runtime.runSync(Quotes)
const quoteWithEffect = (): QuoteResponse => Effect.runSync(quotes.quote(account, request, context))


/** The same quote, plain: the same checks and pricing code, no Effect anywhere. */
const quotePlain = (): QuoteResponse => {
  if (account.status !== "Active") throw new Error("account blocked")
  const { destination, distanceKm, durationMinutes, pickup, scheduledAt } = request
  if (distanceKm === undefined || durationMinutes === undefined) throw new Error("route metadata incomplete")
  if (!(distanceKm > 0 && distanceKm <= MAX_DISTANCE_KM && durationMinutes > 0 && durationMinutes <= MAX_DURATION_MINUTES)) {
    throw new Error("out of bounds")
  }
  const nowMs = Date.now()
  const aheadMs = scheduledAt === undefined ? 0 : DateTime.toEpochMillis(scheduledAt) - nowMs
  if (aheadMs > MAX_SCHEDULE_AHEAD_DAYS * 86_400_000) throw new Error("too far ahead")
  const departMs = aheadMs > 0 && scheduledAt !== undefined ? DateTime.toEpochMillis(scheduledAt) : nowMs
  const mode = aheadMs >= SCHEDULED_THRESHOLD_MINUTES * 60_000 ? "Scheduled" : "Realtime"
  const trip: Trip = {
    pickup,
    destination,
    distanceKm,
    durationMinutes,
    mode,
    routeSource: "supplied",
    localTime: sampleMarket.localTime(DateTime.unsafeMake(departMs), pickup)
  }
  const priced = priceTrip(sampleMarket, trip, marketMedianBehavior, [])
  const response: QuoteResponse = {
    requestId: context.requestId,
    mode,
    currency: priced.currency,
    distanceKm,
    durationMinutes,
    recommendations: priced.recommendations,
    marketPrices: priced.marketPrices,
    market: priced.market,
    offers: priced.offers
  }
  sink.push({
    accountId: account.id,
    requestId: context.requestId,
    receivedAt: context.receivedAt,
    request,
    decision: {
      outcome: "quoted",
      mode,
      currency: priced.currency,
      market: sampleMarket.id,
      ...(priced.market.sampleData ? { sampleData: true as const } : {}),
      route: { source: "supplied", distanceKm, durationMinutes },
      behavior: priced.behavior,
      recommendations: priced.recommendations,
      marketPrices: priced.marketPrices
    }
  })
  return response
}

export const quotesSuite: Suite = {
  name: "in-process quote (sample market, supplied route, in-memory audit)",
  unit: "quote",
  baseline: {
    name: "plain TypeScript function (no Effect)",
    reset: () => { sink.length = 0 },
    run: (n) => { for (let i = 0; i < n; i++) quotePlain() }
  },
  variants: [{
    name: "Quotes.quote via Effect.runSync",
    reset: () => { sink.length = 0 },
    run: (n) => { for (let i = 0; i < n; i++) quoteWithEffect() }
  }],
  check: () => {
    const a = JSON.stringify(quotePlain())
    const b = JSON.stringify(quoteWithEffect())
    if (a !== b) throw new Error(`variants disagree:\n${a}\n${b}`)
    const [plainRecord, effectRecord] = sink.slice(-2).map((r) => JSON.stringify(r))
    if (plainRecord !== effectRecord) throw new Error("audit records disagree")
    sink.length = 0
  }
}

/** One audit record exactly as `Quotes.quote` writes it (used to build realistic audit rows). */
export const sampleAuditRecord = (): AuditRecord => {
  sink.length = 0
  quoteWithEffect()
  const record = sink[0]
  sink.length = 0
  if (record === undefined) throw new Error("Quotes.quote wrote no audit record")
  return record
}
