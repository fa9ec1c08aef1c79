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
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { Duplex } from "node:stream"
import type { AddressInfo, Socket } from "node:net"
import * as HttpServerError from "@effect/platform/HttpServerError"
import { InvalidRequest } from "@ridequote/core"
import { errorHead, MethodNotAllowed } from "@ridequote/http"
import type { ErrorHead, RenderableError } from "@ridequote/http"
import { NodeHost } from "@ridequote/http/node"
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

/**
 * Answers that Node's HTTP parser gives before any request reaches the listener — a request
 * that did not arrive in time, headers too large, bytes that are not HTTP, a CONNECT — in the
 * service's JSON error body too, instead of Node's bare status line or a dropped connection.
 */
/** An error head (status, headers, body) as raw HTTP/1.1 bytes, the connection then closed. */
const rawAnswer = (reason: string, head: ErrorHead): string => {
  const json = JSON.stringify(head.body)
  const headers = Object.entries(head.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  const requestId = "requestId" in head.body ? String(head.body.requestId) : ""
  return `HTTP/1.1 ${head.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(json)}\r\nx-request-id: ${requestId}\r\n${headers}connection: close\r\n\r\n${json}`
}

/** The error table's answer for `error` (status, code and headers decided there). */
const tableAnswer = (reason: string, error: RenderableError): string =>
  rawAnswer(reason, errorHead(error, undefined, randomUUID()))

/**
 * 408 and 431 have no row in the error table (no endpoint declares them; they happen before
 * any route is known), so their status is given here with the table's body shape.
 */
const transportAnswer = (status: number, reason: string, code: string, message: string): string =>
  rawAnswer(reason, { status, headers: {}, body: { code, message, requestId: randomUUID() } })

const clientErrorAnswer = (code: string | undefined): string => {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return transportAnswer(408, "Request Timeout", "result:request-timeout", "the request did not arrive whole in time")
    case "HPE_HEADER_OVERFLOW":
      return transportAnswer(431, "Request Header Fields Too Large", "result:invalid-request", "the request headers are too large")
    default:
      return tableAnswer("Bad Request", new InvalidRequest({ message: "the request is not valid HTTP/1.1" }))
  }
}

const onClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  // A connection reset or one already answered: nothing more can be written.
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy()
  socket.end(clientErrorAnswer(error.code))
}

/** CONNECT (a proxy tunnel) is not something this service does: 405 with an empty Allow. */
const onConnect = (_request: IncomingMessage, socket: Duplex): void => {
  socket.end(tableAnswer("Method Not Allowed", new MethodNotAllowed({ message: "CONNECT is not supported", allow: [] })))
}

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
    server.on("clientError", onClientError)
    server.on("connect", onConnect)
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
