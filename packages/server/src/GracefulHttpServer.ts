/**
 * `NodeHttpServer.layer` with a graceful stop.
 *
 * Stock platform-node stops in this order: the app's request listener is detached (the
 * `serve` scope closes first), then `server.close()` waits for open connections. A request
 * that arrives on a kept-alive connection in between finds no listener and is never answered,
 * and `close()` then waits for that connection until Node's request timeout (5 minutes).
 *
 * Here, `serve` registers one more finalizer *after* the app is attached, so it runs first:
 * it stops accepting connections, keeps answering requests on open ones until they finish,
 * closes connections as soon as they go idle, and only then lets the listener be detached.
 * Everything behind the app (engine, audit queue, storage) is still alive meanwhile, because
 * those layers are released after this one.
 *
 * The socket listens before the app is attached (the API layer is built on top of the server)
 * and, after draining, for an instant before it is closed. A request in either gap gets a 503
 * `result:unavailable` with `Retry-After` rather than no answer at all.
 */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { ListenOptions } from "node:net"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as HttpServer from "@effect/platform/HttpServer"
import type { ServeError } from "@effect/platform/HttpServerError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 50

/** Stops accepting, lets in-flight requests finish, closes connections as they go idle. */
const drain = (server: Server): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS)
    server.close(() => {
      clearInterval(sweep)
      resume(Effect.void)
    })
    server.closeIdleConnections()
  }).pipe(Effect.withLogSpan("drain"), Effect.zipLeft(Effect.logInfo("HTTP server drained")))

/** Answers only while no app listener is attached (starting up, or just drained). */
const answerUnavailable = (server: Server) => (_request: IncomingMessage, response: ServerResponse): void => {
  if (server.listenerCount("request") > 1) return
  const body = JSON.stringify({ code: "result:unavailable", message: "the service is starting or stopping" })
  response.writeHead(503, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "retry-after": "1",
    "x-request-id": randomUUID(),
    connection: "close"
  })
  response.end(body)
}

const make = (options: ListenOptions) =>
  Effect.gen(function*() {
    const server = createServer()
    server.on("request", answerUnavailable(server))
    const inner = yield* NodeHttpServer.make(() => server, options)
    return HttpServer.make({
      address: inner.address,
      serve: (httpApp, middleware) =>
        Effect.gen(function*() {
          yield* middleware === undefined ? inner.serve(httpApp) : inner.serve(httpApp, middleware)
          // Added after the listener, so it runs before the listener is detached.
          yield* Effect.addFinalizer(() =>
            Effect.logInfo("Shutting down: no new connections, finishing in-flight requests").pipe(
              Effect.zipRight(drain(server))
            )
          )
        })
    })
  })

/** Drop-in for `NodeHttpServer.layer(createServer, options)`. */
export const GracefulHttpServerLive = (
  options: ListenOptions
): Layer.Layer<
  HttpServer.HttpServer | Layer.Layer.Success<typeof NodeHttpServer.layerContext>,
  ServeError
> => Layer.mergeAll(Layer.scoped(HttpServer.HttpServer, make(options)), NodeHttpServer.layerContext)
