/** Quotes: the orchestration of one quote request, audited whatever its outcome. */
import { Clock, Context, DateTime, Effect, Layer } from "effect"
import type { Account } from "../Account.js"
import type { Decision, QuotedDecision, RejectedDecision } from "../Audit.js"
import type { BehaviorNotFound, InvalidRequest, QuoteError, StorageUnavailable } from "../Errors.js"
import { AccountBlocked } from "../Errors.js"
import type { RequestId } from "../Ids.js"
import { AuditLog } from "../ports/AuditLog.js"
import type { Trip } from "../ports/MarketData.js"
import { MarketData } from "../ports/MarketData.js"
import { RouteResolver } from "../ports/RouteResolver.js"
import type { QuoteRequest, QuoteResponse, Route } from "../Quote.js"
import { Pricing } from "./Pricing.js"
import { coordinatesRule, routeBoundsRule, routeMetadataRule, scheduleBoundRule, selectMode } from "./rules.js"

/** Assigned by the host before the request is handled; also the audit entry's key. */
export interface QuoteContext {
  readonly requestId: RequestId
  readonly receivedAt: DateTime.Utc
}

export interface Quotes {
  /**
   * Prices a request for an authenticated account and records the decision (quoted or
   * rejected) in the audit before it returns. If the audit cannot be written the quote fails
   * with StorageUnavailable: an answer is never given without its record.
   */
  readonly quote: (
    account: Account,
    request: QuoteRequest,
    context: QuoteContext
  ) => Effect.Effect<QuoteResponse, QuoteError | StorageUnavailable>
  /** Records a request whose body could not be decoded, then fails with the same error. */
  readonly reject: (
    account: Account,
    error: InvalidRequest,
    context: QuoteContext
  ) => Effect.Effect<never, InvalidRequest | StorageUnavailable>
}

export const Quotes = Context.GenericTag<Quotes>("@ridequote/core/Quotes")

const rejected = (error: QuoteError | InvalidRequest): RejectedDecision => ({
  outcome: "rejected",
  code: error.code,
  message: error.message
})

/**
 * The quote pipeline (ARCHITECTURE.md, "A quote, end to end"), in the order the rules apply:
 * account status (403) before anything about the body, then the route rule, the schedule
 * bound, the pickup's market, the route (resolved if neither figure was sent) and its bounds,
 * the mode from the clock, and the prices.
 */
export const QuotesLive: Layer.Layer<Quotes, never, MarketData | RouteResolver | Pricing | AuditLog> = Layer.effect(
  Quotes,
  Effect.gen(function*() {
    const marketData = yield* MarketData
    const routes = yield* RouteResolver
    const pricing = yield* Pricing
    const audit = yield* AuditLog

    const decide = (account: Account, request: QuoteRequest, context: QuoteContext) =>
      Effect.gen(function*() {
        if (account.status !== "Active") {
          return yield* new AccountBlocked({
            message: `account is ${account.status}: only Active accounts can request quotes`,
            status: account.status
          })
        }
        yield* coordinatesRule(request)
        const routeMetadata = yield* routeMetadataRule(request)
        const now = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
        yield* scheduleBoundRule(request.scheduledAt, now)
        const market = yield* marketData.marketAt(request.pickup)
        // Price demand at the hour the trip starts: the scheduled time if it is still ahead, else now.
        const departAt = request.scheduledAt !== undefined && DateTime.greaterThan(request.scheduledAt, now)
          ? request.scheduledAt
          : now
        const route: Route = routeMetadata._tag === "Supplied"
          ? { source: "supplied", distanceKm: routeMetadata.distanceKm, durationMinutes: routeMetadata.durationMinutes }
          : {
            source: "resolved",
            ...(yield* routes.resolve({ pickup: request.pickup, destination: request.destination, departAt, market }))
          }
        yield* routeBoundsRule(route)
        const mode = selectMode(request.scheduledAt, now)
        const trip: Trip = {
          pickup: request.pickup,
          destination: request.destination,
          distanceKm: route.distanceKm,
          durationMinutes: route.durationMinutes,
          mode,
          routeSource: route.source,
          localTime: market.localTime(departAt, request.pickup)
        }
        const priced = yield* pricing.price(market, trip, account.pricing)
        const response: QuoteResponse = {
          requestId: context.requestId,
          mode,
          currency: priced.currency,
          distanceKm: route.distanceKm,
          durationMinutes: route.durationMinutes,
          recommendations: priced.recommendations,
          marketPrices: priced.marketPrices
        }
        const decision: QuotedDecision = {
          outcome: "quoted",
          mode,
          currency: priced.currency,
          market: market.id,
          route,
          behavior: priced.behavior,
          recommendations: priced.recommendations,
          marketPrices: priced.marketPrices,
          ...(Object.keys(priced.shadow).length > 0 ? { shadow: priced.shadow } : {})
        }
        return { response, decision }
      })

    const record = (
      account: Account,
      context: QuoteContext,
      request: QuoteRequest | undefined,
      decision: Decision
    ): Effect.Effect<void, StorageUnavailable> =>
      audit.append({
        accountId: account.id,
        requestId: context.requestId,
        receivedAt: context.receivedAt,
        ...(request !== undefined ? { request } : {}),
        decision
      })

    /**
     * An account whose default behavior the registry does not know is a deployment fault, not
     * the caller's: it is audited as `result:internal` and surfaces as a defect (500).
     */
    const misconfigured = (account: Account, request: QuoteRequest, context: QuoteContext, error: BehaviorNotFound) =>
      Effect.zipRight(
        record(account, context, request, {
          outcome: "rejected",
          code: "result:internal",
          message: `account pricing is misconfigured: ${error.message}`
        }),
        Effect.die(error)
      )

    return Quotes.of({
      quote: (account, request, context) =>
        Effect.matchEffect(decide(account, request, context), {
          onFailure: (error) =>
            error._tag === "BehaviorNotFound"
              ? misconfigured(account, request, context, error)
              : Effect.zipRight(record(account, context, request, rejected(error)), Effect.fail(error)),
          onSuccess: ({ decision, response }) => Effect.as(record(account, context, request, decision), response)
        }),
      reject: (account, error, context) =>
        Effect.zipRight(record(account, context, undefined, rejected(error)), Effect.fail(error))
    })
  })
)
