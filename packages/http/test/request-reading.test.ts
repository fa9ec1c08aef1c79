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

/**
 * Writes `text` exactly as given on a fresh connection (then half-closes it) and reads every
 * answer until the server closes: for requests a client library would not send.
 */
const exchange = (text: string) =>
  Effect.gen(function*() {
    const port = yield* TestServerPort
    return yield* Effect.async<string>((resume) => {
      const socket = connect(port, "127.0.0.1")
      const chunks: Array<Buffer> = []
      socket.on("data", (c: Buffer) => chunks.push(c))
      socket.on("close", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
      socket.on("error", () => {})
      socket.end(text.replaceAll("{port}", String(port)))
    })
  })

/** The answers in a connection's bytes, in order: status, head and JSON body of each. */
const answers = (text: string): ReadonlyArray<RawAnswer> =>
  text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part.startsWith("HTTP/1.1 ")).map((part) => {
    const [head = "", rest = ""] = part.split("\r\n\r\n", 2)
    const json = /\{[\s\S]*\}/.exec(rest)?.[0]
    return { status: Number(head.slice(9, 12)), head, json: json === undefined ? undefined : JSON.parse(json) }
  })

/** The one answer on a connection, which must be a contract error body with an X-Request-Id. */
const onlyAnswer = (text: string): RawAnswer => {
  const all = answers(text)
  expect(all.length, text).toBe(1)
  const answer = all[0]!
  expect(answer.head.toLowerCase(), answer.head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/)
  expect(answer.head.toLowerCase()).toContain("content-type: application/json; charset=utf-8")
  return answer
}

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

const messageSuite = (host: Host) =>
  describe(`plain HTTP/1.1 messages only — ${host} host`, () => {
    layer(makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), undefined, host), {
      excludeTestServices: true
    })((it) => {
      const quoteHead = (token: string, requestLine: string, extra: ReadonlyArray<string> = []) =>
        [
          requestLine,
          "Host: 127.0.0.1:{port}",
          `Authorization: Bearer ${token}`,
          "Content-Type: application/json",
          ...extra
        ].join("\r\n")

      it.effect("no Host header (HTTP/1.1) → 400 with the JSON error body and an X-Request-Id, on every route", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const target of ["/health/live", "/v1/customer/me", "/openapi.json", "/nowhere"]) {
            const r = onlyAnswer(yield* exchange(`GET ${target} HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n`))
            expectError(r, 400, "result:invalid-request")
            expect(String(r.json?.["message"])).toContain("Host")
          }
          // HTTP/1.0 has no Host header to require.
          const old = answers(yield* exchange("GET /health/live HTTP/1.0\r\n\r\n"))
          expect(old.map((a) => a.status)).toEqual([200])
        }))

      it.effect("a valid quote then garbage in one write: the quote is answered 200, then the garbage 400, then the connection closes", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const text = yield* exchange(
            `${quoteHead(token, "POST /v1/quote HTTP/1.1", [`Content-Length: ${Buffer.byteLength(trip)}`])}\r\n\r\n${trip}` +
              "GARBAGE\r\n\r\n"
          )
          const all = answers(text)
          expect(all.map((a) => a.status), text).toEqual([200, 400])
          expect(all[0]?.json?.["marketPrices"]).toBeDefined()
          expectError(all[1]!, 400, "result:invalid-request")
          // Two quotes then garbage: both quotes, in order, then the 400.
          const quote = `${quoteHead(token, "POST /v1/quote HTTP/1.1", [`Content-Length: ${Buffer.byteLength(trip)}`])}\r\n\r\n${trip}`
          const two = answers(yield* exchange(`${quote}${quote}GARBAGE\r\n\r\n`))
          expect(two.map((a) => a.status)).toEqual([200, 200, 400])
        }))

      it.effect("a duplicated Host header → 400 on every route, the probes included", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const target of ["/health/live", "/health/ready", "/metrics", "/openapi.json", "/v1/customer/me"]) {
            const r = onlyAnswer(
              yield* exchange(
                `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n` +
                  `Authorization: Bearer ${token}\r\nConnection: close\r\n\r\n`
              )
            )
            expectError(r, 400, "result:invalid-request")
            expect(String(r.json?.["message"]), target).toContain("Host")
          }
        }))

      it.effect("HTTP/2.0 in the request line → 400", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const live = onlyAnswer(yield* exchange("GET /health/live HTTP/2.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"))
          expectError(live, 400, "result:invalid-request")
          const body = `Content-Length: ${Buffer.byteLength(trip)}`
          const quoted = onlyAnswer(yield* exchange(`${quoteHead(token, "POST /v1/quote HTTP/2.0", [body])}\r\n\r\n${trip}`))
          expectError(quoted, 400, "result:invalid-request")
        }))

      it.effect("Transfer-Encoding other than chunked (gzip, chunked) with a plain body → 400, connection closed", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const chunked = `${Buffer.byteLength(trip).toString(16)}\r\n${trip}\r\n0\r\n\r\n`
          for (const coding of ["gzip, chunked", "deflate, chunked", "identity, chunked"]) {
            const text = yield* exchange(
              `${quoteHead(token, "POST /v1/quote HTTP/1.1", [`Transfer-Encoding: ${coding}`])}\r\n\r\n${chunked}` +
                `${quoteHead(token, "POST /v1/quote HTTP/1.1", [`Content-Length: ${Buffer.byteLength(trip)}`])}\r\n\r\n${trip}`
            )
            const r = onlyAnswer(text)
            expectError(r, 400, "result:invalid-request")
            expect(String(r.json?.["message"])).toContain("Transfer-Encoding")
          }
          // Plain chunked is read as usual.
          const plain = answers(
            yield* exchange(`${quoteHead(token, "POST /v1/quote HTTP/1.1", ["Transfer-Encoding: chunked", "Connection: close"])}\r\n\r\n${chunked}`)
          )
          expect(plain.map((a) => a.status)).toEqual([200])
        }))

      it.effect("a fragment in the request target (POST /v1/quote#frag) → 400", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const body = `Content-Length: ${Buffer.byteLength(trip)}`
          const r = onlyAnswer(yield* exchange(`${quoteHead(token, "POST /v1/quote#frag HTTP/1.1", [body])}\r\n\r\n${trip}`))
          expectError(r, 400, "result:invalid-request")
          const live = onlyAnswer(yield* exchange("GET /health/live#x HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"))
          expectError(live, 400, "result:invalid-request")
        }))

      it.effect("two spaces between the parts of the request line → 400", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const body = `Content-Length: ${Buffer.byteLength(trip)}`
          for (const line of ["POST  /v1/quote HTTP/1.1", "POST /v1/quote  HTTP/1.1", "POST   /v1/quote   HTTP/1.1"]) {
            const r = onlyAnswer(yield* exchange(`${quoteHead(token, line, [body])}\r\n\r\n${trip}`))
            expectError(r, 400, "result:invalid-request")
          }
          const live = onlyAnswer(yield* exchange("GET  /health/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"))
          expectError(live, 400, "result:invalid-request")
          // The same request with single spaces is answered (the baseline of the case).
          const fine = answers(yield* exchange(`${quoteHead(token, "POST /v1/quote HTTP/1.1", [body, "Connection: close"])}\r\n\r\n${trip}`))
          expect(fine.map((a) => a.status)).toEqual([200])
        }))

      it.effect("a 404's message does not repeat the path sent", () =>
        Effect.gen(function*() {
          const r = onlyAnswer(
            yield* exchange("GET /xzq<script>mark HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
          )
          expectError(r, 404, "result:not-found")
          const message = String(r.json?.["message"])
          expect(message).not.toContain("xzq")
          expect(message).not.toContain("<script>")
          // Near misses of a route (refused by the edge itself) too.
          const near = onlyAnswer(yield* exchange("GET /V1/Customer/ME HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"))
          expectError(near, 404, "result:not-found")
          expect(String(near.json?.["message"])).not.toContain("/V1/Customer/ME")
        }))
    })
  })

suite("node")
suite("httpapi")
messageSuite("node")
messageSuite("httpapi")
