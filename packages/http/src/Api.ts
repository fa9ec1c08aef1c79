/**
 * The HTTP contract of ridequote as one `HttpApi`: the /v1 endpoints and the operational
 * ones, with core's schemas reused as they are and every error row the endpoint can answer
 * with. The server, the OpenAPI document and the typed client (`HttpApiClient.make`) all read
 * this one definition.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, HttpApiSecurity, OpenApi } from "@effect/platform"
import {
  AccessViewStale,
  Account,
  AccountBlocked,
  AuditEntry,
  DEFAULT_AUDIT_PAGE_SIZE,
  InvalidCredentials,
  InvalidRequest,
  IssuedToken,
  MarketNotServed,
  MarketSummary,
  MAX_AUDIT_PAGE_SIZE,
  QuoteRequest,
  QuoteResponse,
  RequestId,
  RevokeRequest,
  RevokeResult,
  RouteMetadataIncomplete,
  RouteUnavailable,
  StorageUnavailable,
  Timestamp,
  TokenExpired,
  TokenInvalid,
  TokenNotFound,
  TokenRevoked,
  Unauthorized
} from "@ridequote/core"
import type { Caller } from "@ridequote/core"
import { Context, DateTime, Schema } from "effect"
import { errorWire } from "./ErrorTable.js"
import {
  InternalError,
  MethodNotAllowed,
  PayloadTooLarge,
  RateLimited,
  UnknownRoute,
  UnsupportedMediaType
} from "./HttpErrors.js"
import { ApiDocumentTransform } from "./internal/OpenApiDocument.js"

/** The verified caller of a bearer-authenticated endpoint. */
export class CurrentCaller extends Context.Tag("@ridequote/http/CurrentCaller")<CurrentCaller, Caller>() {}

/**
 * `Authorization: Bearer <token>` → Tokens.verify → `CurrentCaller`, then the caller's rate
 * limit. Its failures are the 401 rows, 503 when the access view is stale or storage is down,
 * and 429.
 */
export class BearerAuth extends HttpApiMiddleware.Tag<BearerAuth>()("@ridequote/http/BearerAuth", {
  failure: Schema.Union(
    errorWire(Unauthorized),
    errorWire(TokenInvalid),
    errorWire(TokenExpired),
    errorWire(TokenRevoked),
    errorWire(RateLimited),
    errorWire(AccessViewStale),
    errorWire(StorageUnavailable)
  ),
  provides: CurrentCaller,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "A token from POST /v1/auth/token, as `Authorization: Bearer <token>`")
    )
  }
}) {}

const summary = (text: string, description?: string) =>
  OpenApi.annotations(description === undefined ? { summary: text } : { summary: text, description })

/**
 * Credentials travel only in these two headers, never in a body or query string, where proxies
 * and logs would keep the secret (docs/security.md, "API credentials").
 */
export const CredentialHeaders = Schema.Struct({
  "x-api-key": Schema.optional(Schema.String.annotations({ description: "The API key (rqk_…); required" })),
  "x-api-secret": Schema.optional(Schema.Redacted(Schema.String).annotations({
    description: "The API secret (rqs_…); required; never logged"
  }))
})

/**
 * POST /v1/auth/token: API key and secret (headers only) for a bearer token. Exported for hosts
 * that assemble groups of their own from the contract's endpoints.
 */
export const issueToken = HttpApiEndpoint.post("issueToken", "/v1/auth/token")
  .setHeaders(CredentialHeaders)
  .addSuccess(IssuedToken)
  .addError(errorWire(InvalidRequest))
  .addError(errorWire(InvalidCredentials))
  .addError(errorWire(AccountBlocked))
  .addError(errorWire(StorageUnavailable))
  .annotateContext(summary(
    "Exchange an API key and secret for a bearer token",
    "Send X-API-KEY and X-API-SECRET headers and no body. A secret in the query string (apiSecret, api_secret, " +
      "x-api-secret) is refused with 400 before the credentials are looked at."
  ))

/**
 * POST /v1/auth/revoke (bearer): revokes one token of the caller's account by `jti`, or all of
 * them; the body is read only after authentication, under the body limit.
 */
export const revokeToken = HttpApiEndpoint.post("revokeToken", "/v1/auth/revoke")
  .setPayload(RevokeRequest)
  .addSuccess(RevokeResult)
  .addError(errorWire(InvalidRequest))
  .addError(errorWire(TokenNotFound))
  .addError(errorWire(PayloadTooLarge))
  .addError(errorWire(UnsupportedMediaType))
  .middleware(BearerAuth)
  .annotateContext(summary(
    "Revoke one token of the caller's account, or all of them",
    "Body {\"jti\": \"…\"} or {\"all\": true}. Answers the number of tokens newly revoked (the calling token " +
      "counts; an already revoked jti counts 0). A jti of another account is 404."
  ))

/** The token endpoints (`issueToken`, `revokeToken`); implemented by `AuthHandlersLive`. */
export class AuthGroup extends HttpApiGroup.make("auth")
  .add(issueToken)
  .add(revokeToken)
  .annotate(OpenApi.Description, "Tokens: issue and revoke")
{}

/** GET /v1/customer/me (bearer): the caller's account; implemented by `CustomerHandlersLive`. */
export class CustomerGroup extends HttpApiGroup.make("customer")
  .add(
    HttpApiEndpoint.get("me", "/v1/customer/me")
      .addSuccess(Account)
      .annotateContext(summary("The calling customer's account"))
  )
  .middleware(BearerAuth)
  .annotate(OpenApi.Description, "The calling customer")
{}

/**
 * POST /v1/quote (bearer): prices a ride and records it in the audit, rejections included;
 * implemented by `QuotesHandlersLive`.
 */
export class QuotesGroup extends HttpApiGroup.make("quotes")
  .add(
    HttpApiEndpoint.post("quote", "/v1/quote")
      .setPayload(QuoteRequest)
      .addSuccess(QuoteResponse)
      .addError(errorWire(InvalidRequest))
      .addError(errorWire(RouteMetadataIncomplete))
      .addError(errorWire(MarketNotServed))
      .addError(errorWire(AccountBlocked))
      .addError(errorWire(PayloadTooLarge))
      .addError(errorWire(UnsupportedMediaType))
      .addError(errorWire(RouteUnavailable))
      .annotateContext(summary(
        "Price a ride",
        "Market prices per provider and service level, and recommended price points per service level. Every " +
          "authenticated request is recorded in the audit, rejected ones included; error bodies carry the requestId."
      ))
  )
  .middleware(BearerAuth)
  .annotate(OpenApi.Description, "Ride price quotes")
{}

const AuditQueryFields = Schema.Struct({
  limit: Schema.optionalWith(
    Schema.compose(
      Schema.String.pipe(Schema.pattern(/^[0-9]{1,6}$/, { message: () => "expected an integer" })),
      Schema.NumberFromString
    ).pipe(
      Schema.between(1, MAX_AUDIT_PAGE_SIZE, { message: () => `expected an integer between 1 and ${MAX_AUDIT_PAGE_SIZE}` })
    ).annotations({ description: `Entries per page, 1..${MAX_AUDIT_PAGE_SIZE}; default ${DEFAULT_AUDIT_PAGE_SIZE}` }),
    { exact: true }
  ),
  "after-received-at": Schema.optionalWith(
    Timestamp.annotations({ description: "Cursor: receivedAt of the last entry of the previous page (with after-id)" }),
    { exact: true }
  ),
  "after-id": Schema.optionalWith(
    RequestId.annotations({ description: "Cursor: requestId of the last entry of the previous page (with after-received-at)" }),
    { exact: true }
  ),
  from: Schema.optionalWith(Timestamp.annotations({ description: "Only entries received at or after this time" }), {
    exact: true
  }),
  to: Schema.optionalWith(Timestamp.annotations({ description: "Only entries received before this time" }), {
    exact: true
  })
}).annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } })

/**
 * The rules between parameters: the cursor is both halves or neither (it names one entry:
 * its receivedAt and its requestId), and the window `[from, to)` is not reversed.
 */
const auditQueryProblems = (p: typeof AuditQueryFields.Type): ReadonlyArray<Schema.FilterIssue> => {
  const problems: Array<Schema.FilterIssue> = []
  if ((p["after-id"] === undefined) !== (p["after-received-at"] === undefined)) {
    problems.push({
      path: [p["after-id"] === undefined ? "after-id" : "after-received-at"],
      message: "after-id and after-received-at must be sent together"
    })
  }
  if (p.from !== undefined && p.to !== undefined && DateTime.greaterThan(p.from, p.to)) {
    problems.push({ path: ["from"], message: "from must not be after to" })
  }
  return problems
}

/**
 * Query of GET /v1/audit/recent. Strict: unknown parameters, malformed values and the
 * cross-parameter rules above are 400 `result:invalid-request`, one detail per problem.
 */
export const AuditQueryParams = AuditQueryFields.pipe(Schema.filter(auditQueryProblems))
export type AuditQueryParams = typeof AuditQueryParams.Type

/**
 * GET /v1/audit/recent (bearer): the caller's audit, newest first, keyset-paged with a `Link`
 * header; implemented by `AuditHandlersLive`.
 */
export class AuditGroup extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("recent", "/v1/audit/recent")
      .setUrlParams(AuditQueryParams)
      .addSuccess(Schema.Array(AuditEntry))
      .addError(errorWire(InvalidRequest))
      .annotateContext(summary(
        "The caller's recent quote requests, newest first",
        "Ordered by receivedAt desc, then requestId desc. When more entries exist, the response carries " +
          "`Link: <…>; rel=\"next\"` with the next page's URL (same filters plus the cursor)."
      ))
  )
  .middleware(BearerAuth)
  .annotate(OpenApi.Description, "The audit of quote requests")
{}

/** Query of GET /v1/markets: the moment whose basis to show (default now). Strict like the audit's. */
export const MarketsQueryParams = Schema.Struct({
  at: Schema.optionalWith(
    Timestamp.annotations({ description: "ISO 8601 instant whose tariffs and fits to show; default now" }),
    { exact: true }
  )
}).annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } })
export type MarketsQueryParams = typeof MarketsQueryParams.Type

/**
 * GET /v1/markets (bearer): every market the deployment serves, with its area, clock and the
 * basis of each offer at `at`; implemented by `MarketsHandlersLive`.
 */
export class MarketsGroup extends HttpApiGroup.make("markets")
  .add(
    HttpApiEndpoint.get("list", "/v1/markets")
      .setUrlParams(MarketsQueryParams)
      .addSuccess(Schema.Array(MarketSummary))
      .addError(errorWire(InvalidRequest))
      .annotateContext(summary(
        "The markets served, and what their prices rest on",
        "Each market's id, name, currency, time zone and area (bounding box), and per \"<provider>/<serviceLevel>\" " +
          "the product and the records or tariff its prices rest on at `at` (default now). A point outside every " +
          "area is refused by POST /v1/quote with 422 result:market-not-served, unless the sample market serves it."
      ))
  )
  .middleware(BearerAuth)
  .annotate(OpenApi.Description, "The markets served")
{}

/** Body of the liveness and readiness probes when they pass: `{"status": "ok"}`. */
export const HealthStatus = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "HealthStatus" })

/** Prometheus text exposition format 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

/**
 * Unauthenticated endpoints for the platform: liveness, readiness (storage reachable) and
 * Prometheus metrics; implemented by `OperationsHandlersLive`.
 */
export class OperationsGroup extends HttpApiGroup.make("operations")
  .add(
    HttpApiEndpoint.get("live", "/health/live")
      .addSuccess(HealthStatus)
      .annotateContext(summary("Liveness: the process answers"))
  )
  .add(
    HttpApiEndpoint.get("ready", "/health/ready")
      .addSuccess(HealthStatus)
      .addError(errorWire(StorageUnavailable))
      .annotateContext(summary("Readiness: storage is reachable (503 when it is not)"))
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics")
      .addSuccess(HttpApiSchema.Text({ contentType: PROMETHEUS_CONTENT_TYPE }))
      .annotateContext(summary("Metrics in the Prometheus text format"))
  )
  .annotate(OpenApi.Description, "Operational endpoints (no authentication)")
{}

/**
 * The whole HTTP contract: every group, the 500 body any endpoint may answer, and the 404/405
 * bodies of the edge. Implement it with `RidequoteApiLive` (or `HttpHostLive`); derive a typed
 * client with `HttpApiClient.make(RidequoteApi)` or the OpenAPI document with `OpenApi.fromApi`.
 */
export class RidequoteApi extends HttpApi.make("ridequote")
  .add(AuthGroup)
  .add(CustomerGroup)
  .add(QuotesGroup)
  .add(MarketsGroup)
  .add(AuditGroup)
  .add(OperationsGroup)
  .addError(errorWire(InternalError))
  .annotate(HttpApi.AdditionalSchemas, [errorWire(UnknownRoute), errorWire(MethodNotAllowed)])
  .annotateContext(OpenApi.annotations({
    title: "ridequote",
    version: "1.0.0",
    summary: "Ride price quotes: market prices and recommended price points",
    description:
      "Every response carries X-Request-Id. Errors are JSON {code, message, details?}. An unknown path is " +
      "404 result:not-found (UnknownRouteError) and a known path with the wrong method is 405 " +
      "result:method-not-allowed (MethodNotAllowedError, with an Allow header), before authentication.",
    // The repository grants no license; npm documents "UNLICENSED" as exactly that.
    license: { name: "UNLICENSED", url: "https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license" },
    // Relative: the document describes whichever host serves it.
    servers: [{ url: "/", description: "the host serving this document" }],
    transform: ApiDocumentTransform
  }))
{}
