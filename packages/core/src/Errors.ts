/**
 * Every failure core can report, as typed errors. Each carries its wire `code` (the seed's
 * `result:*` codes are domain outcomes: the audit records them too); the one table that maps
 * errors to HTTP statuses lives in `@ridequote/http`.
 */
import { Schema } from "effect"
import { AccountStatus } from "./Account.js"

export const ErrorCode = Schema.Literal(
  "result:invalid-request",
  "result:route-metadata-incomplete",
  "result:invalid-credentials",
  "result:unauthorized",
  "result:token-invalid",
  "result:token-expired",
  "result:token-revoked",
  "result:account-blocked",
  "result:not-found",
  "result:method-not-allowed",
  "result:payload-too-large",
  "result:unsupported-media-type",
  "result:rate-limited",
  "result:internal",
  "result:unavailable"
).annotations({ identifier: "ErrorCode" })
export type ErrorCode = typeof ErrorCode.Type

/** A field-level problem in a request (`details` of the error body). */
export const FieldIssue = Schema.Struct({
  path: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
  message: Schema.String
}).annotations({ identifier: "FieldIssue" })
export type FieldIssue = typeof FieldIssue.Type

/** Malformed or out-of-bounds input (also a resolved route out of bounds). */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String,
  details: Schema.optional(Schema.Array(FieldIssue))
}) {
  get code(): ErrorCode { return "result:invalid-request" }
}

/** Seed rule 3: exactly one of distanceKm and durationMinutes was sent. */
export class RouteMetadataIncomplete extends Schema.TaggedError<RouteMetadataIncomplete>()("RouteMetadataIncomplete", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:route-metadata-incomplete" }
}

/** No configured market serves the pickup point. */
export class MarketNotServed extends Schema.TaggedError<MarketNotServed>()("MarketNotServed", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:invalid-request" }
}

/** Token issue with a missing, unknown or wrong key/secret; one message for every case. */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:invalid-credentials" }
}

/** No bearer token, or a string that is not a well-formed JWT. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { message: Schema.String }) {
  get code(): ErrorCode { return "result:unauthorized" }
}

/** Bad signature, an alg other than HS256, wrong issuer, unknown kid, malformed claims. */
export class TokenInvalid extends Schema.TaggedError<TokenInvalid>()("TokenInvalid", { message: Schema.String }) {
  get code(): ErrorCode { return "result:token-invalid" }
}

export class TokenExpired extends Schema.TaggedError<TokenExpired>()("TokenExpired", { message: Schema.String }) {
  get code(): ErrorCode { return "result:token-expired" }
}

export class TokenRevoked extends Schema.TaggedError<TokenRevoked>()("TokenRevoked", { message: Schema.String }) {
  get code(): ErrorCode { return "result:token-revoked" }
}

/** Seed: the account is Pending or Blocked. */
export class AccountBlocked extends Schema.TaggedError<AccountBlocked>()("AccountBlocked", {
  message: Schema.String,
  status: AccountStatus
}) {
  get code(): ErrorCode { return "result:account-blocked" }
}

/** Revoke of a jti that does not exist or belongs to another account (indistinguishable on purpose). */
export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()("TokenNotFound", { message: Schema.String }) {
  get code(): ErrorCode { return "result:not-found" }
}

/** Operator commands naming an account that does not exist. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:not-found" }
}

/** A behavior id that the registry does not know. */
export class BehaviorNotFound extends Schema.TaggedError<BehaviorNotFound>()("BehaviorNotFound", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:invalid-request" }
}

/** Storage could not be reached or failed; the operation did not take effect. */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()("StorageUnavailable", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:unavailable" }
}

/**
 * Fail closed (contract §2): this instance's view of revocations and account status is older
 * than the limit, so it refuses to honour tokens that may have been revoked elsewhere.
 */
export class AccessViewStale extends Schema.TaggedError<AccessViewStale>()("AccessViewStale", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:unavailable" }
}

/** The route resolver could not infer distance and duration. */
export class RouteUnavailable extends Schema.TaggedError<RouteUnavailable>()("RouteUnavailable", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:unavailable" }
}

/** Errors of token verification, as the bearer middleware sees them. */
export type VerifyError = Unauthorized | TokenInvalid | TokenExpired | TokenRevoked | AccessViewStale

/** Errors a quote can end in; each is recorded in the audit as a rejected decision. */
export type QuoteError =
  | InvalidRequest
  | RouteMetadataIncomplete
  | MarketNotServed
  | AccountBlocked
  | RouteUnavailable
