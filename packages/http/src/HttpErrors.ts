/**
 * Failures that only exist at the HTTP edge: routing, transport limits and the per-account
 * rate limit. Domain failures are core's (`CoreErrors`); these complete the service's error
 * vocabulary (docs/api.md, "Errors"). Like core's, each class carries its wire `code`; adding
 * one: define the class here and add it to `HttpErrors`.
 */
import { resultCode } from "@ridequote/core"
import { Schema } from "effect"

/** No route has this path (any method). */
export class UnknownRoute extends Schema.TaggedError<UnknownRoute>()("UnknownRoute", {
  code: resultCode("result:not-found"),
  message: Schema.String
}) {}

/** The path exists, but not for this method; `allow` lists the methods it does accept. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  code: resultCode("result:method-not-allowed"),
  message: Schema.String,
  allow: Schema.Array(Schema.String).annotations({ description: "Same methods as the Allow header" })
}) {}

/** 413: the request body is larger than `maxBodyBytes`, by its Content-Length or as it is read. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  code: resultCode("result:payload-too-large"),
  message: Schema.String
}) {}

/** 415: a request body that is not sent as `Content-Type: application/json`. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  code: resultCode("result:unsupported-media-type"),
  message: Schema.String
}) {}

/** The account's token bucket is empty; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  code: resultCode("result:rate-limited"),
  message: Schema.String,
  retryAfterSeconds: Schema.Int.annotations({ description: "Same value as the Retry-After header" })
}) {}

/** Anything unexpected. The message is always generic: the cause goes to the log, never the wire. */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  code: resultCode("result:internal"),
  message: Schema.String
}) {}

/** Every error class of the HTTP edge, once (see `CoreErrors` in core for the domain's). */
export const HttpErrors = [
  UnknownRoute,
  MethodNotAllowed,
  PayloadTooLarge,
  UnsupportedMediaType,
  RateLimited,
  InternalError
] as const
