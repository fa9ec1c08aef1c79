/**
 * GracefulHttpServerLive: stopping waits for in-flight requests, and a socket with no app
 * attached answers 503 instead of leaving the client hanging.
 */
import { connect } from "node:net"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { describe, expect, it } from "vitest"
import { GracefulHttpServerLive } from "../src/GracefulHttpServer.js"

const local = { port: 0, host: "127.0.0.1" }

const addressOf = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

describe("GracefulHttpServerLive", () => {
  it("closing waits for an in-flight request, which is answered in full", () =>
    Effect.gen(function*() {
      const entered = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const app = HttpRouter.empty.pipe(
        HttpRouter.get(
          "/slow",
          Effect.gen(function*() {
            yield* Deferred.succeed(entered, undefined)
            yield* Deferred.await(release)
            return HttpServerResponse.text("done")
          })
        )
      )
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        HttpServer.serve(app).pipe(Layer.provideMerge(GracefulHttpServerLive(local))),
        scope
      )
      const base = yield* addressOf.pipe(Effect.provide(context))

      const pending = fetch(`${base}/slow`).then(async (r) => ({ status: r.status, text: await r.text() }))
      yield* Deferred.await(entered)

      // Stop while the request is in flight: closing must not finish before it is answered.
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.yieldNow()
      expect(closing.unsafePoll()).toBeNull()

      // No new connection is accepted meanwhile.
      const refused = yield* Effect.promise(() => fetch(`${base}/slow`).then(() => "accepted", () => "refused"))
      expect(refused).toBe("refused")

      yield* Deferred.succeed(release, undefined)
      const answered = yield* Effect.promise(() => pending)
      expect(answered).toEqual({ status: 200, text: "done" })
      yield* Fiber.join(closing)
    }).pipe(Effect.runPromise))

  it("a request already sent on an open connection is still answered while the server drains", () =>
    Effect.gen(function*() {
      // The stock layer detaches the app before draining: a request queued behind an
      // in-flight one on the same keep-alive connection would then never be answered.
      const entered = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const app = HttpRouter.empty.pipe(
        HttpRouter.get(
          "/slow",
          Effect.gen(function*() {
            yield* Deferred.succeed(entered, undefined)
            yield* Deferred.await(release)
            return HttpServerResponse.text("slow done")
          })
        ),
        HttpRouter.get("/fast", Effect.succeed(HttpServerResponse.text("fast done")))
      )
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        HttpServer.serve(app).pipe(Layer.provideMerge(GracefulHttpServerLive(local))),
        scope
      )
      const server = Context.get(context, HttpServer.HttpServer)
      const port = server.address._tag === "TcpAddress" ? server.address.port : 0

      // Two pipelined requests on one connection; the second is parsed only after the first.
      const socket = connect(port, "127.0.0.1")
      let received = ""
      socket.setEncoding("utf8")
      socket.on("data", (chunk: string) => (received += chunk))
      const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()))
      socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
      yield* Deferred.await(entered)

      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(closing).pipe(Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error("drain hung") }))
      yield* Effect.promise(() => ended)
      expect(received).toContain("slow done")
      expect(received).toContain("fast done")
    }).pipe(Effect.runPromise))

  it("a request reaching the socket before any app is attached gets 503 result:unavailable", () =>
    Effect.gen(function*() {
      const base = yield* addressOf
      const response = yield* Effect.promise(() => fetch(`${base}/v1/quote`, { method: "POST" }))
      expect(response.status).toBe(503)
      expect(response.headers.get("retry-after")).toBe("1")
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      const body: unknown = yield* Effect.promise(() => response.json())
      expect(body).toMatchObject({ code: "result:unavailable" })
    }).pipe(Effect.provide(GracefulHttpServerLive(local)), Effect.scoped, Effect.runPromise))
})
