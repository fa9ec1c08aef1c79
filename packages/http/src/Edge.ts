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
import { makeCorsPolicy, mergeVary } from "./internal/Cors.js"
import type { CorsHeaders } from "./internal/Cors.js"
import { callerRequestId, CurrentRequest, newRequestIdentity } from "./internal/CurrentRequest.js"
import { DOCS_PATH, DOCS_SCRIPT_PATH, OPENAPI_PATH } from "./internal/DocsPage.js"
import { endpointPath } from "./internal/EndpointPaths.js"
import { errorBody, isRenderableError } from "./ErrorTable.js"
import type { RenderableError } from "./ErrorTable.js"
import { invalidRequestFromDecodeError } from "./internal/FieldIssues.js"
import { RidequoteHttpConfig } from "./HttpConfig.js"
import { InternalError, MethodNotAllowed, UnknownRoute } from "./HttpErrors.js"
import { recordRequest } from "./internal/Metrics.js"
import {
  joinedHeader,
  makeNearMiss,
  messageProblem,
  oddRequestLines,
  originForm,
  repeatedHeader,
  repeatedHeaderError
} from "./internal/RequestReading.js"

/** Routes served next to the API endpoints (by `HttpHostLive`), for 405 and metrics labels. */
export const DOCUMENT_ROUTES: ReadonlyArray<readonly [method: string, path: string]> = [
  ["GET", OPENAPI_PATH],
  ["GET", DOCS_PATH],
  ["GET", DOCS_SCRIPT_PATH]
]

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

export const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"])

export const pathOf = (url: string): string => {
  const q = url.search(/[?#]/)
  return q < 0 ? url : url.slice(0, q)
}

export const JSON_UTF8 = "application/json; charset=utf-8"

/** RFC 6750 §3: which challenge a 401 carries. */
const challenge = (error: RenderableError, authorization: string | undefined): string => {
  if (error._tag === "InvalidCredentials") return "ApiKey realm=\"ridequote\""
  return authorization !== undefined && authorization.trim() !== ""
    ? "Bearer error=\"invalid_token\""
    : "Bearer realm=\"ridequote\""
}

/** An error answer as plain data: status, the headers its status calls for, the JSON body. */
export interface ErrorHead {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: object
}

/**
 * The answer to an error, whatever transport writes it (the HttpApi edge below, or the Node
 * host): `authorization` is the request's Authorization header, which picks the 401 challenge.
 */
export const errorHead = (
  error: RenderableError,
  authorization: string | undefined,
  requestId: string | undefined
): ErrorHead => {
  const { body, status } = errorBody(error, requestId)
  const headers: Record<string, string> = {}
  if (status === 401) headers["www-authenticate"] = challenge(error, authorization)
  if (error._tag === "MethodNotAllowed") headers["allow"] = error.allow.join(", ")
  if (error._tag === "RateLimited") headers["retry-after"] = String(error.retryAfterSeconds)
  return { status, headers, body }
}

/** An error answer as Effect's HTTP response (the Node host writes the same head itself). */
const errorResponse = ({ body, headers, status }: ErrorHead): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(body, { status, headers, contentType: JSON_UTF8 })

/**
 * The 404 of a path we do not serve. The path is not repeated: messages never echo what was
 * sent (docs/api.md, "Errors"), which a page rendering the message could be made to show.
 */
export const unknownRoute = (): UnknownRoute =>
  new UnknownRoute({ message: "no route for this path (the paths are in docs/api.md and /openapi.json)" })

export type Classified =
  | { readonly _tag: "Known"; readonly error: RenderableError }
  | { readonly _tag: "Unexpected"; readonly cause: Cause.Cause<unknown> }

const isRouteNotFound = (u: unknown): u is HttpServerError.RouteNotFound =>
  HttpServerError.isServerError(u) && u._tag === "RouteNotFound"

/** What a failed request amounts to, as a row of the error table when it is one. */
export const classify = (
  cause: Cause.Cause<unknown>,
  path: string,
  routes: ReadonlyMap<string, ReadonlyArray<string>>
): Classified => {
  // Only failures are rows of the table. A defect is a 500 whatever it carries: core dies
  // with a BehaviorNotFound for a misconfigured account (audited as result:internal), and
  // rendering that as the 400 row would tell the caller it was their fault.
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure)) return { _tag: "Unexpected", cause }
  const value = failure.value
  if (isRenderableError(value)) return { _tag: "Known", error: value }
  if (value instanceof HttpApiError.HttpApiDecodeError) {
    return { _tag: "Known", error: invalidRequestFromDecodeError(value) }
  }
  if (isRouteNotFound(value)) {
    const allow = routes.get(path)
    return {
      _tag: "Known",
      error: allow === undefined
        ? unknownRoute()
        : new MethodNotAllowed({ message: `${path} accepts ${allow.join(", ")}`, allow })
    }
  }
  // A body the framework itself could not read (not ours: JsonBody reads the bodies we use).
  if (HttpServerError.isServerError(value) && value._tag === "RequestError") {
    return { _tag: "Known", error: new InvalidRequest({ message: "the request could not be read" }) }
  }
  return { _tag: "Unexpected", cause }
}

/**
 * The answer to a failed request: its row of the error table, or a 500 for anything
 * unexpected (logged with its cause, never shown to the client). Every error body carries the
 * request's id (the same as `X-Request-Id`), so a caller can quote it when asking about it.
 */
export const failureHead = (
  cause: Cause.Cause<unknown>,
  request: { readonly path: string; readonly method: string; readonly route: string; readonly authorization: string | undefined },
  routes: ReadonlyMap<string, ReadonlyArray<string>>,
  requestId: string
): Effect.Effect<ErrorHead> => {
  const classified = classify(cause, request.path, routes)
  if (classified._tag === "Known") return Effect.succeed(errorHead(classified.error, request.authorization, requestId))
  return Effect.logError("unexpected failure", classified.cause).pipe(
    Effect.annotateLogs({ requestId, method: request.method, route: request.route }),
    Effect.as(errorHead(new InternalError({ message: "internal error" }), request.authorization, requestId))
  )
}

/** Metrics and the log line of an answered request, the same on every transport. */
export const requestAnswered = (
  fields: { readonly requestId: string; readonly method: string; readonly route: string; readonly status: number },
  startMs: number
): Effect.Effect<void> =>
  Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
    const durationMs = nowMs - startMs
    return Effect.zipRight(
      recordRequest(fields.route, fields.method, fields.status, durationMs),
      // Never headers, secrets, tokens or bodies: these five fields only.
      Effect.logInfo("request").pipe(Effect.annotateLogs({ ...fields, durationMs }))
    )
  })

/** The metrics label of a request's method (unknown methods share one label). */
export const methodLabel = (method: string): string => (KNOWN_METHODS.has(method) ? method : "OTHER")

/** The path of POST /v1/quote, whose error bodies carry the quote's own id (see `errorBodyRequestId`). */
const QUOTE_PATH = endpointPath("quotes", "quote")

/**
 * The `requestId` of an error body: the id the request is answered with (the caller's
 * well-formed `X-Request-Id`, else the request's own) — except on POST /v1/quote, where it is
 * the quote's own id, the key of its audit entry, whatever the caller sent.
 */
export const errorBodyRequestId = (route: string, requestId: string, responseId: string): string =>
  route === QUOTE_PATH ? requestId : responseId

/** A response with CORS's headers added (`Vary` merged with the response's own). */
const withCorsHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  headers: CorsHeaders
): HttpServerResponse.HttpServerResponse => {
  let out = response
  for (const [name, value] of Object.entries(headers)) {
    out = HttpServerResponse.setHeader(out, name, name === "vary" ? mergeVary(out.headers["vary"], value) : value)
  }
  return out
}

/**
 * The middleware around every request of `RidequoteApi`: assigns the request id (or keeps the
 * caller's well-formed `X-Request-Id`) and returns it as a header, renders every failure through
 * the error table (unexpected ones as a logged 500), answers 404/405 and CORS preflights,
 * records metrics and writes the request's log line. Needs `Randomness` and
 * `RidequoteHttpConfig` (for the CORS origins).
 */
export const EdgeLive = HttpApiBuilder.middleware(
  RidequoteApi,
  Effect.gen(function*() {
    const randomness = yield* Randomness
    const config = yield* RidequoteHttpConfig
    const cors = makeCorsPolicy(config.corsOrigins)
    const routes = routeMethods()
    const nearMiss = makeNearMiss(routes.keys())
    return (app: HttpApp.Default) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const startMs = yield* Clock.currentTimeMillis
        const identity = yield* Effect.provideService(newRequestIdentity, Randomness, randomness)
        const { requestId } = identity
        // What the answer and the log line carry: the caller's own id when well-formed.
        const responseId = callerRequestId(request.headers["x-request-id"]) ?? requestId
        // One reading of the head (RequestReading.ts): the exact path, the target's host, no
        // single-valued header twice. Routers normalize paths (case, `//`, `;matrix`): a path
        // that is one of our routes only once normalized is refused here; other unknown paths
        // go on to the router (a host may add routes of its own next to the API).
        const target = originForm(request.url, request.headers["host"])
        const path = typeof target === "string" ? pathOf(target) : pathOf(request.url)
        const route = routes.has(path) ? path : "unmatched"
        const method = methodLabel(request.method)
        // Not a plain HTTP/1.1 message (RequestReading.ts, `messageProblem`): refused whatever
        // the path, and the connection closed, since its framing may be read otherwise.
        const message = messageProblem(messageHeadOf(request))
        const headProblem = message !== undefined
          ? message
          : typeof target !== "string"
          ? target
          : route === "unmatched"
          ? (nearMiss(path) ? unknownRoute() : undefined)
          : routes.get(path)?.includes(request.method) === true
          ? repeatedHeaderProblem(request)
          : undefined
        const served = headProblem !== undefined
          ? Effect.fail(headProblem)
          : target === request.url
          ? app
          : Effect.provideService(app, HttpServerRequest.HttpServerRequest, request.modify({ url: target as string }))

        if (cors !== undefined && message === undefined && request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
          const methods = routes.get(path)
          const preflight = methods === undefined ? undefined : cors.preflightHeaders(request.headers["origin"], methods)
          if (preflight !== undefined) {
            yield* requestAnswered({ requestId: responseId, method, route, status: 204 }, startMs)
            return HttpServerResponse.empty({ status: 204, headers: { ...preflight, "x-request-id": responseId } })
          }
        }

        const response = yield* served.pipe(
          Effect.locally(CurrentRequest, Option.some(identity)),
          Effect.catchAllCause((cause) => {
            // The client went away: there is nobody to answer.
            if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
            return Effect.map(
              failureHead(
                cause,
                { path, method, route, authorization: request.headers["authorization"] },
                routes,
                errorBodyRequestId(route, requestId, responseId)
              ),
              errorResponse
            )
          })
        )
        yield* requestAnswered({ requestId: responseId, method, route, status: response.status }, startMs)
        const identified = HttpServerResponse.setHeader(response, "x-request-id", responseId)
        const answered = withJsonCharset(message === undefined ? identified : HttpServerResponse.setHeader(identified, "connection", "close"))
        return cors === undefined ? answered : withCorsHeaders(answered, cors.responseHeaders(request.headers["origin"]))
      })
  })
)

/**
 * A single-valued header sent twice, as a 400: from the raw header list when the host gives one
 * (Node's, whose `headers` keep the first Authorization and drop the rest), else from values
 * joined by the platform (the Fetch API joins repeats with ", ").
 */
const repeatedHeaderProblem = (request: HttpServerRequest.HttpServerRequest): InvalidRequest | undefined => {
  const rawHeaders = (request.source as { readonly rawHeaders?: unknown }).rawHeaders
  const name = Array.isArray(rawHeaders) ? repeatedHeader(rawHeaders as Array<string>) : joinedHeader(request.headers)
  return name === undefined ? undefined : repeatedHeaderError(name)
}

/**
 * The head `messageProblem` reads: from Node's request when the host gives one (version, the
 * request line's mark), else what every platform has (the Fetch API has no version to read).
 */
const messageHeadOf = (request: HttpServerRequest.HttpServerRequest) => {
  const source = request.source as { readonly httpVersion?: unknown }
  return {
    httpVersion: typeof source.httpVersion === "string" ? source.httpVersion : undefined,
    url: request.url,
    host: request.headers["host"],
    transferEncoding: request.headers["transfer-encoding"],
    oddRequestLine: typeof request.source === "object" && request.source !== null && oddRequestLines.has(request.source)
  }
}

/** JSON bodies are `application/json; charset=utf-8` (docs/api.md). */
const withJsonCharset = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse =>
  response.body._tag === "Uint8Array" && response.body.contentType === "application/json"
    ? HttpServerResponse.setBody(response, HttpBody.uint8Array(response.body.body, JSON_UTF8))
    : response
