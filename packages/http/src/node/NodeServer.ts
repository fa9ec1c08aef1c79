/**
 * What a `node:http` server serving ridequote needs besides its request listener, whichever
 * lane answers (`NodeHostLive`, or `HttpHostLive` on `NodeHttpServer.layer`): Node's parser
 * reads some messages before any listener runs, and answers or accepts them its own way
 * (docs/security.md, "One reading of a request").
 *
 * - `NODE_SERVER_OPTIONS`: Node's own bare 400 for a request without `Host` is turned off, so
 *   that the service answers it with the contract's JSON body (`messageProblem`).
 * - `answerClientErrors`: bytes the parser refuses (not HTTP, headers too large, a request that
 *   did not arrive in time) and `CONNECT` get the contract's JSON error body with an
 *   `X-Request-Id`, then the connection is closed — after the answers to the requests read
 *   before them on the connection, so that a pipelining client pairs each answer with its request.
 * - `markOddRequestLines`: for the HttpApi lane, notes requests whose request line had extra
 *   spaces while the parser's bytes are still at hand (`NodeHostLive` looks itself).
 */
import { randomUUID } from "node:crypto"
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { InvalidRequest } from "@ridequote/core"
import { errorHead } from "../Edge.js"
import type { ErrorHead } from "../Edge.js"
import type { RenderableError } from "../ErrorTable.js"
import { MethodNotAllowed } from "../HttpErrors.js"
import { oddRequestLines } from "../internal/RequestReading.js"

/**
 * Options for `http.createServer`: the service answers a request without `Host` itself (Node
 * would write an empty 400 without the contract's body or a request id).
 */
export const NODE_SERVER_OPTIONS: ServerOptions = { requireHostHeader: false }

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

/** The response a socket is writing (Node's own field), with the request it answers. */
const responseInFlight = (socket: Duplex): ServerResponse | undefined => {
  const message: unknown = Reflect.get(socket, "_httpMessage")
  return typeof message === "object" && message !== null && "writableFinished" in message
    ? message as ServerResponse
    : undefined
}

/**
 * Calls `then` once the responses to the requests read whole before the error are written: a
 * response in flight whose request arrived whole is waited for (Node then hands the socket to
 * the next queued one, waited for in turn). A request cut by the error gets the error's answer.
 */
const afterAnsweredRequests = (socket: Duplex, then: () => void): void => {
  const response = responseInFlight(socket)
  if (response === undefined || response.writableFinished || response.req?.complete !== true) return then()
  // Node's own 'finish' listener (attached first) passes the socket on to the next response.
  response.once("finish", () => afterAnsweredRequests(socket, then))
  response.once("close", () => {
    if (!response.writableFinished) socket.destroy()
  })
}

const answered: WeakSet<Duplex> = new WeakSet()

const onClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  // A connection reset or one already answered: nothing more can be written.
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy()
  // The parser stays in error: further bytes may report it again; the first answer stands.
  if (answered.has(socket)) return
  answered.add(socket)
  afterAnsweredRequests(socket, () => {
    if (socket.writable) socket.end(clientErrorAnswer(error.code))
    else socket.destroy()
  })
}

/** CONNECT (a proxy tunnel) is not something this service does: 405 with an empty Allow. */
const onConnect = (_request: IncomingMessage, socket: Duplex): void => {
  socket.end(tableAnswer("Method Not Allowed", new MethodNotAllowed({ message: "CONNECT is not supported", allow: [] })))
}

/**
 * Answers what Node's parser refuses, and CONNECT, with the contract's JSON error body (see the
 * module comment). Attach it to every server that serves ridequote.
 */
export const answerClientErrors = (server: Server): void => {
  server.on("clientError", onClientError)
  server.on("connect", onConnect)
}

const DOUBLE_SPACE = Buffer.from("  ", "latin1")

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The bytes Node's parser is reading (its own method), while a request's `request` event runs. */
const parserBytes = (request: IncomingMessage): Uint8Array | undefined => {
  const parser: unknown = Reflect.get(request.socket, "parser")
  if (typeof parser !== "object" || parser === null) return undefined
  const current: unknown = Reflect.get(parser, "getCurrentBuffer")
  if (typeof current !== "function") return undefined
  const bytes: unknown = current.call(parser)
  return bytes instanceof Uint8Array ? bytes : undefined
}

/**
 * Whether the request line was written with more than one space between its parts (Node's
 * parser skips the extra spaces; another reader may not). Read from the bytes the parser is
 * reading, so only while the `request` event runs. The usual line is one `indexOf`; only when
 * it is absent is the slower look made. A line not among those bytes (a head that arrived in
 * several reads) is taken as sent: false.
 */
export const oddRequestLine = (request: IncomingMessage): boolean => {
  const bytes = parserBytes(request)
  if (bytes === undefined) return false
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // No two spaces in a row anywhere: no oddly spaced line (the usual case, one short search).
  if (buffer.indexOf(DOUBLE_SPACE) < 0) return false
  const method = request.method ?? ""
  const url = request.url ?? ""
  if (buffer.indexOf(`${method} ${url} HTTP/${request.httpVersion}`, 0, "latin1") >= 0) return false
  return new RegExp(`(?:^|\\n)${escapeRegExp(method)} +${escapeRegExp(url)} +HTTP/`).test(buffer.toString("latin1"))
}

/**
 * For a server whose requests go to the HttpApi lane (`HttpHostLive` on `NodeHttpServer`):
 * marks requests whose request line is oddly spaced, for the edge to refuse (the bytes are gone
 * by the time it runs). Attach before the server's request listener.
 */
export const markOddRequestLines = (server: Server): void => {
  server.prependListener("request", (request: IncomingMessage) => {
    if (oddRequestLine(request)) oddRequestLines.add(request)
  })
}
