/**
 * The endpoint implementations, one layer per group. They translate between HTTP and core's
 * services and nothing more: every rule lives in core, every status in the error table.
 */
import { HttpApiBuilder, HttpApp, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import {
  acceptPlainQuoteRequest,
  AuditLog,
  InvalidRequest,
  MarketData,
  marketSummaries,
  QuoteRequest,
  Quotes,
  Randomness,
  RevokeRequest,
  revokeTarget,
  StorageHealth,
  Tokens
} from "@ridequote/core"
import type { Account, AuditCursor, Audited, AuditQuery, QuoteContext, QuoteError, QuoteResponse, Rejection } from "@ridequote/core"
import { DEFAULT_AUDIT_PAGE_SIZE } from "@ridequote/core"
import { DateTime, Effect, Either, Layer, Redacted } from "effect"
import { CurrentCaller, RidequoteApi } from "./Api.js"
import { currentRequest } from "./internal/CurrentRequest.js"
import { endpointPath } from "./internal/EndpointPaths.js"
import { RidequoteHttpConfig } from "./HttpConfig.js"
import { readJsonBody } from "./internal/JsonBody.js"
import { prometheusText, unsafeRecordQuote } from "./internal/Metrics.js"

// --- auth -------------------------------------------------------------------------------

/** Query parameter names that would carry the secret: apiSecret, api_secret, x-api-secret, any case. */
const SECRET_PARAM = /^(x[-_]?)?api[-_]?secret$/i

/** True when the query string names a secret parameter (the value is never looked at). */
export const secretInQuery = (url: string): boolean => {
  const q = url.indexOf("?")
  if (q < 0) return false
  for (const name of new URLSearchParams(url.slice(q + 1)).keys()) {
    if (SECRET_PARAM.test(name.trim())) return true
  }
  return false
}

/**
 * The auth group's handlers: issue refuses a secret in the query string (400) before it looks at
 * the credentials; revoke acts only on the caller's account. Needs `Tokens` and `RidequoteHttpConfig`.
 */
export const AuthHandlersLive = HttpApiBuilder.group(RidequoteApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* Tokens
    const config = yield* RidequoteHttpConfig
    return handlers
      .handle("issueToken", ({ headers, request }) =>
        Effect.gen(function*() {
          if (secretInQuery(request.url)) {
            return yield* new InvalidRequest({
              message: "the API secret is accepted only in the X-API-SECRET header, never in the query string"
            })
          }
          // A missing header goes through the same check as a wrong one: same answer, same cost.
          return yield* tokens.issue(headers["x-api-key"] ?? "", headers["x-api-secret"] ?? Redacted.make(""))
        }))
      // Raw: the body is read after authentication, under the body limit (JsonBody.ts).
      .handleRaw("revokeToken", ({ request }) =>
        Effect.gen(function*() {
          const caller = yield* CurrentCaller
          const body = yield* readJsonBody(request, RevokeRequest, config.maxBodyBytes)
          return yield* tokens.revoke(caller.account.id, revokeTarget(body))
        }))
  }))

// --- customer ---------------------------------------------------------------------------

/** The customer group's handler: the verified caller's account, as `BearerAuth` provided it. */
export const CustomerHandlersLive = HttpApiBuilder.group(RidequoteApi, "customer", (handlers) =>
  handlers.handle("me", () => Effect.map(CurrentCaller, (caller) => caller.account)))

// --- quotes -----------------------------------------------------------------------------

/** Counts a quote that was answered (the `ridequote_quotes_total` metric). */
export const quoteAnswered = (response: QuoteResponse): void => unsafeRecordQuote(response.mode)

/**
 * A quote from a decoded (or refused) body: a refused body is audited as a rejection, a
 * decoded one priced (and audited) by core. The HttpApi handler's lane; the Node host uses
 * `priceQuoteAudited`, the same rules answered outside the fiber.
 */
export const priceQuote = <E extends Rejection, R>(
  quotes: Quotes,
  account: Account,
  body: Effect.Effect<QuoteRequest, E, R>,
  context: QuoteContext
) =>
  Effect.flatMap(
    Effect.catchAll(body, (e) => quotes.reject(account, e, context)),
    // Counted in the same step that passes the response on: a `tap` with an effect cost three.
    (request) =>
      Effect.map(quotes.quote(account, request, context), (response) => {
        quoteAnswered(response)
        return response
      })
  )

/**
 * `priceQuote` for a body already read and decoded (or refused): the decision and its submitted
 * audit record, to be answered once the record is durable (core's `Audited`). `quoteAnswered`
 * counts the quote; call it when the answer goes out.
 */
export const priceQuoteAudited = <E extends Rejection>(
  quotes: Quotes,
  account: Account,
  body: Either.Either<QuoteRequest, E>,
  context: QuoteContext
): Effect.Effect<Audited<QuoteResponse, E | QuoteError>> =>
  Either.isLeft(body) ? quotes.rejectAudited(account, body.left, context) : quotes.quoteAudited(account, body.right, context)

/**
 * The quote handler: reads and decodes the body after authentication, so an undecodable body is
 * still audited as a rejection. Needs `Quotes`, `Randomness` (the request id) and `RidequoteHttpConfig`.
 */
export const QuotesHandlersLive = HttpApiBuilder.group(RidequoteApi, "quotes", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    const randomness = yield* Randomness
    const config = yield* RidequoteHttpConfig
    return handlers.handleRaw("quote", ({ request }) =>
      Effect.gen(function*() {
        const caller = yield* CurrentCaller
        const { receivedAt, requestId } = yield* Effect.provideService(currentRequest, Randomness, randomness)
        // Decoded here, after authentication, so that an undecodable body is audited too.
        return yield* priceQuote(
          quotes,
          caller.account,
          readJsonBody(request, QuoteRequest, config.maxBodyBytes, acceptPlainQuoteRequest),
          { requestId, receivedAt }
        )
      }))
  }))

// --- audit ------------------------------------------------------------------------------

const AUDIT_PATH = endpointPath("audit", "recent")

/** The URL of the page after `next`, with the same filters and limit. */
export const nextPageUrl = (query: AuditQuery, next: AuditCursor): string => {
  const params = new URLSearchParams()
  params.set("limit", String(query.limit))
  if (query.from !== undefined) params.set("from", DateTime.formatIso(query.from))
  if (query.to !== undefined) params.set("to", DateTime.formatIso(query.to))
  params.set("after-received-at", DateTime.formatIso(next.receivedAt))
  params.set("after-id", next.requestId)
  return `${AUDIT_PATH}?${params.toString()}`
}

const setLink = (url: string) =>
  HttpApp.appendPreResponseHandler((_request: HttpServerRequest.HttpServerRequest, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "link", `<${url}>; rel="next"`))
  )

/**
 * The audit page handler: the caller's entries written out as stored (no re-encoding), with a
 * `Link: rel="next"` header when more follow. Needs `AuditLog`.
 */
export const AuditHandlersLive = HttpApiBuilder.group(RidequoteApi, "audit", (handlers) =>
  Effect.gen(function*() {
    const auditLog = yield* AuditLog
    return handlers.handle("recent", ({ urlParams }) =>
      Effect.gen(function*() {
        const caller = yield* CurrentCaller
        const afterId = urlParams["after-id"]
        const afterReceivedAt = urlParams["after-received-at"]
        const query: AuditQuery = {
          accountId: caller.account.id,
          limit: urlParams.limit ?? DEFAULT_AUDIT_PAGE_SIZE,
          after: afterId !== undefined && afterReceivedAt !== undefined
            ? { requestId: afterId, receivedAt: afterReceivedAt }
            : undefined,
          from: urlParams.from,
          to: urlParams.to
        }
        // Entries as stored (each the JSON of its wire encoding), written out without being
        // parsed and re-encoded: the response is the same bytes the schema would produce.
        const page = yield* auditLog.pageJson(query)
        if (page.next !== undefined) yield* setLink(nextPageUrl(query, page.next))
        return HttpServerResponse.text(`[${page.entries.join(",")}]`, { contentType: "application/json" })
      }))
  }))

// --- markets ----------------------------------------------------------------------------

/** The markets handler: every market served, at `at` or now (the Clock). Needs `MarketData`. */
export const MarketsHandlersLive = HttpApiBuilder.group(RidequoteApi, "markets", (handlers) =>
  Effect.gen(function*() {
    const marketData = yield* MarketData
    return handlers.handle("list", ({ urlParams }) =>
      Effect.map(
        urlParams.at === undefined ? DateTime.now : Effect.succeed(urlParams.at),
        (at) => marketSummaries(marketData.markets, at)
      ))
  }))

// --- operations -------------------------------------------------------------------------

/** The probes and metrics: readiness pings `StorageHealth` (503 when it fails); needs `StorageHealth`. */
export const OperationsHandlersLive = HttpApiBuilder.group(RidequoteApi, "operations", (handlers) =>
  Effect.gen(function*() {
    const storage = yield* StorageHealth
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () => Effect.as(storage.ping, { status: "ok" as const }))
      .handle("metrics", () => prometheusText)
  }))

/** Every group's handlers. */
export const ApiHandlersLive = Layer.mergeAll(
  AuthHandlersLive,
  CustomerHandlersLive,
  QuotesHandlersLive,
  MarketsHandlersLive,
  AuditHandlersLive,
  OperationsHandlersLive
)
