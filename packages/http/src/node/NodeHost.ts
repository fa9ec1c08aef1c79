/**
 * The service on Node's own `http` server, at the platform's speed.
 *
 * Effect's HTTP server stack (request wrapper, router, middleware chain, tracer span, schema
 * encoding per response) costs ~150–200 µs of CPU per request on this class of machine, five
 * times what `node:http` itself needs (docs/performance.md). So the routes on a booking
 * flow's hot path — health checks, token issue, the caller's account and the quote — are
 * answered here by a request listener that reads the request with Node's own objects and
 * runs one fiber of core's services per request. Every other route (revoke, audit, metrics,
 * OpenAPI, docs, unknown paths and methods) goes to the `HttpApi` application, exactly as
 * `HttpHostLive` serves it.
 *
 * Both lanes share the rules: bearer authentication (`makeAuthenticate`), the JSON body rules
 * (`jsonHeadProblem`, `decodeJsonBytes`), the error table (`failureHead`), the quote
 * (`priceQuoteAudited`: core's quote, answered here once its audit record is durable) and the
 * request's metrics and log line (`requestAnswered`). Paths come from
 * `RidequoteApi`, responses are encoded with the endpoints' own success schemas, so the
 * contract (OpenAPI, typed client) describes what this listener answers; the contract test
 * suite runs against both hosts.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { HttpApiBuilder } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  IssuedToken,
  Quotes,
  QuoteRequest,
  QuoteResponse,
  Randomness,
  RequestId,
  StorageHealth,
  Tokens,
  Account,
  acceptPlainQuoteRequest,
  InvalidRequest,
  trustedJson
} from "@ridequote/core"
import type { Audited, Caller, QuoteContext } from "@ridequote/core"
import { Cause, Context, DateTime, Effect, Either, Exit, Layer, Redacted, Runtime, Schema } from "effect"
import { makeAuthenticate } from "../BearerAuth.js"
import { makeCorsPolicy } from "../internal/Cors.js"
import { callerRequestId } from "../internal/CurrentRequest.js"
import { errorBodyRequestId, errorHead, failureHead, JSON_UTF8, methodLabel, pathOf, routeMethods } from "../Edge.js"
import { unsafeRecordRequest } from "../internal/Metrics.js"
import { makeRequestLog } from "../internal/RequestLog.js"
import type { RequestLogWriter } from "../internal/RequestLog.js"
import { priceQuoteAudited, quoteAnswered, secretInQuery } from "../Handlers.js"
import { withRidequoteApp } from "../Host.js"
import type { HttpHostRequirements } from "../Host.js"
import { RidequoteHttpConfig } from "../HttpConfig.js"
import type { RidequoteHttpOptions } from "../HttpConfig.js"
import { boundedBody, decodeJsonBytes, jsonHeadProblem } from "../internal/JsonBody.js"
import type { PayloadTooLarge, UnsupportedMediaType } from "../HttpErrors.js"
import { AccountRateLimiter, AccountRateLimiterLive } from "../internal/RateLimiter.js"
import { endpointPath } from "../internal/EndpointPaths.js"
import { messageProblem, repeatedHeader, repeatedHeaderError } from "../internal/RequestReading.js"
import { oddRequestLine } from "./NodeServer.js"

/** Options of `NodeHostLive` beyond the HTTP settings (`RidequoteHttpOptions`). */
export interface NodeHostOptions {
  /**
   * Writes the hot routes' request lines directly in the host's own format (see
   * `RequestLogWriter`); without it they go through the runtime's loggers.
   */
  readonly requestLog?: RequestLogWriter | undefined
}

/** A `node:http` request listener: `createServer(listener)` or `server.on("request", listener)`. */
export type NodeRequestListener = (request: IncomingMessage, response: ServerResponse) => void

/** The whole service as one `node:http` request listener. */
export class NodeHost extends Context.Tag("@ridequote/http/NodeHost")<NodeHost, NodeRequestListener>() {}

/** A successful answer: status and JSON text. */
interface Answer {
  readonly status: number
  readonly json: string
}

/** What a hot route computes for one request, given its id and arrival (the quote's context). */
type RouteEffect = (
  request: IncomingMessage,
  context: QuoteContext
) => Effect.Effect<Answer, unknown>

/** A body as the listener read it before the route's fiber started: the bytes, or why not (415, 413, 400). */
type BodyRead = Either.Either<Uint8Array, UnsupportedMediaType | PayloadTooLarge | InvalidRequest>

/**
 * The quote: given the body read beforehand, an effect that decides and submits the audit
 * record, answered once the record is durable (core's `Audited`). The fiber ends before the
 * commit; the host waits with a callback (docs/performance.md, change 23).
 */
type AuditedRouteEffect = (
  request: IncomingMessage,
  context: QuoteContext,
  body: BodyRead
) => Effect.Effect<Audited<QuoteResponse, unknown>, unknown>

interface HotRoute {
  /** The path, for the metrics label and the log line. */
  readonly route: string
  readonly method: string
  /**
   * The route's work as an effect; for a route with a JSON body, an effect given the body read
   * beforehand; or a constant answer given without running a fiber (the liveness probe).
   */
  readonly serve:
    | { readonly _tag: "Effect"; readonly run: RouteEffect }
    | {
      readonly _tag: "Audited"
      readonly run: AuditedRouteEffect
      /** The answer once the record is durable; it also counts the quote. */
      readonly answer: (response: QuoteResponse) => Answer
    }
    | { readonly _tag: "Constant"; readonly answer: Answer }
}

const runs = (run: RouteEffect): HotRoute["serve"] => ({ _tag: "Effect", run })

const ok = <A, I>(schema: Schema.Schema<A, I>) => {
  // Built once, for values core built (see core's Encoding.ts): the endpoint's success schema.
  // A quote's prices were already written for its audit entry: their text is reused.
  const json = trustedJson(schema)
  return (value: A): Answer => ({ status: 200, json: json(value) })
}

/** `f` memoized per argument object, for immutable values that recur (an account). */
const memoizedByObject = <A extends object, B>(f: (a: A) => B): (a: A) => B => {
  const cache = new WeakMap<A, B>()
  return (a) => {
    let b = cache.get(a)
    if (b === undefined) {
      b = f(a)
      cache.set(a, b)
    }
    return b
  }
}

/**
 * Reads a request body under the limit (`boundedBody`) with Node's own events, before any fiber
 * runs for the request: the route's fiber then starts with the body in hand and suspends once
 * (for its audit commit) instead of twice (~5 µs of fiber steps per suspension). Past the drain
 * limit reading stops; `abandoned` then tells the caller to close the connection after
 * answering, since unread bytes are left on it. A client that goes away first gets nothing.
 */
const readBodyThen = (
  request: IncomingMessage,
  response: ServerResponse,
  maxBytes: number,
  then: (body: BodyRead, abandoned: boolean) => void
): void => {
  const body = boundedBody(maxBytes)
  const cleanup = () => {
    request.off("data", onData)
    request.off("end", onEnd)
    request.off("error", onError)
    response.off("close", onGone)
  }
  const onData = (chunk: Buffer) => {
    if (body.add(chunk)) return
    cleanup()
    request.pause()
    then(body.result(), true)
  }
  const onEnd = () => {
    cleanup()
    then(body.result(), false)
  }
  const onError = () => {
    cleanup()
    then(Either.left(new InvalidRequest({ message: "the request body could not be read" })), false)
  }
  const onGone = () => cleanup()
  request.on("data", onData)
  request.on("end", onEnd)
  request.on("error", onError)
  response.once("close", onGone)
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}

/** The hot routes, each implemented on core's services through the shared rules. */
const makeHotRoutes = Effect.gen(function*() {
  const tokens = yield* Tokens
  const quotes = yield* Quotes
  const storage = yield* StorageHealth
  const authenticate = makeAuthenticate(tokens, yield* AccountRateLimiter)
  const caller = (request: IncomingMessage): Effect.Effect<Caller, unknown> =>
    authenticate(header(request, "authorization"))

  const okStatus = ok(Schema.Struct({ status: Schema.Literal("ok") }))
  // The caller's account is the same (immutable) object until it changes: its JSON is made once.
  const okAccount = memoizedByObject(ok(Account))
  const okToken = ok(IssuedToken)
  const okQuote = ok(QuoteResponse)
  const decodeQuote = decodeJsonBytes(QuoteRequest, acceptPlainQuoteRequest)
  const live = okStatus({ status: "ok" })
  const ready = Effect.as(storage.ping, okStatus({ status: "ok" }))

  const routes: Array<HotRoute> = [
    { method: "GET", route: endpointPath("operations", "live"), serve: { _tag: "Constant", answer: live } },
    { method: "GET", route: endpointPath("operations", "ready"), serve: runs(() => ready) },
    {
      method: "POST",
      route: endpointPath("auth", "issueToken"),
      serve: runs((request) =>
        secretInQuery(request.url ?? "")
          ? Effect.fail(
            new InvalidRequest({
              message: "the API secret is accepted only in the X-API-SECRET header, never in the query string"
            })
          )
          // A missing header goes through the same check as a wrong one: same answer, same cost.
          : Effect.map(
            tokens.issue(header(request, "x-api-key") ?? "", Redacted.make(header(request, "x-api-secret") ?? "")),
            okToken
          ))
    },
    {
      method: "GET",
      route: endpointPath("customer", "me"),
      serve: runs((request) => Effect.map(caller(request), (c) => okAccount(c.account)))
    },
    {
      method: "POST",
      route: endpointPath("quotes", "quote"),
      serve: {
        _tag: "Audited",
        run: (request, context, body) =>
          Effect.flatMap(caller(request), ({ account }) =>
            // Decoded after authentication (401 comes before 400/413/415) by the shared rules; an
            // unreadable body is audited as a rejection like any other.
            priceQuoteAudited(
              quotes,
              account,
              Either.flatMap(body, (bytes) => decodeQuote(bytes, header(request, "content-type"))),
              context
            )),
        // Written after the audit entry, whose prices text the response reuses (trustedJson).
        answer: (response) => {
          quoteAnswered(response)
          return okQuote(response)
        }
      }
    }
  ]
  return new Map(routes.map((r) => [`${r.method} ${r.route}`, r]))
})

/** Writes a JSON answer with the contract's headers. */
const writeJson = (
  response: ServerResponse,
  status: number,
  json: string,
  requestId: string,
  headers: Record<string, string> | undefined,
  close: boolean
): void => {
  if (response.headersSent || response.destroyed) return
  // Names and values in one flat list: Node takes it as is, without walking an object's keys.
  const head: Array<string | number> = [
    "content-type",
    JSON_UTF8,
    "content-length",
    Buffer.byteLength(json),
    "x-request-id",
    requestId
  ]
  if (headers !== undefined) for (const name in headers) head.push(name, headers[name]!)
  if (close) head.push("connection", "close")
  response.writeHead(status, head)
  response.end(json)
}

/**
 * The listener: hot routes here, the rest to `fallback` (the HttpApi application on Node).
 * `runtime` carries core's services, the logger and the clock.
 *
 * Per request: a request id, one fiber running the route's effect (none for the liveness
 * probe), and on its exit the answer written, the metrics updated and the log line written
 * synchronously, without further fiber steps.
 */
const makeListener = (fallback: NodeRequestListener, requestLog: RequestLogWriter | undefined) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const randomness = yield* Randomness
    const clock = yield* Effect.clock
    const nowMs = () => clock.unsafeCurrentTimeMillis()
    const hot = yield* makeHotRoutes
    const routes = routeMethods()
    const runFork = Runtime.runFork(runtime)
    const log = makeRequestLog(runtime, nowMs, requestLog)
    const config = yield* RidequoteHttpConfig
    // Undefined while CORS is off: the hot path then does nothing for it.
    const cors = makeCorsPolicy(config.corsOrigins)

    const answered = (route: HotRoute, requestId: string, status: number, startMs: number): void => {
      const durationMs = nowMs() - startMs
      unsafeRecordRequest(route.route, route.method, status, durationMs)
      log({ requestId, method: route.method, route: route.route, status, durationMs })
    }

    /** Writes a failure's row of the error table (or a logged 500) and accounts for it. */
    const fail = (
      route: HotRoute,
      request: IncomingMessage,
      response: ServerResponse,
      cause: Cause.Cause<unknown>,
      requestId: string,
      responseId: string,
      startMs: number,
      abandoned: boolean
    ): void => {
      const where = { path: route.route, method: route.method, route: route.route, authorization: header(request, "authorization") }
      const bodyId = errorBodyRequestId(route.route, requestId, responseId)
      // Synchronous: failureHead only logs (for a 500) besides computing the row.
      const head = Runtime.runSync(runtime)(failureHead(cause, where, routes, bodyId))
      // A body left unread (past the drain limit, or a 413 not read at all): answer, then drop
      // the connection, whose next bytes would otherwise be taken for a request.
      const close = abandoned || (head.status === 413 && !request.complete)
      writeJson(response, head.status, JSON.stringify(head.body), responseId, head.headers, close)
      if (close) response.once("finish", () => request.socket.destroy())
      answered(route, responseId, head.status, startMs)
    }

    const serveHot = (route: HotRoute, request: IncomingMessage, response: ServerResponse): void => {
      const startMs = nowMs()
      // Randomness yields v4 UUIDs by its contract: re-checking the brand's pattern per request
      // was ~1 % of a quote's CPU.
      const requestId = RequestId.make(randomness.unsafeUuidV4(), { disableValidation: true })
      // The header, error bodies and the log line carry the caller's id when well-formed.
      const responseId = callerRequestId(header(request, "x-request-id")) ?? requestId
      // A credentials or content header (or Host) sent twice: Node kept the first, a proxy may
      // have read another (RequestReading.ts); refused on every route, the probes included.
      // Targets and near-miss paths never get here: they are not a hot route's exact key, so the
      // fallback's edge reads them.
      const repeated = repeatedHeader(request.rawHeaders)
      if (repeated !== undefined) {
        return fail(route, request, response, Cause.fail(repeatedHeaderError(repeated)), requestId, responseId, startMs, false)
      }
      if (route.serve._tag === "Constant") {
        const { json, status } = route.serve.answer
        writeJson(response, status, json, responseId, undefined, false)
        return answered(route, responseId, status, startMs)
      }
      const ids = { requestId, responseId, startMs }
      const context: QuoteContext = { requestId, receivedAt: DateTime.unsafeMake(startMs) }
      const serve = route.serve
      if (serve._tag === "Effect") return run(route, request, response, serve.run(request, context), ids)
      // The body's head is checked first (415, a declared 413): such a body is not read at all.
      const problem = jsonHeadProblem(
        header(request, "content-type"),
        header(request, "content-length"),
        config.maxBodyBytes,
        header(request, "content-encoding")
      )
      if (problem !== undefined) {
        return runAudited(route, request, response, serve, serve.run(request, context, Either.left(problem)), ids, false)
      }
      readBodyThen(request, response, config.maxBodyBytes, (body, abandoned) =>
        runAudited(route, request, response, serve, serve.run(request, context, body), ids, abandoned))
    }

    type Ids = { readonly requestId: string; readonly responseId: string; readonly startMs: number }

    /** Writes the answer of an outcome: the success's JSON, or the error table's answer. */
    const answer = (
      route: HotRoute,
      request: IncomingMessage,
      response: ServerResponse,
      exit: Exit.Exit<Answer, unknown>,
      { requestId, responseId, startMs }: Ids,
      abandoned: boolean
    ): void => {
      if (Exit.isSuccess(exit)) {
        writeJson(response, exit.value.status, exit.value.json, responseId, undefined, false)
        answered(route, responseId, exit.value.status, startMs)
      } else if (!Cause.isInterruptedOnly(exit.cause)) {
        fail(route, request, response, exit.cause, requestId, responseId, startMs, abandoned)
      }
      // Interrupted only: the client went away, there is nobody to answer.
    }

    /** Runs `effect` in one fiber, interrupted if the client goes away first. */
    const fork = <A>(response: ServerResponse, effect: Effect.Effect<A, unknown>, onExit: (exit: Exit.Exit<A, unknown>) => void) => {
      const fiber = runFork(effect)
      fiber.addObserver(onExit)
      response.once("close", () => {
        if (!response.writableEnded) fiber.unsafeInterruptAsFork(fiber.id())
      })
    }

    /** Runs a route's effect (a route without a body) in one fiber and answers from its exit. */
    const run = (
      route: HotRoute,
      request: IncomingMessage,
      response: ServerResponse,
      effect: Effect.Effect<Answer, unknown>,
      ids: Ids
    ): void => fork(response, effect, (exit) => answer(route, request, response, exit, ids, false))

    /**
     * Runs the quote's fiber, which ends once the audit record is submitted, then answers when
     * the record is durable — or 503 when it could not be written: never an answer without it.
     */
    const runAudited = (
      route: HotRoute,
      request: IncomingMessage,
      response: ServerResponse,
      serve: { readonly answer: (response: QuoteResponse) => Answer },
      effect: Effect.Effect<Audited<QuoteResponse, unknown>, unknown>,
      ids: Ids,
      abandoned: boolean
    ): void =>
      fork(response, effect, (exit) => {
        if (Exit.isFailure(exit)) return answer(route, request, response, Exit.failCause(exit.cause), ids, abandoned)
        const { outcome, whenDurable } = exit.value
        whenDurable((failure) =>
          // The client went away while the record was committed: as with an interrupted
          // fiber, nobody is answered (the record stays: it was submitted).
          response.destroyed ? undefined : answer(
            route,
            request,
            response,
            failure === undefined ? Exit.map(outcome, serve.answer) : Exit.fail(failure),
            ids,
            abandoned
          )
        )
      })

    /**
     * A request that is not a plain HTTP/1.1 message (RequestReading.ts, `messageProblem`),
     * whatever its path: answered here, since only here are the parser's bytes at hand (the
     * request line's spacing), and the connection closed.
     */
    const refuseMessage = (request: IncomingMessage, response: ServerResponse, problem: InvalidRequest): void => {
      const startMs = nowMs()
      const responseId = callerRequestId(header(request, "x-request-id")) ??
        RequestId.make(randomness.unsafeUuidV4(), { disableValidation: true })
      const head = errorHead(problem, undefined, responseId)
      const path = pathOf(request.url ?? "/")
      const route = routes.has(path) ? path : "unmatched"
      writeJson(response, head.status, JSON.stringify(head.body), responseId, head.headers, true)
      response.once("finish", () => request.socket.destroy())
      const durationMs = nowMs() - startMs
      const method = methodLabel(request.method ?? "")
      unsafeRecordRequest(route, method, head.status, durationMs)
      log({ requestId: responseId, method, route, status: head.status, durationMs })
    }

    const listener: NodeRequestListener = (request, response) => {
      const problem = messageProblem({
        httpVersion: request.httpVersion,
        url: request.url ?? "",
        host: request.headers.host,
        transferEncoding: request.headers["transfer-encoding"],
        oddRequestLine: oddRequestLine(request)
      })
      if (problem !== undefined) return refuseMessage(request, response, problem)
      // The exact path as sent (an absolute-form target, or any path that is not a hot route's
      // exactly, goes to the fallback, whose edge reads the target: RequestReading.ts).
      const route = hot.get(`${request.method} ${pathOf(request.url ?? "/")}`)
      if (route === undefined) return fallback(request, response)
      // Merged into the head writeJson writes (preflights are not hot: they go to the fallback).
      if (cors !== undefined) {
        for (const [name, value] of Object.entries(cors.responseHeaders(header(request, "origin")))) response.setHeader(name, value)
      }
      serveHot(route, request, response)
    }
    return listener
  })

/** HttpApi's own application (every route, with our edge), as a Node listener. */
const fallbackListener = Effect.gen(function*() {
  const app = yield* HttpApiBuilder.httpApp
  return yield* NodeHttpServer.makeHandler(app)
})

/**
 * The whole service as a `node:http` request listener (`NodeHost`), for a server the host
 * creates and owns (see `@ridequote/server`'s graceful server). It needs core's services.
 */
export const NodeHostLive = (
  options?: Partial<RidequoteHttpOptions>,
  node: NodeHostOptions = {}
): Layer.Layer<NodeHost, never, HttpHostRequirements> =>
  Layer.effect(
    NodeHost,
    Effect.flatMap(fallbackListener, (fallback) => makeListener(fallback, node.requestLog))
  ).pipe(
    Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]),
    withRidequoteApp,
    Layer.provide(AccountRateLimiterLive),
    Layer.provide(NodeHttpServer.layerContext),
    Layer.provide(RidequoteHttpConfig.layer(options))
  )

