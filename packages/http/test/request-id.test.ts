/**
 * A caller's own X-Request-Id, on both hosts: a well-formed one (1–128 characters of
 * A–Z a–z 0–9 . _ : -) is answered in the X-Request-Id header, in error bodies and in the
 * request's log line; a quote keeps its own requestId (its audit key) whatever the caller
 * sent; a malformed one is ignored (a fresh id), never an error.
 */
import { describe, expect, layer } from "@effect/vitest"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, HashMap, Layer, Logger, Option } from "effect"
import { call, makeTestApp, signedIn } from "./harness.js"
import type { Host, WireResponse } from "./harness.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const trip = { pickup: { latitude: 52.52, longitude: 13.405 }, destination: { latitude: 52.5, longitude: 13.35 } }

/** The `requestId` annotation of every "request" log line, in order. */
const logged: Array<string> = []
const requestLines = Logger.make(({ annotations, message }) => {
  const text = Array.isArray(message) ? message.join(" ") : String(message)
  if (text !== "request") return
  const id = HashMap.get(annotations, "requestId")
  if (Option.isSome(id)) logged.push(String(id.value))
})

const body = (r: WireResponse): Record<string, unknown> => r.json as Record<string, unknown>

/** The request's log line is written once the answer is: wait for it rather than race it. */
const loggedEventually = (id: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 50 && !logged.includes(id); i++) yield* Effect.sleep("10 millis")
    return logged.includes(id)
  })

const suite = (host: Host) =>
  describe(`X-Request-Id from the caller — ${host} host`, () => {
    layer(
      makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), undefined, host, requestLines),
      { excludeTestServices: true }
    )((it) => {
      it.effect("a well-formed id is the response's X-Request-Id, its error body's requestId and its log line's", () =>
        Effect.gen(function*() {
          const cases = [
            ["GET", "/health/live", "live-1"],
            ["GET", "/v1/customer/me", "Trace.42:7_a-b"],
            ["GET", "/nope", "0b6f1a5e-2a5c-4f7e-9d2e-5d7f3f1b2c3d"],
            ["POST", "/v1/customer/me", "x".repeat(128)],
            ["GET", "/v1/audit/recent", "audit-call"]
          ] as const
          for (const [method, path, id] of cases) {
            const r = yield* call(method, path, { headers: { "x-request-id": id } })
            expect(r.headers["x-request-id"], `${method} ${path}`).toBe(id)
            if (r.status >= 400) expect(body(r).requestId, `${method} ${path}`).toBe(id)
            expect(yield* loggedEventually(id), `log line of ${method} ${path}`).toBe(true)
          }
        }))

      it.effect("a quote keeps its own requestId (the audit key); the caller's id is in X-Request-Id", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const id = "client-order-981"
          const ok = yield* call("POST", "/v1/quote", { token, json: trip, headers: { "x-request-id": id } })
          expect(ok.status, ok.text).toBe(200)
          expect(ok.headers["x-request-id"]).toBe(id)
          expect(body(ok).requestId).toMatch(UUID)
          // A rejected quote: its error body carries the quote's id too, the one its audit entry has.
          const refused = yield* call("POST", "/v1/quote", {
            token,
            json: { ...trip, distanceKm: 4 },
            headers: { "x-request-id": id }
          })
          expect(refused.status, refused.text).toBe(400)
          expect(refused.headers["x-request-id"]).toBe(id)
          expect(body(refused).requestId).toMatch(UUID)
          const audit = yield* call("GET", "/v1/audit/recent", { token })
          const keys = (audit.json as ReadonlyArray<{ requestId: string }>).map((e) => e.requestId)
          expect(keys).toEqual([body(refused).requestId, body(ok).requestId])
          expect(keys).not.toContain(id)
          // Two callers sending the same id still get two quotes, two audit entries.
          const again = yield* call("POST", "/v1/quote", { token, json: trip, headers: { "x-request-id": id } })
          expect(body(again).requestId).not.toBe(body(ok).requestId)
          expect(yield* loggedEventually(id)).toBe(true)
        }))

      it.effect("a malformed id is ignored: a fresh UUID, never an error", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const id of ["has space", "x".repeat(129), "a/b", "semi;colon", "ünïcode", "quote\"d", "a,b"]) {
            for (const [method, path] of [["GET", "/health/live"], ["GET", "/v1/customer/me"], ["GET", "/nope"]] as const) {
              const r = yield* call(method, path, { token, headers: { "x-request-id": id } })
              expect(r.status, `${path} ${id}`).not.toBe(400)
              expect(r.headers["x-request-id"], `${path} ${id}`).toMatch(UUID)
            }
          }
          const q = yield* call("POST", "/v1/quote", { token, json: trip, headers: { "x-request-id": "not ok" } })
          expect(q.status).toBe(200)
          // Without a caller's id, the quote's requestId is X-Request-Id, as before.
          expect(q.headers["x-request-id"]).toBe(body(q).requestId)
        }))
    })
  })

suite("node")
suite("httpapi")
