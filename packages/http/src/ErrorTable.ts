/**
 * The one table from error to HTTP status (contract §1). Every error the service can answer
 * with has a row: its status, its wire `code` (the same as the error's own `.code`) and the
 * schema of its body `{code, message, details?}`. The endpoint definitions declare these
 * schemas (OpenAPI and the typed client read them), and both hosts render every failure through
 * `failureHead` (Edge.ts), so the two cannot drift apart.
 */
import { HttpApiSchema } from "@effect/platform"
import {
  AccessViewStale,
  AccountBlocked,
  AccountNotFound,
  AccountStatus,
  BehaviorNotFound,
  FieldIssue,
  InvalidCredentials,
  InvalidRequest,
  MarketNotServed,
  RouteMetadataIncomplete,
  RouteUnavailable,
  StorageUnavailable,
  TokenExpired,
  TokenInvalid,
  TokenNotFound,
  TokenRevoked,
  Unauthorized
} from "@ridequote/core"
import type { ErrorCode } from "@ridequote/core"
import { Schema } from "effect"
import {
  InternalError,
  MethodNotAllowed,
  PayloadTooLarge,
  RateLimited,
  UnknownRoute,
  UnsupportedMediaType
} from "./HttpErrors.js"

/** Fields every error body may carry. */
const commonFields = {
  message: Schema.String.annotations({ description: "Human-readable explanation; never contains secrets or tokens" }),
  requestId: Schema.optional(Schema.String.annotations({
    description: "The request's id, equal to X-Request-Id (and, on POST /v1/quote, to the audit entry's requestId)"
  }))
}

/** The body of an error response, whatever its code. */
export const ErrorBody = Schema.Struct({
  code: Schema.String,
  ...commonFields,
  details: Schema.optional(Schema.Array(FieldIssue))
}).annotations({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type

type WithMessage = { readonly message: string }

/** Wire schema for errors that carry nothing but a message. */
const messageOnly = <E extends WithMessage, I, const Code extends ErrorCode>(
  self: Schema.Schema<E, I> & (new (props: { readonly message: string }) => E),
  code: Code,
  status: number
) =>
  Schema.transform(
    Schema.Struct({ code: Schema.Literal(code), ...commonFields }),
    Schema.typeSchema(self),
    {
      strict: true,
      decode: (body) => new self({ message: body.message }),
      // An Error's `message` is not enumerable: read it explicitly, never spread.
      encode: (e) => ({ code, message: e.message })
    }
  ).annotations(HttpApiSchema.annotations({ status }))

export const InvalidRequestWire = Schema.transform(
  Schema.Struct({
    code: Schema.Literal("result:invalid-request"),
    ...commonFields,
    details: Schema.optional(Schema.Array(FieldIssue).annotations({ description: "One entry per offending field" }))
  }),
  Schema.typeSchema(InvalidRequest),
  {
    strict: true,
    decode: (b) => new InvalidRequest({ message: b.message, ...(b.details !== undefined ? { details: b.details } : {}) }),
    encode: (e) => ({
      code: "result:invalid-request" as const,
      message: e.message,
      ...(e.details !== undefined ? { details: e.details } : {})
    })
  }
).annotations(HttpApiSchema.annotations({ status: 400 }))

export const AccountBlockedWire = Schema.transform(
  Schema.Struct({
    code: Schema.Literal("result:account-blocked"),
    ...commonFields,
    accountStatus: AccountStatus.annotations({ description: "The caller's own account status (Pending or Blocked)" })
  }),
  Schema.typeSchema(AccountBlocked),
  {
    strict: true,
    decode: (b) => new AccountBlocked({ message: b.message, status: b.accountStatus }),
    encode: (e) => ({ code: "result:account-blocked" as const, message: e.message, accountStatus: e.status })
  }
).annotations(HttpApiSchema.annotations({ status: 403 }))

export const RateLimitedWire = Schema.transform(
  Schema.Struct({
    code: Schema.Literal("result:rate-limited"),
    ...commonFields,
    retryAfterSeconds: Schema.Int.annotations({ description: "Same value as the Retry-After header" })
  }),
  Schema.typeSchema(RateLimited),
  {
    strict: true,
    decode: (b) => new RateLimited({ message: b.message, retryAfterSeconds: b.retryAfterSeconds }),
    encode: (e) => ({ code: "result:rate-limited" as const, message: e.message, retryAfterSeconds: e.retryAfterSeconds })
  }
).annotations(HttpApiSchema.annotations({ status: 429 }))

export const MethodNotAllowedWire = Schema.transform(
  Schema.Struct({
    code: Schema.Literal("result:method-not-allowed"),
    ...commonFields,
    allow: Schema.Array(Schema.String).annotations({ description: "Same methods as the Allow header" })
  }),
  Schema.typeSchema(MethodNotAllowed),
  {
    strict: true,
    decode: (b) => new MethodNotAllowed({ message: b.message, allow: b.allow }),
    encode: (e) => ({ code: "result:method-not-allowed" as const, message: e.message, allow: e.allow })
  }
).annotations(HttpApiSchema.annotations({ status: 405 }))

export const RouteMetadataIncompleteWire = messageOnly(
  RouteMetadataIncomplete, "result:route-metadata-incomplete", 400)
export const MarketNotServedWire = messageOnly(MarketNotServed, "result:invalid-request", 400)
export const BehaviorNotFoundWire = messageOnly(BehaviorNotFound, "result:invalid-request", 400)
export const InvalidCredentialsWire = messageOnly(InvalidCredentials, "result:invalid-credentials", 401)
export const UnauthorizedWire = messageOnly(Unauthorized, "result:unauthorized", 401)
export const TokenInvalidWire = messageOnly(TokenInvalid, "result:token-invalid", 401)
export const TokenExpiredWire = messageOnly(TokenExpired, "result:token-expired", 401)
export const TokenRevokedWire = messageOnly(TokenRevoked, "result:token-revoked", 401)
export const TokenNotFoundWire = messageOnly(TokenNotFound, "result:not-found", 404)
export const AccountNotFoundWire = messageOnly(AccountNotFound, "result:not-found", 404)
export const UnknownRouteWire = messageOnly(UnknownRoute, "result:not-found", 404)
export const PayloadTooLargeWire = messageOnly(PayloadTooLarge, "result:payload-too-large", 413)
export const UnsupportedMediaTypeWire = messageOnly(
  UnsupportedMediaType, "result:unsupported-media-type", 415)
export const InternalErrorWire = messageOnly(InternalError, "result:internal", 500)
export const StorageUnavailableWire = messageOnly(StorageUnavailable, "result:unavailable", 503)
export const AccessViewStaleWire = messageOnly(AccessViewStale, "result:unavailable", 503)
export const RouteUnavailableWire = messageOnly(RouteUnavailable, "result:unavailable", 503)

/** Every error the HTTP service can answer with. */
export type RenderableError =
  | InvalidRequest
  | RouteMetadataIncomplete
  | MarketNotServed
  | BehaviorNotFound
  | InvalidCredentials
  | Unauthorized
  | TokenInvalid
  | TokenExpired
  | TokenRevoked
  | AccountBlocked
  | TokenNotFound
  | AccountNotFound
  | UnknownRoute
  | MethodNotAllowed
  | PayloadTooLarge
  | UnsupportedMediaType
  | RateLimited
  | InternalError
  | StorageUnavailable
  | AccessViewStale
  | RouteUnavailable

export interface ErrorRow<E> {
  /** From the body schema's own status annotation: each status is written once, on its schema. */
  readonly status: number
  /** The body schema the endpoints declare; its `code` literal is the error's `.code`. */
  readonly wire: Schema.Schema.AnyNoContext
  /** The body, through `wire`. */
  readonly encode: (error: E) => { readonly code: ErrorCode }
}

const row = <E, I extends { readonly code: ErrorCode }>(wire: Schema.Schema<E, I>): ErrorRow<E> => ({
  status: HttpApiSchema.getStatusError(wire),
  wire,
  encode: Schema.encodeSync(wire)
})

/** Error tag → status, code and body schema. Exhaustive over `RenderableError` (checked by the compiler). */
export const errorTable: {
  readonly [K in RenderableError["_tag"]]: ErrorRow<Extract<RenderableError, { _tag: K }>>
} = {
  InvalidRequest: row(InvalidRequestWire),
  RouteMetadataIncomplete: row(RouteMetadataIncompleteWire),
  MarketNotServed: row(MarketNotServedWire),
  BehaviorNotFound: row(BehaviorNotFoundWire),
  InvalidCredentials: row(InvalidCredentialsWire),
  Unauthorized: row(UnauthorizedWire),
  TokenInvalid: row(TokenInvalidWire),
  TokenExpired: row(TokenExpiredWire),
  TokenRevoked: row(TokenRevokedWire),
  AccountBlocked: row(AccountBlockedWire),
  TokenNotFound: row(TokenNotFoundWire),
  AccountNotFound: row(AccountNotFoundWire),
  UnknownRoute: row(UnknownRouteWire),
  MethodNotAllowed: row(MethodNotAllowedWire),
  PayloadTooLarge: row(PayloadTooLargeWire),
  UnsupportedMediaType: row(UnsupportedMediaTypeWire),
  RateLimited: row(RateLimitedWire),
  InternalError: row(InternalErrorWire),
  StorageUnavailable: row(StorageUnavailableWire),
  AccessViewStale: row(AccessViewStaleWire),
  RouteUnavailable: row(RouteUnavailableWire)
}

const renderableTags: ReadonlySet<string> = new Set(Object.keys(errorTable))

export const isRenderableError = (u: unknown): u is RenderableError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && renderableTags.has(u._tag) &&
  u instanceof Error

/** Status of an error, from the table. */
export const errorStatus = (e: RenderableError): number => errorTable[e._tag].status

/** The status and JSON body for an error, with the request's id when given. */
export const errorBody = (
  e: RenderableError,
  requestId?: string
): { readonly status: number; readonly body: { readonly code: ErrorCode; readonly requestId?: string } } => {
  const encoded = encodeRow(e)
  return { status: errorStatus(e), body: requestId === undefined ? encoded : { ...encoded, requestId } }
}

// Narrowing by tag keeps each row paired with its own error type, without a cast.
const encodeRow = (e: RenderableError): { readonly code: ErrorCode } => {
  switch (e._tag) {
    case "InvalidRequest": return errorTable.InvalidRequest.encode(e)
    case "RouteMetadataIncomplete": return errorTable.RouteMetadataIncomplete.encode(e)
    case "MarketNotServed": return errorTable.MarketNotServed.encode(e)
    case "BehaviorNotFound": return errorTable.BehaviorNotFound.encode(e)
    case "InvalidCredentials": return errorTable.InvalidCredentials.encode(e)
    case "Unauthorized": return errorTable.Unauthorized.encode(e)
    case "TokenInvalid": return errorTable.TokenInvalid.encode(e)
    case "TokenExpired": return errorTable.TokenExpired.encode(e)
    case "TokenRevoked": return errorTable.TokenRevoked.encode(e)
    case "AccountBlocked": return errorTable.AccountBlocked.encode(e)
    case "TokenNotFound": return errorTable.TokenNotFound.encode(e)
    case "AccountNotFound": return errorTable.AccountNotFound.encode(e)
    case "UnknownRoute": return errorTable.UnknownRoute.encode(e)
    case "MethodNotAllowed": return errorTable.MethodNotAllowed.encode(e)
    case "PayloadTooLarge": return errorTable.PayloadTooLarge.encode(e)
    case "UnsupportedMediaType": return errorTable.UnsupportedMediaType.encode(e)
    case "RateLimited": return errorTable.RateLimited.encode(e)
    case "InternalError": return errorTable.InternalError.encode(e)
    case "StorageUnavailable": return errorTable.StorageUnavailable.encode(e)
    case "AccessViewStale": return errorTable.AccessViewStale.encode(e)
    case "RouteUnavailable": return errorTable.RouteUnavailable.encode(e)
  }
}
