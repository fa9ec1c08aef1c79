/** Quotes: the orchestration of one quote request, audited whatever its outcome. */
import { Clock, Context, DateTime, Effect, Either, Exit, Layer } from "effect"
import type { Account } from "../Account.js"
import type { AuditRecord, Decision, QuotedDecision, RejectedDecision } from "../Audit.js"
import type {
  BehaviorNotFound,
  ErrorCode,
  InvalidRequest,
  QuoteError,
  RouteMetadataIncomplete,
  RouteUnavailable,
  StorageUnavailable
} from "../Errors.js"
import { AccountBlocked } from "../Errors.js"
import type { RequestId } from "../Ids.js"
import { AuditLog, submitAudit } from "../ports/AuditLog.js"
import type { AuditDone } from "../ports/AuditLog.js"
import type { Market, Trip } from "../ports/MarketData.js"
import { MarketData } from "../ports/MarketData.js"
import { RouteResolver } from "../ports/RouteResolver.js"
import type { Mode, QuoteRequest, QuoteResponse, Route } from "../Quote.js"
import type { PricedTrip } from "./Pricing.js"
import { Pricing } from "./Pricing.js"
import type { RouteMetadata } from "./rules.js"
import { coordinatesRule, offeredRule, reachRule, routeBoundsRule, routeMetadataRule, scheduleBoundRule, selectMode } from "./rules.js"

/** Assigned by the host before the request is handled; also the audit entry's key. */
export interface QuoteContext {
  readonly requestId: RequestId
  readonly receivedAt: DateTime.Utc
}

/**
 * A decided request whose audit record has been submitted, perhaps not yet durable. The host
 * answers with `outcome` only once `whenDurable` reports the record durable, and with
 * StorageUnavailable if it reports a failure: an answer is never given without its record.
 */
export interface Audited<A, E> {
  readonly outcome: Exit.Exit<A, E>
  /** Calls `done` once, when the record is durable (`undefined`) or failed (at once if known). */
  readonly whenDurable: (done: AuditDone) => void
}

/**
 * The orchestration of a quote request: the rules in the contract's order, the route, the
 * prices, and the audit record, written before an answer is given (rejections too).
 */
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
  /**
   * Records a request the host refused before it could be quoted (a body that is not JSON,
   * too large, of the wrong media type, or that does not decode), then fails with that error.
   */
  readonly reject: <E extends Rejection>(
    account: Account,
    error: E,
    context: QuoteContext
  ) => Effect.Effect<never, E | StorageUnavailable>
  /**
   * `quote` for a host that waits for the audit outside the fiber: decides, submits the record
   * and completes at once with the outcome and `whenDurable` (see `Audited`). The Node host
   * answers from `whenDurable`, so its request fibers end before the commit (docs/performance.md).
   */
  readonly quoteAudited: (
    account: Account,
    request: QuoteRequest,
    context: QuoteContext
  ) => Effect.Effect<Audited<QuoteResponse, QuoteError>>
  /** `reject` the same way. */
  readonly rejectAudited: <E extends Rejection>(
    account: Account,
    error: E,
    context: QuoteContext
  ) => Effect.Effect<Audited<never, E>>
}

/** Waits, in the fiber, for an `Audited` record to be durable, then gives its outcome. */
export const awaitAudited = <A, E>(audited: Audited<A, E>): Effect.Effect<A, E | StorageUnavailable> =>
  Effect.async((resume) => audited.whenDurable((failure) => resume(failure === undefined ? audited.outcome : Effect.fail(failure))))

/** A `done` that may arrive before or after the one waiter registers. */
const durability = (): { readonly done: AuditDone; readonly whenDurable: (waiter: AuditDone) => void } => {
  let settled = false
  let failure: StorageUnavailable | undefined
  let waiters: Array<AuditDone> | undefined
  return {
    done: (result) => {
      settled = true
      failure = result
      const waiting = waiters
      waiters = undefined
      if (waiting !== undefined) for (const waiter of waiting) waiter(result)
    },
    whenDurable: (waiter) => {
      if (settled) return waiter(failure)
      ;(waiters ??= []).push(waiter)
    }
  }
}

/** The Quotes service's tag. */
export const Quotes = Context.GenericTag<Quotes>("@ridequote/core/Quotes")

/** Any refusal that carries a wire code, from core or from the host's edge (413, 415…). */
export interface Rejection {
  readonly code: ErrorCode
  readonly message: string
}

/** A priced quote: what the caller gets and what the audit keeps. */
interface Quoted {
  readonly response: QuoteResponse
  readonly decision: QuotedDecision
}

/** A quote on its way through the pipeline. */
interface InFlight {
  readonly account: Account
  readonly request: QuoteRequest
  readonly context: QuoteContext
  readonly now: DateTime.Utc
}

type Outcome = Effect.Effect<Quoted, QuoteError | BehaviorNotFound>

const rejected = (error: Rejection): RejectedDecision => ({
  outcome: "rejected",
  code: error.code,
  message: error.message
})

/**
 * The quote pipeline (ARCHITECTURE.md, "A quote, end to end"), in the order the rules apply:
 * account status (403) before anything about the body, then the route rule, the schedule
 * bound, the pickup's market and its reach (the destination's distance from it), the route (resolved if neither figure was sent) and its bounds,
 * the mode from the clock, and the prices.
 */
export const QuotesLive: Layer.Layer<Quotes, never, MarketData | RouteResolver | Pricing | AuditLog> = Layer.effect(
  Quotes,
  Effect.gen(function*() {
    const marketData = yield* MarketData
    const routes = yield* RouteResolver
    const pricing = yield* Pricing
    const audit = yield* AuditLog

    /** Steps that need neither the clock nor a service: status, coordinates, the route rule. */
    const admit = (
      account: Account,
      request: QuoteRequest
    ): Either.Either<RouteMetadata, AccountBlocked | InvalidRequest | RouteMetadataIncomplete> => {
      if (account.status !== "Active") {
        return Either.left(
          new AccountBlocked({
            message: `account is ${account.status}: only Active accounts can request quotes`,
            status: account.status
          })
        )
      }
      const coordinates = coordinatesRule(request)
      return Either.isLeft(coordinates) ? Either.left(coordinates.left) : routeMetadataRule(request)
    }

    const routeOf = (
      metadata: RouteMetadata,
      request: QuoteRequest,
      departAt: DateTime.Utc,
      market: Market
    ): Effect.Effect<Route, RouteUnavailable> =>
      metadata._tag === "Supplied"
        ? Effect.succeed({ source: "supplied", distanceKm: metadata.distanceKm, durationMinutes: metadata.durationMinutes })
        : Effect.map(
          routes.resolve({ pickup: request.pickup, destination: request.destination, departAt, market }),
          (resolved): Route => ({ source: "resolved", ...resolved })
        )

    const respond = (market: Market, route: Route, mode: Mode, priced: PricedTrip, context: QuoteContext): Quoted => ({
      response: {
        requestId: context.requestId,
        mode,
        currency: priced.currency,
        distanceKm: route.distanceKm,
        durationMinutes: route.durationMinutes,
        recommendations: priced.recommendations,
        marketPrices: priced.marketPrices,
        market: priced.market,
        offers: priced.offers
      },
      decision: {
        outcome: "quoted",
        mode,
        currency: priced.currency,
        market: market.id,
        ...(priced.market.sampleData ? { sampleData: true } : {}),
        route,
        behavior: priced.behavior,
        recommendations: priced.recommendations,
        marketPrices: priced.marketPrices,
        ...(Object.keys(priced.shadow).length > 0 ? { shadow: priced.shadow } : {})
      }
    })

    // The hot path is written as plain callbacks rather than Effect.gen: every step of a
    // generator is a trip through the fiber's run loop (measured in bench/quotes.ts).

    /** Steps 7–9 once the route is known: its bounds, the mode, the prices (and at least one offer). */
    const priceRoute = (q: InFlight, market: Market, departAt: DateTime.Utc, route: Route): Outcome => {
      const bounds = routeBoundsRule(route)
      if (Either.isLeft(bounds)) return Effect.fail(bounds.left)
      const mode = selectMode(q.request.scheduledAt, q.now)
      const trip: Trip = {
        pickup: q.request.pickup,
        destination: q.request.destination,
        distanceKm: route.distanceKm,
        durationMinutes: route.durationMinutes,
        mode,
        routeSource: route.source,
        localTime: market.localTime(departAt, q.request.pickup),
        departAt
      }
      return Effect.flatMap(pricing.price(market, trip, q.account.pricing), (priced) => {
        const offered = offeredRule(market, trip, priced.marketPrices)
        return Either.isLeft(offered) ? Effect.fail(offered.left) : Effect.succeed(respond(market, route, mode, priced, q.context))
      })
    }

    /** Steps 4–6 once the clock is read: the schedule bound, the market, the route. */
    const atTime = (q: InFlight, metadata: RouteMetadata): Outcome => {
      const bound = scheduleBoundRule(q.request.scheduledAt, q.now)
      if (Either.isLeft(bound)) return Effect.fail(bound.left)
      return Effect.flatMap(marketData.marketAt(q.request.pickup), (market) => {
        const reach = reachRule(market, q.request.destination)
        if (Either.isLeft(reach)) return Effect.fail(reach.left)
        // Price demand at the hour the trip starts: the scheduled time if it is still ahead, else now.
        const { scheduledAt } = q.request
        const departAt = scheduledAt !== undefined && DateTime.greaterThan(scheduledAt, q.now) ? scheduledAt : q.now
        return Effect.flatMap(routeOf(metadata, q.request, departAt, market), (route) =>
          priceRoute(q, market, departAt, route))
      })
    }

    const decide = (account: Account, request: QuoteRequest, context: QuoteContext): Outcome => {
      const admitted = admit(account, request)
      if (Either.isLeft(admitted)) return Effect.fail(admitted.left)
      return Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        atTime({ account, request, context, now: DateTime.unsafeMake(nowMs) }, admitted.right))
    }

    const recordOf = (
      account: Account,
      context: QuoteContext,
      request: QuoteRequest | undefined,
      decision: Decision
    ): AuditRecord => ({
      accountId: account.id,
      requestId: context.requestId,
      receivedAt: context.receivedAt,
      ...(request !== undefined ? { request } : {}),
      decision
    })

    const submitted = <A, E>(record: AuditRecord, outcome: Exit.Exit<A, E>): Effect.Effect<Audited<A, E>> => {
      const durable = durability()
      return Effect.as(submitAudit(audit, record, durable.done), { outcome, whenDurable: durable.whenDurable })
    }

    /**
     * The decision and its record, whatever the outcome. An account whose default behavior the
     * registry does not know is a deployment fault, not the caller's: it is audited as
     * `result:internal` and surfaces as a defect (500).
     */
    const decideThen = <A, E>(
      account: Account,
      request: QuoteRequest,
      context: QuoteContext,
      /** How the lane releases the outcome with its record (in the fiber, or submitted). */
      release: (record: AuditRecord, outcome: Exit.Exit<QuoteResponse, QuoteError>) => Effect.Effect<A, E>
    ): Effect.Effect<A, E> =>
      Effect.matchEffect(decide(account, request, context), {
        onFailure: (error) =>
          error._tag === "BehaviorNotFound"
            ? release(
              recordOf(account, context, request, {
                outcome: "rejected",
                code: "result:internal",
                message: `account pricing is misconfigured: ${error.message}`
              }),
              Exit.die(error)
            )
            : release(recordOf(account, context, request, rejected(error)), Exit.fail(error)),
        onSuccess: ({ decision, response }) => release(recordOf(account, context, request, decision), Exit.succeed(response))
      })

    return Quotes.of({
      quote: (account, request, context) =>
        decideThen(account, request, context, (record, outcome) => Effect.zipRight(audit.append(record), outcome)),
      reject: (account, error, context) =>
        Effect.zipRight(audit.append(recordOf(account, context, undefined, rejected(error))), Effect.fail(error)),
      quoteAudited: (account, request, context) => decideThen(account, request, context, submitted),
      rejectAudited: (account, error, context) =>
        submitted(recordOf(account, context, undefined, rejected(error)), Exit.fail(error))
    })
  })
)
