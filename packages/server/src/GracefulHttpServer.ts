/**
 * The listening socket of `serve`: a `node:http` server running the service's request
 * listener (`NodeHost` from `@ridequote/http/node`), with a graceful stop and bounds on slow
 * clients.
 *
 * The listener is attached before the socket listens and stays attached until the server
 * has closed, so no request ever meets a socket with nobody to answer it. Stopping (closing
 * the layer's scope) stops accepting connections, keeps answering requests on open ones
 * until they finish, closes connections as soon as they go idle, and only then lets the
 * layers behind the listener (engine, audit queue, storage) be released.
 *
 * Bounds: a request must arrive whole (headers and body) within `requestTimeoutMs`, and its
 * headers within the shorter `headersTimeoutMs` (a socket opened and left silent is closed then),
 * else Node answers 408 and closes the connection; at most `maxConnections` connections are open
 * at once, and at most `maxConnectionsPerAddress` from one client address, further ones closed
 * on arrival. Without them a client that never finishes its body holds a connection for Node's
 * default of 300 s, and one client opening idle sockets fast enough locks everyone else out
 * (docs/security.md, "Fair connection limits").
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import * as HttpServerError from "@effect/platform/HttpServerError"
import { answerClientErrors, NODE_SERVER_OPTIONS, NodeHost } from "@ridequote/http/node"
import { Context, Effect, Layer } from "effect"

/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 50

export interface ListenSettings {
  readonly port: number
  readonly host: string
  /** Time for a whole request (headers and body) to arrive; 0 = no limit. */
  readonly requestTimeoutMs: number
  /** Most connections open at once; 0 = no limit. */
  readonly maxConnections: number
  /** Time for a request's headers to arrive (from the connection, or the previous response); 0 = the request timeout. */
  readonly headersTimeoutMs?: number | undefined
  /** Most connections open at once from one client address; 0 or absent = no limit. */
  readonly maxConnectionsPerAddress?: number | undefined
}

/**
 * Caps the connections open from each client address: one more than `cap` is closed on
 * arrival, before any byte of it is read, so a client holding its cap of idle sockets leaves
 * every other client's share of `maxConnections` alone. Counts are dropped with their last
 * connection, so the map holds only addresses with a connection open.
 */
export const limitConnectionsPerAddress = (server: Server, cap: number): void => {
  const open = new Map<string, number>()
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? ""
    const count = (open.get(address) ?? 0) + 1
    if (count > cap) return void socket.destroy()
    open.set(address, count)
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

/** Where the service listens, once it does. */
export interface Listening {
  readonly host: string
  readonly port: number
  /** `http://host:port`, for logs and clients. */
  readonly url: string
}
export class HttpListening extends Context.Tag("@ridequote/server/HttpListening")<HttpListening, Listening>() {}

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

const listen = (server: Server, settings: ListenSettings) =>
  Effect.async<AddressInfo, HttpServerError.ServeError>((resume) => {
    const onError = (cause: unknown) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
    server.once("error", onError)
    server.listen(settings.port, settings.host, () => {
      server.off("error", onError)
      const address = server.address()
      if (address === null || typeof address === "string") {
        return resume(Effect.fail(new HttpServerError.ServeError({ cause: new Error("not a TCP address") })))
      }
      resume(Effect.succeed(address))
    })
  })

/** Node's headersTimeout: the shorter deadline when set, never past the whole request's. */
const headersTimeoutOf = (settings: ListenSettings): number => {
  const headers = settings.headersTimeoutMs ?? 0
  if (headers <= 0) return settings.requestTimeoutMs
  return settings.requestTimeoutMs > 0 ? Math.min(headers, settings.requestTimeoutMs) : headers
}

const make = (settings: ListenSettings) =>
  Effect.gen(function*() {
    const listener = yield* NodeHost
    const server = createServer(
      {
        // The service answers a request without Host itself, with the contract's body.
        ...NODE_SERVER_OPTIONS,
        // 0 disables Node's own limits; headersTimeout must not exceed requestTimeout.
        requestTimeout: settings.requestTimeoutMs,
        headersTimeout: headersTimeoutOf(settings),
        // Node looks for overdue requests only this often (30 s by default).
        connectionsCheckingInterval: Math.max(100, Math.min(1_000, headersTimeoutOf(settings) || 1_000)),
        keepAliveTimeout: 5_000
      },
      listener
    )
    if (settings.maxConnections > 0) server.maxConnections = settings.maxConnections
    const perAddress = settings.maxConnectionsPerAddress ?? 0
    if (perAddress > 0) limitConnectionsPerAddress(server, perAddress)
    // What Node's parser refuses, and CONNECT, answered with the contract's JSON body.
    answerClientErrors(server)
    const address = yield* Effect.acquireRelease(
      listen(server, settings),
      () =>
        Effect.logInfo("Shutting down: no new connections, finishing in-flight requests").pipe(
          Effect.zipRight(drain(server))
        )
    )
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address
    return HttpListening.of({ host: address.address, port: address.port, url: `http://${host}:${address.port}` })
  })

/** Serves `NodeHost` on a new `node:http` server until the layer is released. */
export const GracefulHttpServerLive = (
  settings: ListenSettings
): Layer.Layer<HttpListening, HttpServerError.ServeError, NodeHost> => Layer.scoped(HttpListening, make(settings))
