/**
 * CORS on both hosts, with real preflight and actual requests over HTTP: off by default; on
 * for the configured origins only, on successes and error bodies alike, on the hot routes of
 * the Node host and on the HttpApi application.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, Either, Layer } from "effect"
import { parseCorsOrigin } from "../src/HttpConfig.js"
import { call, makeTestApp, signedIn } from "./harness.js"
import type { Host, WireResponse } from "./harness.js"

const APP = "https://app.example.com"
const DEV = "http://localhost:5173"
const storage = () => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog)
const trip = { pickup: { latitude: 52.52, longitude: 13.405 }, destination: { latitude: 52.5, longitude: 13.35 } }

const preflight = (path: string, origin: string, method = "POST") =>
  call("OPTIONS", path, {
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" }
  })

const corsHeaderNames = (r: WireResponse): ReadonlyArray<string> =>
  Object.keys(r.headers).filter((name) => name.startsWith("access-control-"))

/** The headers every answer to an allowed origin carries. */
const expectAllowed = (r: WireResponse, origin: string, what: string) => {
  expect(r.headers["access-control-allow-origin"], what).toBe(origin)
  expect(r.headers["vary"], what).toMatch(/\bOrigin\b/)
  const exposed = (r.headers["access-control-expose-headers"] ?? "").toLowerCase().split(/, */)
  expect(exposed, what).toEqual(expect.arrayContaining(["x-request-id", "retry-after", "link"]))
  expect(r.headers["access-control-allow-credentials"], what).toBeUndefined()
}

const suite = (host: Host) =>
  describe(`CORS — ${host} host`, () => {
    layer(makeTestApp(storage, { corsOrigins: [APP, DEV] }, host), { excludeTestServices: true })((it) => {
      it.effect("a preflight from an allowed origin → 204 with the path's methods, the API's request headers and a max age", () =>
        Effect.gen(function*() {
          for (const [path, method] of [["/v1/quote", "POST"], ["/v1/customer/me", "GET"], ["/v1/audit/recent", "GET"], ["/v1/auth/token", "POST"]] as const) {
            const r = yield* preflight(path, APP, method)
            expect(r.status, `${path}: ${r.text}`).toBe(204)
            expect(r.text).toBe("")
            expect(r.headers["access-control-allow-origin"]).toBe(APP)
            expect(r.headers["access-control-allow-methods"]).toBe(method)
            const allowed = (r.headers["access-control-allow-headers"] ?? "").toLowerCase().split(/, */)
            expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "x-request-id", "x-api-key", "x-api-secret"]))
            expect(Number(r.headers["access-control-max-age"])).toBeGreaterThan(0)
            expect(r.headers["vary"]).toMatch(/\bOrigin\b/)
            expect(r.headers["x-request-id"]).toBeDefined()
          }
          const dev = yield* preflight("/v1/quote", DEV)
          expect(dev.status).toBe(204)
          expect(dev.headers["access-control-allow-origin"]).toBe(DEV)
        }))

      it.effect("a preflight from another origin gets no CORS header (the 405 any OPTIONS gets)", () =>
        Effect.gen(function*() {
          for (const origin of ["https://evil.example.com", "https://app.example.com.evil.example", "http://app.example.com", "null"]) {
            const r = yield* preflight("/v1/quote", origin)
            expect(r.status, origin).toBe(405)
            expect(corsHeaderNames(r), origin).toEqual([])
          }
        }))

      it.effect("answers to an allowed origin carry Allow-Origin, Vary: Origin and the exposed headers, errors included", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const headers = { origin: APP }
          const answers: ReadonlyArray<readonly [string, WireResponse]> = [
            ["quote 200", yield* call("POST", "/v1/quote", { token, json: trip, headers })],
            ["quote 400", yield* call("POST", "/v1/quote", { token, json: { ...trip, distanceKm: 3 }, headers })],
            ["me 200", yield* call("GET", "/v1/customer/me", { token, headers })],
            ["me 401", yield* call("GET", "/v1/customer/me", { headers })],
            ["live 200", yield* call("GET", "/health/live", { headers })],
            ["audit 200", yield* call("GET", "/v1/audit/recent", { token, headers })],
            ["audit 400", yield* call("GET", "/v1/audit/recent?limit=0", { token, headers })],
            ["openapi 200", yield* call("GET", "/openapi.json", { headers })],
            ["unknown path 404", yield* call("GET", "/nope", { headers })],
            ["wrong method 405", yield* call("GET", "/v1/quote", { headers })]
          ]
          for (const [what, r] of answers) expectAllowed(r, APP, what)
          expect(answers.map(([, r]) => r.status)).toEqual([200, 400, 200, 401, 200, 200, 400, 200, 404, 405])
        }))

      it.effect("answers to another origin, or to a request without Origin, carry no CORS header but Vary: Origin", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const headers of [{ origin: "https://evil.example.com" }, {}]) {
            for (const r of [
              yield* call("POST", "/v1/quote", { token, json: trip, headers }),
              yield* call("GET", "/v1/customer/me", { headers }),
              yield* call("GET", "/v1/audit/recent", { token, headers })
            ]) {
              expect(corsHeaderNames(r)).toEqual([])
              expect(r.headers["vary"]).toMatch(/\bOrigin\b/)
            }
          }
        }))
    })

    // The rate limit's 429 exposes Retry-After to the page.
    layer(makeTestApp(storage, { corsOrigins: [APP], rateLimit: { requestsPerSecond: 0.01, burst: 1 } }, host), {
      excludeTestServices: true
    })((it) => {
      it.effect("a 429 to an allowed origin carries Retry-After and exposes it", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          yield* call("GET", "/v1/customer/me", { token, headers: { origin: APP } })
          const r = yield* call("GET", "/v1/customer/me", { token, headers: { origin: APP } })
          expect(r.status).toBe(429)
          expect(r.headers["retry-after"]).toBeDefined()
          expectAllowed(r, APP, "429")
        }))
    })

    layer(makeTestApp(storage, undefined, host), { excludeTestServices: true })((it) => {
      it.effect("off by default: a preflight is 405, no answer carries a CORS header or Vary: Origin", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* preflight("/v1/quote", APP)
          expect(r.status).toBe(405)
          expect(corsHeaderNames(r)).toEqual([])
          for (const answer of [
            yield* call("POST", "/v1/quote", { token, json: trip, headers: { origin: APP } }),
            yield* call("GET", "/v1/audit/recent", { token, headers: { origin: APP } })
          ]) {
            expect(answer.status).toBe(200)
            expect(corsHeaderNames(answer)).toEqual([])
            expect(answer.headers["vary"]).toBeUndefined()
          }
        }))
    })
  })

suite("node")
suite("httpapi")

describe("parseCorsOrigin", () => {
  it("accepts scheme://host[:port] (normalized) and *, refuses anything else", () => {
    expect(parseCorsOrigin("https://App.Example.com")).toEqual(Either.right("https://app.example.com"))
    expect(parseCorsOrigin("https://app.example.com:443/")).toEqual(Either.right("https://app.example.com"))
    expect(parseCorsOrigin("http://localhost:5173")).toEqual(Either.right("http://localhost:5173"))
    expect(parseCorsOrigin(" * ")).toEqual(Either.right("*"))
    for (const bad of ["app.example.com", "https://app.example.com/path", "ftp://x.example", "https://u:p@x.example", "https://x.example?q", ""]) {
      expect(Either.isLeft(parseCorsOrigin(bad)), bad).toBe(true)
    }
  })
})
