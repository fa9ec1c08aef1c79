/**
 * The operational endpoints: health, OpenAPI document and Prometheus metrics (the docs page
 * has docs.test.ts, the exposition rules metrics.test.ts).
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { ErrorCode, Jti, TokenNotFound } from "@ridequote/core"
import { randomUUID } from "node:crypto"
import { RidequoteApi } from "../src/index.js"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, Layer } from "effect"
import { call, makeTestApp, signedIn } from "./harness.js"

const App = makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog))

interface Operation {
  readonly summary?: string
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: unknown }> }>
}

describe("operational endpoints", () => {
  layer(App, { excludeTestServices: true })((it) => {
    it.effect("/health/live → 200; /health/ready → 200 while storage answers", () =>
      Effect.gen(function*() {
        expect((yield* call("GET", "/health/live")).json).toEqual({ status: "ok" })
        expect((yield* call("GET", "/health/ready")).json).toEqual({ status: "ok" })
      }))

    it.effect("/openapi.json: OpenAPI 3.1 with every path, a summary per operation, every error code, no HttpApiDecodeError", () =>
      Effect.gen(function*() {
        const r = yield* call("GET", "/openapi.json")
        expect(r.status).toBe(200)
        const doc = r.json as {
          openapi: string
          info: { license: { name: string; url: string } }
          paths: Record<string, Record<string, Operation>>
          components: { schemas: Record<string, unknown> }
        }
        expect(doc.openapi).toBe("3.1.0")
        expect(doc.info.license.url).toMatch(/^https:\/\//)
        expect(Object.keys(doc.paths).sort()).toEqual([
          "/health/live",
          "/health/ready",
          "/metrics",
          "/v1/audit/recent",
          "/v1/auth/revoke",
          "/v1/auth/token",
          "/v1/customer/me",
          "/v1/markets",
          "/v1/quote"
        ])
        for (const [path, item] of Object.entries(doc.paths)) {
          for (const [method, op] of Object.entries(item)) expect(op.summary, `${method} ${path}`).toBeTruthy()
        }
        expect(r.text).not.toContain("HttpApiDecodeError")
        expect(r.text).not.toContain("did not match the expected schema")
        // Not referenced by any operation, documented anyway: the 404 and 405 bodies.
        expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["UnknownRoute", "MethodNotAllowed"]))
        for (const code of ErrorCode.literals) expect(r.text, code).toContain(`"${code}"`)
        const quote = doc.paths["/v1/quote"]?.["post"]
        expect(Object.keys(quote?.responses ?? {}).sort()).toEqual(["200", "400", "401", "403", "413", "415", "422", "429", "500", "503"])
        const token = doc.paths["/v1/auth/token"]?.["post"]
        expect(Object.keys(token?.responses ?? {}).sort()).toEqual(["200", "400", "401", "403", "500", "503"])
        expect(Object.keys(doc.paths["/v1/customer/me"]?.["get"]?.responses ?? {}).sort()).toEqual(["200", "401", "429", "500", "503"])
        expect(Object.keys(doc.paths["/v1/markets"]?.["get"]?.responses ?? {}).sort()).toEqual(["200", "400", "401", "429", "500", "503"])
      }))

    it.effect("typed client from RidequoteApi: successes decode to core's types, errors to core's error classes", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        const client = yield* HttpApiClient.make(RidequoteApi, {
          transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
        })
        const me = yield* client.customer.me()
        expect(me.status).toBe("Active")
        const missing = yield* client.auth.revokeToken({ payload: { jti: Jti.make(randomUUID()) } }).pipe(Effect.flip)
        expect(missing).toBeInstanceOf(TokenNotFound)
        const page = yield* client.audit.recent({ urlParams: { limit: 5 } })
        expect(page).toEqual([])
        const markets = yield* client.markets.list({ urlParams: {} })
        expect(markets.map((m) => m.id)).toEqual(["global-sample"])
      }))

    it.effect("/metrics: Prometheus text with request, duration and quote series after a few requests", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        yield* call("POST", "/v1/quote", {
          token,
          json: { pickup: { latitude: 48.85, longitude: 2.35 }, destination: { latitude: 48.86, longitude: 2.3 } }
        })
        yield* call("GET", "/no-such-path")
        const r = yield* call("GET", "/metrics")
        expect(r.status).toBe(200)
        expect(r.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/)
        expect(r.text).toContain("# TYPE ridequote_http_requests_total counter")
        expect(r.text).toMatch(/ridequote_http_requests_total\{method="POST",route="\/v1\/quote",status="200"\} \d+/)
        expect(r.text).toMatch(/ridequote_http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/)
        expect(r.text).toContain("# TYPE ridequote_http_request_duration_seconds histogram")
        expect(r.text).toMatch(/ridequote_http_request_duration_seconds_bucket\{method="POST",route="\/v1\/quote",le="\+Inf"\} \d+/)
        expect(r.text).toMatch(/ridequote_quotes_total\{mode="Realtime"\} \d+/)
      }))
  })
})
