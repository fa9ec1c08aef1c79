/**
 * Failures that only exist at the HTTP edge: routing, transport limits and the per-account
 * rate limit. Domain failures are core's; these complete the contract's error table (§1).
 */
import { Schema } from "effect"
import type { ErrorCode } from "@ridequote/core"

/** No route has this path (any method). */
export class UnknownRoute extends Schema.TaggedError<UnknownRoute>()("UnknownRoute", { message: Schema.String }) {
  get code(): ErrorCode { return "result:not-found" }
}

/** The path exists, but not for this method; `allow` lists the methods it does accept. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  message: Schema.String,
  allow: Schema.Array(Schema.String)
}) {
  get code(): ErrorCode { return "result:method-not-allowed" }
}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:payload-too-large" }
}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  message: Schema.String
}) {
  get code(): ErrorCode { return "result:unsupported-media-type" }
}

/** The account's token bucket is empty; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retryAfterSeconds: Schema.Int
}) {
  get code(): ErrorCode { return "result:rate-limited" }
}

/** Anything unexpected. The message is always generic: the cause goes to the log, never the wire. */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", { message: Schema.String }) {
  get code(): ErrorCode { return "result:internal" }
}
