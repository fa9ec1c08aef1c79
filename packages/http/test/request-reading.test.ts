/**
 * One reading of a request (docs/security.md, "One reading of a request"): what a proxy in
 * front of the service and the service itself could read differently is refused instead of
 * guessed at — duplicated credentials headers, paths that only match after normalization,
 * an absolute-form target naming another host, a charset other than UTF-8, a content coding,
 * a JSON object with a key given twice. On both hosts, over raw TCP so that the bytes on the
 * wire are exactly the ones written here (no client merges headers or normalizes paths).
 */
import { describe, expect, layer } from "@effect/vitest"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, Layer } from "effect"
import { connect } from "node:net"
import { makeTestApp, signedIn, TestServerPort } from "./harness.js"
import type { Host } from "./harness.js"

interface RawAnswer {
  readonly status: number
  readonly head: string
  readonly json: Record<string, unknown> | undefined
}

/** Writes `head` (CRLF-joined lines) and `body` on a fresh connection; reads the answer until the server closes. */
const raw = (lines: ReadonlyArray<string>, body = "") =>
  Effect.gen(function*() {
    const port = yield* TestServerPort
    const text = yield* Effect.async<string>((resume) => {
      const socket = connect(port, "127.0.0.1")
      const chunks: Array<Buffer> = []
      socket.on("data", (c: Buffer) => chunks.push(c))
      socket.on("end", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
      socket.on("error", (e) => resume(Effect.die(e)))
      const bytes = Buffer.from(body, "utf8")
      socket.end(
        [...lines, `Host: 127.0.0.1:${port}`, `Content-Length: ${bytes.length}`, "Connection: close", "", ""].join("\r\n")
          + body
      )
    })
    const [head = "", rest = ""] = text.split("\r\n\r\n", 2)
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
    const json = /\{[\s\S]*\}/.exec(rest)?.[0]
    return { status, head, json: json === undefined ? undefined : JSON.parse(json) } satisfies RawAnswer
  })

const trip = "{\"pickup\":{\"latitude\":52.52,\"longitude\":13.405},\"destination\":{\"latitude\":52.5,\"longitude\":13.35}}"

const quote = (token: string, options: { target?: string; extra?: ReadonlyArray<string>; body?: string } = {}) =>
  raw(
    [
      `POST ${options.target ?? "/v1/quote"} HTTP/1.1`,
      `Authorization: Bearer ${token}`,
      "Content-Type: application/json",
      ...(options.extra ?? [])
    ],
    options.body ?? trip
  )

const expectError = (r: RawAnswer, status: number, code: string) => {
  expect({ status: r.status, code: r.json?.["code"] }, r.head).toEqual({ status, code })
  expect(typeof r.json?.["message"]).toBe("string")
}

const suite = (host: Host) =>
  describe(`one reading of a request — ${host} host`, () => {
    layer(makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), undefined, host), {
      excludeTestServices: true
    })((it) => {
      it.effect("the plain request is answered (the baseline every case below differs from by one thing)", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* quote(token)
          expect(r.status, r.head).toBe(200)
        }))

      it.effect("a duplicated Authorization header → 400 result:invalid-request, on hot and other routes", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const other = (yield* signedIn()).token
          const twice = [`Authorization: Bearer ${other}`]
          expectError(yield* quote(token, { extra: twice }), 400, "result:invalid-request")
          expectError(yield* quote(token, { extra: [`Authorization: Bearer ${token}`] }), 400, "result:invalid-request")
          const me = yield* raw(["GET /v1/customer/me HTTP/1.1", `Authorization: Bearer ${token}`, ...twice])
          expectError(me, 400, "result:invalid-request")
          const audit = yield* raw(["GET /v1/audit/recent HTTP/1.1", `Authorization: Bearer ${token}`, ...twice])
          expectError(audit, 400, "result:invalid-request")
          expect(String(audit.json?.["message"])).toContain("Authorization")
        }))

      it.effect("duplicated X-API-KEY / X-API-SECRET on token issue → 400", () =>
        Effect.gen(function*() {
          const r = yield* raw(["POST /v1/auth/token HTTP/1.1", "X-API-KEY: a", "X-API-KEY: b", "X-API-SECRET: c"])
          expectError(r, 400, "result:invalid-request")
        }))

      it.effect("only the exact documented path reaches a handler: case, double slash, matrix, dot segment, escapes → 404", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (
            const target of [
              "/V1/QUOTE",
              "/v1/Quote",
              "//v1/quote",
              "/v1//quote",
              "/v1/quote/",
              "/v1/quote;x",
              "/v1/quote;",
              "/v1/./quote",
              "/v1/x/../quote",
              "/v1/%71uote",
              "/v1/quote%20"
            ]
          ) {
            expectError(yield* quote(token, { target }), 404, "result:not-found")
          }
          for (const target of ["/v1/customer/me;x", "/V1/customer/me", "//v1/customer/me", "/health/live;x"]) {
            const r = yield* raw([`GET ${target} HTTP/1.1`, `Authorization: Bearer ${token}`])
            expectError(r, 404, "result:not-found")
          }
        }))

      it.effect("absolute form: another host → 400; the Host header's own authority → served", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          expectError(yield* quote(token, { target: "http://evil.example/v1/quote" }), 400, "result:invalid-request")
          const me = yield* raw(["GET http://evil.example/v1/customer/me HTTP/1.1", `Authorization: Bearer ${token}`])
          expectError(me, 400, "result:invalid-request")
          const port = yield* TestServerPort
          const ours = yield* quote(token, { target: `http://127.0.0.1:${port}/v1/quote` })
          expect(ours.status, ours.head).toBe(200)
          expectError(yield* quote(token, { target: `http://127.0.0.1:${port}//v1/quote` }), 404, "result:not-found")
        }))

      it.effect("a declared charset other than UTF-8 → 415; utf-8 in any spelling is read", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const charset of ["utf-16", "latin1", "iso-8859-1", "us-ascii", "utf-8, latin1"]) {
            const r = yield* raw([
              "POST /v1/quote HTTP/1.1",
              `Authorization: Bearer ${token}`,
              `Content-Type: application/json; charset=${charset}`
            ], trip)
            expectError(r, 415, "result:unsupported-media-type")
          }
          for (const charset of ["utf-8", "UTF-8", "\"utf-8\"", "utf8"]) {
            const r = yield* raw([
              "POST /v1/quote HTTP/1.1",
              `Authorization: Bearer ${token}`,
              `Content-Type: application/json; charset=${charset}`
            ], trip)
            expect(r.status, `${charset}: ${r.head}`).toBe(200)
          }
        }))

      it.effect("a Content-Encoding other than identity → 415 (body not decoded), on quote and revoke", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const coding of ["gzip", "br", "deflate", "identity, gzip", "x-anything"]) {
            expectError(yield* quote(token, { extra: [`Content-Encoding: ${coding}`] }), 415, "result:unsupported-media-type")
          }
          const revoke = yield* raw([
            "POST /v1/auth/revoke HTTP/1.1",
            `Authorization: Bearer ${token}`,
            "Content-Type: application/json",
            "Content-Encoding: gzip"
          ], "{\"all\":true}")
          expectError(revoke, 415, "result:unsupported-media-type")
          const identity = yield* quote(token, { extra: ["Content-Encoding: identity"] })
          expect(identity.status, identity.head).toBe(200)
        }))

      it.effect("415 still comes after authentication: no token and a gzip body → 401", () =>
        Effect.gen(function*() {
          const r = yield* raw(["POST /v1/quote HTTP/1.1", "Content-Type: application/json", "Content-Encoding: gzip"], trip)
          expectError(r, 401, "result:unauthorized")
        }))

      it.effect("a JSON key given twice → 400 result:invalid-request naming the key, at any depth, escapes included", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const cases: ReadonlyArray<readonly [string, string]> = [
            [
              "{\"pickup\":{\"latitude\":999,\"latitude\":40.7,\"longitude\":1},\"destination\":{\"latitude\":1,\"longitude\":2}}",
              "latitude"
            ],
            [
              "{\"pickup\":{\"latitude\":1,\"longitude\":1},\"destination\":{\"latitude\":1,\"longitude\":2},\"pickup\":{\"latitude\":3,\"longitude\":3}}",
              "pickup"
            ],
            // The same key spelt with an escape is the same key once parsed.
            [
              "{\"pickup\":{\"latitude\":1,\"l\\u0061titude\":2,\"longitude\":1},\"destination\":{\"latitude\":1,\"longitude\":2}}",
              "latitude"
            ],
            [
              "{\"distanceKm\":5,\"durationMinutes\":9,\"distanceKm\":6,\"pickup\":{\"latitude\":1,\"longitude\":1},\"destination\":{\"latitude\":1,\"longitude\":2}}",
              "distanceKm"
            ]
          ]
          for (const [body, key] of cases) {
            const r = yield* quote(token, { body })
            expectError(r, 400, "result:invalid-request")
            expect(String(r.json?.["message"]), body).toContain(`"${key}"`)
          }
          // Equal keys in different objects, and colons inside strings, are not duplicates.
          const fine = yield* quote(token, {
            body: "{\"pickup\":{\"latitude\":52.52,\"longitude\":13.405},\"destination\":{\"latitude\":52.5,\"longitude\":13.35},"
              + `"scheduledAt":"${new Date(Date.now() + 3_600_000).toISOString()}"}`
          })
          expect(fine.status, fine.head).toBe(200)
          const revoke = yield* raw([
            "POST /v1/auth/revoke HTTP/1.1",
            `Authorization: Bearer ${token}`,
            "Content-Type: application/json"
          ], "{\"all\":false,\"all\":true}")
          expectError(revoke, 400, "result:invalid-request")
          expect(String(revoke.json?.["message"])).toContain("\"all\"")
        }))
    })
  })

suite("node")
suite("httpapi")
