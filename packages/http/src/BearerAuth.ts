/**
 * The bearer middleware: verifies the token with core's `Tokens`, provides the caller, and
 * takes one request from the caller's rate limit. Only the 401/429/503 rows can come out.
 */
import { HttpServerRequest } from "@effect/platform"
import { Tokens, Unauthorized } from "@ridequote/core"
import type { Caller } from "@ridequote/core"
import { Effect, Layer } from "effect"
import { BearerAuth } from "./Api.js"
import type { RateLimited } from "./HttpErrors.js"
import { AccountRateLimiter } from "./internal/RateLimiter.js"

// RFC 6750 §2.1: the scheme is case-insensitive; the token is base64url-ish and non-empty.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

/** The token of an `Authorization: Bearer …` header, if the header is well-formed. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]

/**
 * The whole bearer check for one request, from its Authorization header: a well-formed header,
 * a valid token (core's Tokens), and one request from the caller's rate limit. Shared by the
 * HttpApi middleware below and the Node host, so both answer alike.
 */
export const makeAuthenticate = (tokens: Tokens, limiter: AccountRateLimiter) =>
(authorization: string | undefined): Effect.Effect<Caller, Unauthorized | VerifyFailure | RateLimited> => {
  const token = bearerToken(authorization)
  if (token === undefined) return Effect.fail(new Unauthorized({ message: "send Authorization: Bearer <token>" }))
  if (!limiter.limits) return tokens.verify(token)
  return Effect.tap(tokens.verify(token), (caller) => limiter.take(caller.account.id))
}

type VerifyFailure = Effect.Effect.Error<ReturnType<Tokens["verify"]>>

/**
 * The `BearerAuth` middleware: needs core's `Tokens` and an `AccountRateLimiter`
 * (`AccountRateLimiterLive`); fails with the 401, 429 or 503 rows only.
 */
export const BearerAuthLive: Layer.Layer<BearerAuth, never, Tokens | AccountRateLimiter> = Layer.effect(
  BearerAuth,
  Effect.gen(function*() {
    const authenticate = makeAuthenticate(yield* Tokens, yield* AccountRateLimiter)
    return BearerAuth.of({
      // HttpApi's own bearer decoding slices the header without checking the scheme, so the
      // header is read and checked here instead.
      bearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => authenticate(request.headers["authorization"]))
    })
  })
)
