/**
 * The edge: one API-level middleware around every route (API endpoints, /openapi.json and
 * /docs alike). It gives each request its id, turns every failure into the contract's JSON
 * error through the error table (404 and 405 included: they come from the router, before any
 * endpoint middleware runs, hence before authentication), and writes the request's log line
 * and metrics.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiError,
  HttpApp,
  HttpBody,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { InvalidRequest, Randomness } from "@ridequote/core"
import { Cause, Clock, Effect, Option } from "effect"
import { RidequoteApi } from "./Api.js"
import { CurrentRequest, newRequestIdentity } from "./CurrentRequest.js"
import { errorBody, isRenderableError } from "./ErrorTable.js"
import type { RenderableError } from "./ErrorTable.js"
import { invalidRequestFromDecodeError } from "./FieldIssues.js"
import { InternalError, MethodNotAllowed, UnknownRoute } from "./HttpErrors.js"
import { recordRequest } from "./Metrics.js"

/** Routes served next to the API endpoints (by `HttpHostLive`), for 405 and metrics labels. */
export const DOCUMENT_ROUTES: ReadonlyArray<readonly [method: string, path: string]> = [
  ["GET", "/openapi.json"],
  ["GET", "/docs"]
]

/** The quote endpoint, whose errors carry the request id in the body too (contract §1). */
const QUOTE_PATH = "/v1/quote"

/** Path → methods served there. Every path of this service is static. */
export const routeMethods = (
  extra: ReadonlyArray<readonly [string, string]> = DOCUMENT_ROUTES
): ReadonlyMap<string, ReadonlyArray<string>> => {
  const map = new Map<string, Array<string>>()
  const add = (method: string, path: string) => {
    const methods = map.get(path) ?? []
    if (!methods.includes(method)) methods.push(method)
    map.set(path, methods)
  }
  HttpApi.reflect(RidequoteApi, { onGroup: () => {}, onEndpoint: ({ endpoint }) => add(endpoint.method, endpoint.path) })
  for (const [method, path] of extra) add(method, path)
  return map
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"])

const pathOf = (url: string): string => {
  const q = url.search(/[?#]/)
  return q < 0 ? url : url.slice(0, q)
}

const JSON_UTF8 = "application/json; charset=utf-8"

/** RFC 6750 §3: which challenge a 401 carries. */
const challenge = (error: RenderableError, request: HttpServerRequest.HttpServerRequest): string => {
  if (error._tag === "InvalidCredentials") return "ApiKey realm=\"ridequote\""
  const authorization = request.headers["authorization"]
  return authorization !== undefined && authorization.trim() !== ""
    ? "Bearer error=\"invalid_token\""
    : "Bearer realm=\"ridequote\""
}

/** The JSON response for an error, with the headers its status calls for. */
export const errorResponse = (
  error: RenderableError,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string | undefined
): HttpServerResponse.HttpServerResponse => {
  const { body, status } = errorBody(error, requestId)
  const headers: Record<string, string> = {}
  if (status === 401) headers["www-authenticate"] = challenge(error, request)
  if (error._tag === "MethodNotAllowed") headers["allow"] = error.allow.join(", ")
  if (error._tag === "RateLimited") headers["retry-after"] = String(error.retryAfterSeconds)
  return HttpServerResponse.unsafeJson(body, { status, headers, contentType: JSON_UTF8 })
}

type Classified =
  | { readonly _tag: "Known"; readonly error: RenderableError }
  | { readonly _tag: "Unexpected"; readonly cause: Cause.Cause<unknown> }

const isRouteNotFound = (u: unknown): u is HttpServerError.RouteNotFound =>
  HttpServerError.isServerError(u) && u._tag === "RouteNotFound"

/** What a failed request amounts to, as a row of the error table when it is one. */
const classify = (
  cause: Cause.Cause<unknown>,
  path: string,
  routes: ReadonlyMap<string, ReadonlyArray<string>>
): Classified => {
  const failure = Cause.failureOption(cause)
  const value = Option.isSome(failure) ? failure.value : Option.getOrUndefined(Cause.dieOption(cause))
  if (isRenderableError(value)) return { _tag: "Known", error: value }
  if (value instanceof HttpApiError.HttpApiDecodeError) {
    return { _tag: "Known", error: invalidRequestFromDecodeError(value) }
  }
  if (isRouteNotFound(value)) {
    const allow = routes.get(path)
    return {
      _tag: "Known",
      error: allow === undefined
        ? new UnknownRoute({ message: `no route for ${path}` })
        : new MethodNotAllowed({ message: `${path} accepts ${allow.join(", ")}`, allow })
    }
  }
  // A body the framework itself could not read (not ours: JsonBody reads the bodies we use).
  if (HttpServerError.isServerError(value) && value._tag === "RequestError") {
    return { _tag: "Known", error: new InvalidRequest({ message: "the request could not be read" }) }
  }
  return { _tag: "Unexpected", cause }
}

export const EdgeLive = HttpApiBuilder.middleware(
  RidequoteApi,
  Effect.gen(function*() {
    const randomness = yield* Randomness
    const routes = routeMethods()
    return (app: HttpApp.Default) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const startMs = yield* Clock.currentTimeMillis
        const identity = yield* Effect.provideService(newRequestIdentity, Randomness, randomness)
        const { requestId } = identity
        const path = pathOf(request.url)
        const route = routes.has(path) ? path : "unmatched"
        const method = KNOWN_METHODS.has(request.method) ? request.method : "OTHER"

        const response = yield* app.pipe(
          Effect.locally(CurrentRequest, Option.some(identity)),
          Effect.catchAllCause((cause) => {
            // The client went away: there is nobody to answer.
            if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
            const classified = classify(cause, path, routes)
            const quoteId = path === QUOTE_PATH ? requestId : undefined
            if (classified._tag === "Known") return Effect.succeed(errorResponse(classified.error, request, quoteId))
            return Effect.logError("unexpected failure", classified.cause).pipe(
              Effect.annotateLogs({ requestId, method, route }),
              Effect.as(errorResponse(new InternalError({ message: "internal error" }), request, quoteId))
            )
          })
        )
        const durationMs = (yield* Clock.currentTimeMillis) - startMs
        yield* recordRequest(route, method, response.status, durationMs)
        // Never headers, secrets, tokens or bodies: these five fields only.
        yield* Effect.logInfo("request").pipe(
          Effect.annotateLogs({ requestId, method, route, status: response.status, durationMs })
        )
        return withJsonCharset(HttpServerResponse.setHeader(response, "x-request-id", requestId))
      })
  })
)

/** Contract §1: JSON bodies are `application/json; charset=utf-8`. */
const withJsonCharset = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse =>
  response.body._tag === "Uint8Array" && response.body.contentType === "application/json"
    ? HttpServerResponse.setBody(response, HttpBody.uint8Array(response.body.body, JSON_UTF8))
    : response
