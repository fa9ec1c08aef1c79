/**
 * The bearer middleware: verifies the token with core's `Tokens`, provides the caller, and
 * takes one request from the caller's rate limit. Only the 401/429/503 rows can come out.
 */
import { HttpServerRequest } from "@effect/platform"
import { Tokens, Unauthorized } from "@ridequote/core"
import { Effect, Layer } from "effect"
import { BearerAuth } from "./Api.js"
import { AccountRateLimiter } from "./RateLimiter.js"

// RFC 6750 §2.1: the scheme is case-insensitive; the token is base64url-ish and non-empty.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

/** The token of an `Authorization: Bearer …` header, if the header is well-formed. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]

export const BearerAuthLive: Layer.Layer<BearerAuth, never, Tokens | AccountRateLimiter> = Layer.effect(
  BearerAuth,
  Effect.gen(function*() {
    const tokens = yield* Tokens
    const limiter = yield* AccountRateLimiter
    return BearerAuth.of({
      // HttpApi's own bearer decoding slices the header without checking the scheme, so the
      // header is read and checked here instead.
      bearer: () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const token = bearerToken(request.headers["authorization"])
          if (token === undefined) {
            return yield* new Unauthorized({ message: "send Authorization: Bearer <token>" })
          }
          const caller = yield* tokens.verify(token)
          yield* limiter.take(caller.account.id)
          return caller
        })
    })
  })
)
