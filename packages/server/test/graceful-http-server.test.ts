/**
 * GracefulHttpServerLive: stopping waits for in-flight requests (also those queued on an open
 * connection), a client that never finishes its request is cut off after the request timeout,
 * and connections past the cap are refused.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { connect } from "node:net"
import { NodeHost } from "@ridequote/http/node"
import { Context, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { GracefulHttpServerLive, HttpListening } from "../src/GracefulHttpServer.js"
import type { ListenSettings } from "../src/GracefulHttpServer.js"

const local: ListenSettings = { port: 0, host: "127.0.0.1", requestTimeoutMs: 0, maxConnections: 0 }

/** A listener with /slow (answered when `release` is called), /body (answered once the body is in) and /fast. */
const slowAndFast = () => {
  let release = () => {}
  let entered = () => {}
  const enteredP = new Promise<void>((resolve) => (entered = resolve))
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === "/slow") {
      entered()
      release = () => response.end("slow done")
    } else if (request.url === "/body") {
      request.resume()
      request.on("end", () => response.end("body read"))
    } else {
      response.end("fast done")
    }
  }
  return { listener, entered: enteredP, release: () => release() }
}

const start = (listener: (request: IncomingMessage, response: ServerResponse) => void, settings: ListenSettings) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      GracefulHttpServerLive(settings).pipe(Layer.provide(Layer.succeed(NodeHost, listener))),
      scope
    )
    return { scope, listening: Context.get(context, HttpListening) }
  })

/** Raw bytes on one connection; resolves with everything received once the server closes it. */
const rawExchange = (port: number, bytes: string) => {
  const socket = connect(port, "127.0.0.1")
  let received = ""
  socket.setEncoding("utf8")
  socket.on("data", (chunk: string) => (received += chunk))
  socket.on("error", () => {})
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)))
  socket.write(bytes)
  return { socket, closed }
}

describe("GracefulHttpServerLive", () => {
  it("closing waits for an in-flight request, which is answered in full", () =>
    Effect.gen(function*() {
      const app = slowAndFast()
      const { listening, scope } = yield* start(app.listener, local)
      const pending = fetch(`${listening.url}/slow`).then(async (r) => ({ status: r.status, text: await r.text() }))
      yield* Effect.promise(() => app.entered)

      // Stop while the request is in flight: closing must not finish before it is answered.
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.sleep("50 millis")
      expect(closing.unsafePoll()).toBeNull()

      // No new connection is accepted meanwhile.
      const refused = yield* Effect.promise(() => fetch(`${listening.url}/fast`).then(() => "accepted", () => "refused"))
      expect(refused).toBe("refused")

      app.release()
      const answered = yield* Effect.promise(() => pending)
      expect(answered).toEqual({ status: 200, text: "slow done" })
      yield* Fiber.join(closing)
    }).pipe(Effect.runPromise))

  it("a request already sent on an open connection is still answered while the server drains", () =>
    Effect.gen(function*() {
      const app = slowAndFast()
      const { listening, scope } = yield* start(app.listener, local)
      // Two pipelined requests on one connection; the second is parsed only after the first.
      const exchange = rawExchange(listening.port, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
      yield* Effect.promise(() => app.entered)

      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.sleep("20 millis")
      app.release()
      yield* Fiber.join(closing).pipe(Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error("drain hung") }))
      const received = yield* Effect.promise(() => exchange.closed)
      expect(received).toContain("slow done")
      expect(received).toContain("fast done")
    }).pipe(Effect.runPromise))

  it("a request whose body never finishes is cut off after the request timeout", () =>
    Effect.gen(function*() {
      const app = slowAndFast()
      const { listening, scope } = yield* start(app.listener, { ...local, requestTimeoutMs: 500 })
      const exchange = rawExchange(
        listening.port,
        "POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":"
      )
      // Node's default would keep it for 300 s; the test's own timeout is far below that.
      const received = yield* Effect.promise(() => exchange.closed)
      expect(received).toMatch(/^HTTP\/1\.1 408/)
      expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "result:request-timeout" })
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.runPromise), 20_000)

  it("bytes that are not HTTP, and CONNECT, get the JSON error body too", () =>
    Effect.gen(function*() {
      const app = slowAndFast()
      const { listening, scope } = yield* start(app.listener, local)
      const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as unknown
      const garbage = yield* Effect.promise(() => rawExchange(listening.port, "HELLO\r\n\r\n").closed)
      expect(garbage).toMatch(/^HTTP\/1\.1 400/)
      expect(garbage).toMatch(/x-request-id: [0-9a-f-]{36}/)
      expect(bodyOf(garbage)).toMatchObject({ code: "result:invalid-request" })
      const tunnel = yield* Effect.promise(() =>
        rawExchange(listening.port, "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n").closed
      )
      expect(tunnel).toMatch(/^HTTP\/1\.1 405/)
      expect(bodyOf(tunnel)).toMatchObject({ code: "result:method-not-allowed", allow: [] })
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.runPromise))

  it("connections past the cap are closed on arrival", () =>
    Effect.gen(function*() {
      const app = slowAndFast()
      const { listening, scope } = yield* start(app.listener, { ...local, maxConnections: 1 })
      const first = rawExchange(listening.port, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
      yield* Effect.promise(() => app.entered)
      const second = rawExchange(listening.port, "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
      expect(yield* Effect.promise(() => second.closed)).toBe("")
      app.release()
      first.socket.end()
      expect(yield* Effect.promise(() => first.closed)).toContain("slow done")
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.runPromise))
})
