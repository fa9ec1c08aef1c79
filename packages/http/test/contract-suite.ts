/**
 * The endpoint contract (docs/api.md) as a reusable suite: run it against any
 * storage with `contractSuite(name, makeStorageLayer)`. Every request goes over real HTTP to
 * `HttpHostLive`. Each test is named after the rule it checks.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { AccessSnapshot, Accounts, AccountStore, AuditLog, BehaviorId, ErrorCode } from "@ridequote/core"
import { Effect, Schema, Stream } from "effect"
import { randomUUID } from "node:crypto"
import { call, credentialHeaders, errorCode, issueToken, makeTestApp, newAccount, signedIn, StorageSwitch } from "./harness.js"
import type { Host } from "./harness.js"
import type { MakeStorageLayer, WireResponse } from "./harness.js"
import { claimsOf, signWithServiceKey, unsignedToken } from "./jwt.js"
import { TwoCitiesLive } from "./markets.js"

const isErrorCode = Schema.is(ErrorCode)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const trip = {
  pickup: { latitude: 52.52, longitude: 13.405 },
  destination: { latitude: 52.5, longitude: 13.35 }
}

/** Asserts an error answer: status, code, the contract's body shape and the request id header. */
const expectError = (r: WireResponse, status: number, code: string) => {
  expect({ status: r.status, code: errorCode(r) }, r.text).toEqual({ status, code })
  expect(r.headers["content-type"]).toMatch(/^application\/json/)
  const body = r.json as Record<string, unknown>
  expect(typeof body.message).toBe("string")
  expect(isErrorCode(body.code)).toBe(true)
  expect(r.headers["x-request-id"]).toMatch(UUID)
  // Every error body carries the request's id, whatever the endpoint.
  expect(body.requestId).toBe(r.headers["x-request-id"])
}

interface QuoteWire {
  readonly requestId: string
  readonly mode: string
  readonly distanceKm: number
  readonly durationMinutes: number
  readonly recommendations: Record<string, ReadonlyArray<{ readonly price: number; readonly label: string }>>
  readonly marketPrices: Record<string, unknown>
}

interface AuditWire {
  readonly requestId: string
  readonly receivedAt: string
  readonly decision: Record<string, unknown>
}

const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString()

/** The audit entries of the caller, all pages. */
const auditOf = (token: string) =>
  Effect.map(call("GET", "/v1/audit/recent?limit=500", { token }), (r) => r.json as ReadonlyArray<AuditWire>)

export const contractSuite = (name: string, makeStorageLayer: MakeStorageLayer, host: Host = "node"): void => {
  describe(`HTTP contract — ${name}, ${host} host`, () => {
    layer(makeTestApp(makeStorageLayer, undefined, host), { excludeTestServices: true, timeout: "60 seconds" })((it) => {
      // --- route metadata and mode (docs/api.md, "POST /v1/quote") ---------------------------

      it.effect("GET /v1/markets lists the sample market: every place on Earth, solar clock, the offers a quote prices", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* call("GET", "/v1/markets", { token })
          expect(r.status, r.text).toBe(200)
          const markets = r.json as ReadonlyArray<MarketWire>
          expect(markets.map((m) => ({ id: m.id, sampleData: m.sampleData, timeZone: m.timeZone, area: m.area }))).toEqual([
            { id: "global-sample", sampleData: true, timeZone: "solar", area: { south: -90, west: -180, north: 90, east: 180 } }
          ])
          const quoted = yield* call("POST", "/v1/quote", { token, json: trip })
          expect(markets[0]!.offers.map((o) => o.key).sort()).toEqual(Object.keys((quoted.json as QuoteWire).marketPrices).sort())
        }))

      it.effect("rule 1: neither distanceKm nor durationMinutes → both inferred from pickup and destination", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* call("POST", "/v1/quote", { token, json: trip })
          expect(r.status, r.text).toBe(200)
          const q = r.json as QuoteWire
          expect(q.distanceKm).toBeGreaterThan(0)
          expect(q.durationMinutes).toBeGreaterThan(0)
          expect(q.recommendations["Standard"]?.map((p) => p.label)).toContain("balanced")
          expect(Object.keys(q.marketPrices).length).toBeGreaterThan(0)
        }))

      it.effect("rule 2: both distanceKm and durationMinutes → the resolver is bypassed and they are used", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* call("POST", "/v1/quote", { token, json: { ...trip, distanceKm: 12.5, durationMinutes: 21 } })
          expect(r.status, r.text).toBe(200)
          expect(r.json).toMatchObject({ distanceKm: 12.5, durationMinutes: 21 })
        }))

      it.effect("rule 3: exactly one of distanceKm/durationMinutes → 400 result:route-metadata-incomplete, audited", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const partial of [{ distanceKm: 5 }, { durationMinutes: 9 }]) {
            const r = yield* call("POST", "/v1/quote", { token, json: { ...trip, ...partial } })
            expectError(r, 400, "result:route-metadata-incomplete")
            expect((r.json as Record<string, unknown>).requestId).toBe(r.headers["x-request-id"])
          }
          const audit = yield* auditOf(token)
          expect(audit.map((e) => e.decision)).toEqual([
            expect.objectContaining({ outcome: "rejected", code: "result:route-metadata-incomplete" }),
            expect.objectContaining({ outcome: "rejected", code: "result:route-metadata-incomplete" })
          ])
        }))

      it.effect("rule 4: scheduledAt at least 30 minutes ahead → Scheduled", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const minutes of [31, 120, 60 * 24 * 30]) {
            const r = yield* call("POST", "/v1/quote", { token, json: { ...trip, scheduledAt: minutesFromNow(minutes) } })
            expect(r.status, r.text).toBe(200)
            expect((r.json as Record<string, unknown>).mode).toBe("Scheduled")
          }
        }))

      it.effect("rule 5: scheduledAt sooner than 30 minutes, in the past, or absent → Realtime", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const extra of [{ scheduledAt: minutesFromNow(10) }, { scheduledAt: minutesFromNow(-60) }, {}]) {
            const r = yield* call("POST", "/v1/quote", { token, json: { ...trip, ...extra } })
            expect(r.status, r.text).toBe(200)
            expect((r.json as Record<string, unknown>).mode).toBe("Realtime")
          }
        }))

      // --- tokens ------------------------------------------------------------------------

      it.effect("token issue → 200 {token, jti, expiresAt, ttlSeconds}; expiresAt is the token's exp, ttl = exp - iat", () =>
        Effect.gen(function*() {
          const created = yield* newAccount()
          const r = yield* call("POST", "/v1/auth/token", { headers: credentialHeaders(created) })
          expect(r.status, r.text).toBe(200)
          const t = r.json as { token: string; jti: string; expiresAt: string; ttlSeconds: number }
          expect(Object.keys(t).sort()).toEqual(["expiresAt", "jti", "token", "ttlSeconds"])
          expect(t.ttlSeconds).toBe(86_400)
          expect(t.jti).toMatch(UUID)
          expect(t.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/)
          const claims = claimsOf(t.token)
          expect(claims.jti).toBe(t.jti)
          expect(Date.parse(t.expiresAt)).toBe(Number(claims.exp) * 1000)
          expect(Number(claims.exp) - Number(claims.iat)).toBe(t.ttlSeconds)
          expect(r.headers["x-request-id"]).toMatch(UUID)
        }))

      it.effect("token issue with unknown key, wrong secret or missing headers → 401 result:invalid-credentials, one body", () =>
        Effect.gen(function*() {
          const created = yield* newAccount()
          const other = yield* newAccount()
          const attempts = [
            { "x-api-key": created.apiKey, "x-api-secret": credentialHeaders(other)["x-api-secret"] ?? "" },
            { "x-api-key": "rqk_AAAAAAAAAAAAAAAAAAAAAAAA", "x-api-secret": credentialHeaders(created)["x-api-secret"] ?? "" },
            { "x-api-key": created.apiKey },
            {}
          ]
          const bodies = new Set<string>()
          for (const headers of attempts) {
            const r = yield* call("POST", "/v1/auth/token", { headers })
            expectError(r, 401, "result:invalid-credentials")
            expect(r.headers["www-authenticate"]).toBeDefined()
            // The same body but for the request's own id: nothing tells the cases apart.
            const { requestId: _, ...body } = r.json as Record<string, unknown>
            bodies.add(JSON.stringify(body))
          }
          expect(bodies.size).toBe(1)
        }))

      it.effect("token issue for a Pending or Blocked account → 403 result:account-blocked", () =>
        Effect.gen(function*() {
          for (const status of ["Pending", "Blocked"] as const) {
            const created = yield* newAccount({ status })
            const r = yield* call("POST", "/v1/auth/token", { headers: credentialHeaders(created) })
            expectError(r, 403, "result:account-blocked")
          }
        }))

      it.effect("token issue with a secret in the query string → 400 before the credentials are looked at", () =>
        Effect.gen(function*() {
          const created = yield* newAccount()
          const secret = credentialHeaders(created)["x-api-secret"] ?? ""
          for (const param of ["apiSecret", "api_secret", "APISECRET", "Api_Secret", "x-api-secret"]) {
            const url = `/v1/auth/token?${param}=${encodeURIComponent(secret)}`
            // With valid headers, and with none: the query string alone decides.
            for (const headers of [credentialHeaders(created), {}]) {
              const r = yield* call("POST", url, { headers })
              expectError(r, 400, "result:invalid-request")
              expect(r.text).not.toContain(secret)
            }
          }
        }))

      it.effect("revoke by jti → 200 {revoked: 1}; the token is then 401 result:token-revoked; again → {revoked: 0}", () =>
        Effect.gen(function*() {
          const { created, token } = yield* signedIn()
          const second = yield* issueToken(created)
          const r = yield* call("POST", "/v1/auth/revoke", { token, json: { jti: second.jti } })
          expect(r.status, r.text).toBe(200)
          expect(r.json).toEqual({ revoked: 1 })
          expectError(yield* call("GET", "/v1/customer/me", { token: second.token }), 401, "result:token-revoked")
          const again = yield* call("POST", "/v1/auth/revoke", { token, json: { jti: second.jti } })
          expect(again.json).toEqual({ revoked: 0 })
        }))

      it.effect("revoking the calling token itself is allowed and counts", () =>
        Effect.gen(function*() {
          const { jti, token } = yield* signedIn()
          const r = yield* call("POST", "/v1/auth/revoke", { token, json: { jti } })
          expect(r.json).toEqual({ revoked: 1 })
          expectError(yield* call("GET", "/v1/customer/me", { token }), 401, "result:token-revoked")
        }))

      it.effect("revoke of another account's jti, or an unknown jti → 404 result:not-found (tenant isolation)", () =>
        Effect.gen(function*() {
          const a = yield* signedIn()
          const b = yield* signedIn()
          expectError(yield* call("POST", "/v1/auth/revoke", { token: a.token, json: { jti: b.jti } }), 404, "result:not-found")
          expectError(
            yield* call("POST", "/v1/auth/revoke", { token: a.token, json: { jti: randomUUID() } }),
            404,
            "result:not-found"
          )
          // b's token is untouched.
          expect((yield* call("GET", "/v1/customer/me", { token: b.token })).status).toBe(200)
        }))

      it.effect("revoke {all: true} → every token of the account, the calling one included, counted", () =>
        Effect.gen(function*() {
          const { created, token } = yield* signedIn()
          const others = [yield* issueToken(created), yield* issueToken(created)]
          const bystander = yield* signedIn()
          const r = yield* call("POST", "/v1/auth/revoke", { token, json: { all: true } })
          expect(r.json).toEqual({ revoked: 3 })
          for (const t of [token, ...others.map((o) => o.token)]) {
            expectError(yield* call("GET", "/v1/customer/me", { token: t }), 401, "result:token-revoked")
          }
          expect((yield* call("GET", "/v1/customer/me", { token: bystander.token })).status).toBe(200)
        }))

      // The frozen-clock version (same millisecond) is in clock.test.ts.
      it.effect("revoke-all spares a token issued right after it", () =>
        Effect.gen(function*() {
          const { created, token } = yield* signedIn()
          const r = yield* call("POST", "/v1/auth/revoke", { token, json: { all: true } })
          expect(r.json).toEqual({ revoked: 1 })
          const fresh = yield* issueToken(created)
          const me = yield* call("GET", "/v1/customer/me", { token: fresh.token })
          expect(me.status, me.text).toBe(200)
        }))

      it.effect("revoke body with neither, both, {all: false}, or a bad jti → 400 result:invalid-request", () =>
        Effect.gen(function*() {
          const { jti, token } = yield* signedIn()
          for (const json of [{}, { jti, all: true }, { all: false }, { jti: "not-a-uuid" }, { all: "yes" }, []]) {
            expectError(yield* call("POST", "/v1/auth/revoke", { token, json }), 400, "result:invalid-request")
          }
          // The token was not revoked by any of these.
          expect((yield* call("GET", "/v1/customer/me", { token })).status).toBe(200)
        }))

      // --- accounts ------------------------------------------------------------------------

      it.effect("/v1/customer/me → the caller's account {id, name, status, tokenTtlSeconds, pricing, createdAt}", () =>
        Effect.gen(function*() {
          const { created, token } = yield* signedIn()
          const r = yield* call("GET", "/v1/customer/me", { token })
          expect(r.status).toBe(200)
          const me = r.json as Record<string, unknown>
          expect(Object.keys(me).sort()).toEqual(["createdAt", "id", "name", "pricing", "status", "tokenTtlSeconds"])
          expect(me).toMatchObject({ id: created.account.id, name: "Test account", status: "Active", tokenTtlSeconds: 86_400 })
          expect(me.pricing).toEqual({ defaultBehavior: "market-median", enabledBehaviors: [] })
          expect(me.createdAt).toMatch(/Z$/)
        }))

      it.effect("a Blocked or Pending account's token: /v1/quote → 403 (audited); me, audit and revoke stay open", () =>
        Effect.gen(function*() {
          for (const status of ["Blocked", "Pending"] as const) {
            const { created, jti, token } = yield* signedIn()
            yield* Effect.orDie((yield* Accounts).setStatus(created.account.id, status))
            const q = yield* call("POST", "/v1/quote", { token, json: trip })
            expectError(q, 403, "result:account-blocked")
            expect((q.json as Record<string, unknown>).requestId).toBe(q.headers["x-request-id"])
            const me = yield* call("GET", "/v1/customer/me", { token })
            expect((me.json as Record<string, unknown>).status).toBe(status)
            const audit = yield* auditOf(token)
            expect(audit[0]?.requestId).toBe(q.headers["x-request-id"])
            expect(audit[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:account-blocked" })
            expect((yield* call("POST", "/v1/auth/revoke", { token, json: { jti } })).json).toEqual({ revoked: 1 })
          }
        }))

      it.effect("a defect (the account's default behavior no longer exists) → 500 result:internal, audited as result:internal", () =>
        Effect.gen(function*() {
          const { created, token } = yield* signedIn()
          const updated = yield* Effect.orDie((yield* AccountStore).update(created.account.id, (account) => ({
            ...account,
            pricing: { ...account.pricing, defaultBehavior: BehaviorId.make("withdrawn-behavior") }
          })))
          yield* (yield* AccessSnapshot).accountChanged(updated)
          const q = yield* call("POST", "/v1/quote", { token, json: trip })
          expectError(q, 500, "result:internal")
          expect(q.text).not.toContain("withdrawn-behavior")
          const audit = yield* auditOf(token)
          expect(audit[0]?.requestId).toBe(q.headers["x-request-id"])
          expect(audit[0]?.decision).toMatchObject({ outcome: "rejected", code: "result:internal" })
        }))

      // --- 401 rows ------------------------------------------------------------------------

      it.effect("no Authorization header → 401 result:unauthorized with a Bearer realm challenge", () =>
        Effect.gen(function*() {
          for (const [method, path] of [["GET", "/v1/customer/me"], ["POST", "/v1/quote"], ["GET", "/v1/audit/recent"], ["POST", "/v1/auth/revoke"]] as const) {
            const r = yield* call(method, path)
            expectError(r, 401, "result:unauthorized")
            expect(r.headers["www-authenticate"]).toBe("Bearer realm=\"ridequote\"")
          }
        }))

      it.effect("a header that is not a well-formed bearer JWT → 401 result:unauthorized, invalid_token challenge", () =>
        Effect.gen(function*() {
          for (const authorization of ["Bearer", "Bearer abc", "Basic dXNlcjpwYXNz", "Bearer a.b", "Bearer a.b.c.d", "token"]) {
            const r = yield* call("GET", "/v1/customer/me", { headers: { authorization } })
            expectError(r, 401, "result:unauthorized")
            expect(r.headers["www-authenticate"]).toBe("Bearer error=\"invalid_token\"")
          }
        }))

      it.effect("alg none, a bad signature, a wrong issuer or an unknown kid → 401 result:token-invalid", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const claims = claimsOf(token)
          const [h, p, s] = token.split(".")
          const flipped = `${h}.${p}.${(s ?? "").startsWith("A") ? "B" : "A"}${(s ?? "").slice(1)}`
          const candidates = [
            unsignedToken(claims),
            flipped,
            yield* signWithServiceKey({ ...claims, iss: "someone-else" }),
            yield* signWithServiceKey(claims, { kid: "no-such-kid" }),
            yield* signWithServiceKey(claims, { alg: "HS512" })
          ]
          for (const bad of candidates) {
            const r = yield* call("GET", "/v1/customer/me", { token: bad })
            expectError(r, 401, "result:token-invalid")
            expect(r.headers["www-authenticate"]).toBe("Bearer error=\"invalid_token\"")
          }
        }))

      it.effect("a token minted with our key but dated ahead, never expiring or living over 366 days → 401 result:token-invalid", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const claims = claimsOf(token)
          const nowS = Math.floor(Date.now() / 1000)
          const forged = [
            // An hour ahead: would outlive a revoke-all's cutoff.
            { ...claims, jti: randomUUID(), iat: nowS + 3600, exp: nowS + 7200 },
            // Never expires.
            { ...claims, jti: randomUUID(), iat: nowS - 5, exp: Number.MAX_SAFE_INTEGER },
            { ...claims, jti: randomUUID(), iat: nowS - 5, exp: nowS - 5 + 31_622_401 }
          ]
          for (const bad of forged) {
            const r = yield* call("GET", "/v1/customer/me", { token: yield* signWithServiceKey(bad) })
            expectError(r, 401, "result:token-invalid")
          }
        }))

      it.effect("a token past its exp → 401 result:token-expired", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const claims = claimsOf(token)
          const nowS = Math.floor(Date.now() / 1000)
          const expired = yield* signWithServiceKey({ ...claims, jti: randomUUID(), iat: nowS - 7200, exp: nowS - 3600 })
          const r = yield* call("GET", "/v1/customer/me", { token: expired })
          expectError(r, 401, "result:token-expired")
          expect(r.headers["www-authenticate"]).toBe("Bearer error=\"invalid_token\"")
        }))

      // --- routing, 404 / 405, precedence ------------------------------------------------------

      it.effect("unknown path → 404 result:not-found, before authentication", () =>
        Effect.gen(function*() {
          for (const path of ["/v1/nope", "/", "/v2/quote", "/v1/quote/extra"]) {
            expectError(yield* call("GET", path), 404, "result:not-found")
            expectError(yield* call("POST", path, { json: {} }), 404, "result:not-found")
          }
        }))

      it.effect("known path, wrong method → 405 result:method-not-allowed with Allow, before authentication", () =>
        Effect.gen(function*() {
          const cases = [
            ["GET", "/v1/quote", "POST"],
            ["DELETE", "/v1/quote", "POST"],
            ["GET", "/v1/auth/token", "POST"],
            ["PUT", "/v1/auth/revoke", "POST"],
            ["POST", "/v1/customer/me", "GET"],
            ["POST", "/v1/audit/recent", "GET"],
            ["POST", "/health/live", "GET"],
            ["DELETE", "/openapi.json", "GET"]
          ] as const
          for (const [method, path, allow] of cases) {
            const r = yield* call(method, path)
            expectError(r, 405, "result:method-not-allowed")
            expect(r.headers["allow"]).toBe(allow)
          }
          // Even with a secret in the query string, the method comes first.
          expectError(yield* call("GET", "/v1/auth/token?apiSecret=x"), 405, "result:method-not-allowed")
        }))

      it.effect("authentication comes before the body: no token and a bad body → 401, not 400/413/415", () =>
        Effect.gen(function*() {
          expectError(yield* call("POST", "/v1/quote", { body: "{bad", contentType: "application/json" }), 401, "result:unauthorized")
          expectError(yield* call("POST", "/v1/quote", { body: "x=1", contentType: "text/plain" }), 401, "result:unauthorized")
          expectError(
            yield* call("POST", "/v1/quote", { body: "x".repeat(70_000), contentType: "application/json" }),
            401,
            "result:unauthorized"
          )
        }))

      // --- body and query rows ------------------------------------------------------------

      it.effect("malformed JSON, wrong types, out-of-bounds, 30 February, unknown fields → 400 result:invalid-request, audited", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const bodies: ReadonlyArray<string> = [
            "{bad json",
            "",
            "null",
            "[]",
            JSON.stringify({ pickup: "here", destination: trip.destination }),
            JSON.stringify({ ...trip, pickup: { latitude: 91, longitude: 0 } }),
            JSON.stringify({ ...trip, destination: { latitude: 0, longitude: -180.5 } }),
            JSON.stringify({ ...trip, distanceKm: 0, durationMinutes: 10 }),
            JSON.stringify({ ...trip, distanceKm: 1001, durationMinutes: 10 }),
            JSON.stringify({ ...trip, distanceKm: 10, durationMinutes: 1441 }),
            JSON.stringify({ ...trip, distanceKm: "10", durationMinutes: 10 }),
            JSON.stringify({ ...trip, scheduledAt: "2027-02-30T10:00:00Z" }),
            JSON.stringify({ ...trip, scheduledAt: "2027-03-01T10:00:00" }),
            JSON.stringify({ ...trip, scheduledAt: "tomorrow" }),
            JSON.stringify({ ...trip, distance_km: 3 }),
            "{\"pickup\": {\"latitude\": 1e999, \"longitude\": 0}, \"destination\": {\"latitude\": 0, \"longitude\": 0}}"
          ]
          for (const body of bodies) {
            const r = yield* call("POST", "/v1/quote", { token, body, contentType: "application/json" })
            expectError(r, 400, "result:invalid-request")
            expect((r.json as Record<string, unknown>).requestId).toBe(r.headers["x-request-id"])
          }
          const audit = yield* auditOf(token)
          expect(audit.length).toBe(bodies.length)
          for (const entry of audit) expect(entry.decision).toMatchObject({ outcome: "rejected", code: "result:invalid-request" })
        }))

      it.effect("field-level problems come back as details [{path, message}]", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* call("POST", "/v1/quote", {
            token,
            json: { pickup: { latitude: 100, longitude: 0 }, destination: { latitude: 0 }, extra: 1 }
          })
          expectError(r, 400, "result:invalid-request")
          const details = (r.json as { details: ReadonlyArray<{ path: ReadonlyArray<unknown>; message: string }> }).details
          const paths = details.map((d) => d.path.join("."))
          expect(paths).toEqual(expect.arrayContaining(["pickup.latitude", "destination.longitude", "extra"]))
          for (const d of details) expect(d.message).not.toContain("actual")
        }))

      it.effect("a body with a non-JSON content type → 415 result:unsupported-media-type", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/form-data; boundary=x"]) {
            expectError(
              yield* call("POST", "/v1/quote", { token, body: JSON.stringify(trip), contentType }),
              415,
              "result:unsupported-media-type"
            )
            expectError(
              yield* call("POST", "/v1/auth/revoke", { token, body: "{\"all\":true}", contentType }),
              415,
              "result:unsupported-media-type"
            )
          }
          // A JSON body with charset or a +json type is fine.
          const ok = yield* call("POST", "/v1/quote", { token, body: JSON.stringify(trip), contentType: "application/json; charset=utf-8" })
          expect(ok.status, ok.text).toBe(200)
          // Refused quote requests of an authenticated caller are audited too.
          const refused = (yield* auditOf(token)).filter((e) => e.decision.outcome === "rejected")
          expect(refused.map((e) => (e.decision as { code: string }).code)).toEqual(
            Array.from({ length: 4 }, () => "result:unsupported-media-type")
          )
        }))

      it.effect("a body over 64 KiB → 413 result:payload-too-large (declared length and chunked)", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const big = JSON.stringify({ ...trip, padding: "x".repeat(70 * 1024) })
          expectError(yield* call("POST", "/v1/quote", { token, body: big, contentType: "application/json" }), 413, "result:payload-too-large")
          // A stream has no Content-Length: the limit is enforced while reading.
          const r = yield* callChunked("/v1/quote", token, big)
          expectError(r, 413, "result:payload-too-large")
          // Exactly at the limit is not too large (it is a 400: the padding field is unknown).
          const atLimit = JSON.stringify({ ...trip, p: "" })
          const pad = "x".repeat(64 * 1024 - atLimit.length)
          const edge = yield* call("POST", "/v1/quote", { token, body: JSON.stringify({ ...trip, p: pad }), contentType: "application/json" })
          expectError(edge, 400, "result:invalid-request")
          const codes = (yield* auditOf(token)).map((e) => (e.decision as { code?: string }).code)
          expect(codes).toEqual(["result:invalid-request", "result:payload-too-large", "result:payload-too-large"])
        }))

      it.effect("audit query: limit outside 1..500, half a cursor, bad timestamps, unknown parameters → 400", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const queries = [
            "limit=0",
            "limit=501",
            "limit=abc",
            "limit=1.5",
            "limit=-1",
            "limit=1&limit=2",
            `after-id=${randomUUID()}`,
            "after-received-at=2026-01-01T00:00:00.000Z",
            `after-id=nope&after-received-at=2026-01-01T00:00:00.000Z`,
            "from=2026-02-30T00:00:00Z",
            "from=2026-01-01",
            "to=yesterday",
            "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
            "cursor=abc"
          ]
          for (const q of queries) {
            const r = yield* call("GET", `/v1/audit/recent?${q}`, { token })
            expectError(r, 400, "result:invalid-request")
          }
        }))

      it.effect("audit query: half a cursor or from after to → 400 with a detail naming the parameter", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const cases: ReadonlyArray<readonly [string, string, string]> = [
            [`after-id=${randomUUID()}`, "after-received-at", "after-id and after-received-at must be sent together"],
            ["after-received-at=2026-01-01T00:00:00.000Z", "after-id", "after-id and after-received-at must be sent together"],
            ["from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "from", "from must not be after to"]
          ]
          for (const [query, path, message] of cases) {
            const r = yield* call("GET", `/v1/audit/recent?${query}`, { token })
            expectError(r, 400, "result:invalid-request")
            expect((r.json as { details: unknown }).details, query).toEqual([{ path: [path], message }])
          }
          // from equal to to is an empty window, not an error.
          const same = yield* call("GET", "/v1/audit/recent?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", { token })
          expect(same.status, same.text).toBe(200)
        }))

      // --- audit ---------------------------------------------------------------------------

      it.effect("audit pages: newest first, no gaps or duplicates, Link rel=next until the last page", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const ids: Array<string> = []
          for (let i = 0; i < 7; i++) {
            const r = yield* call("POST", "/v1/quote", { token, json: { ...trip, distanceKm: 5 + i, durationMinutes: 10 } })
            expect(r.status).toBe(200)
            ids.push(String((r.json as Record<string, unknown>).requestId))
          }
          const seen: Array<AuditWire> = []
          let url: string | undefined = "/v1/audit/recent?limit=3"
          let pages = 0
          while (url !== undefined) {
            const r: WireResponse = yield* call("GET", url, { token })
            expect(r.status, r.text).toBe(200)
            seen.push(...(r.json as ReadonlyArray<AuditWire>))
            pages++
            const link: string | undefined = r.headers["link"]
            url = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1]
            if (link !== undefined) expect(url).toBeDefined()
          }
          expect(pages).toBe(3)
          const order = [...seen].sort((a, b) =>
            a.receivedAt === b.receivedAt ? (a.requestId < b.requestId ? 1 : -1) : a.receivedAt < b.receivedAt ? 1 : -1
          )
          expect(seen.map((e) => e.requestId)).toEqual(order.map((e) => e.requestId))
          expect(new Set(seen.map((e) => e.requestId))).toEqual(new Set(ids))
          expect(seen.length).toBe(7)
        }))

      it.effect("audit from (inclusive) and to (exclusive) filter on receivedAt; Link keeps them", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          for (let i = 0; i < 5; i++) {
            yield* call("POST", "/v1/quote", { token, json: { ...trip, distanceKm: 5 + i, durationMinutes: 10 } })
            yield* Effect.sleep("3 millis")
          }
          const all = yield* auditOf(token)
          const times = [...new Set(all.map((e) => String(e.receivedAt)))].sort()
          expect(times.length).toBeGreaterThanOrEqual(3)
          const from = times[1] ?? ""
          const to = times[times.length - 1] ?? ""
          const expected = all.filter((e) => e.receivedAt >= from && e.receivedAt < to).map((e) => e.requestId)
          const r = yield* call("GET", `/v1/audit/recent?from=${from}&to=${to}`, { token })
          expect((r.json as ReadonlyArray<Record<string, unknown>>).map((e) => e.requestId)).toEqual(expected)
          const paged = yield* call("GET", `/v1/audit/recent?from=${from}&to=${to}&limit=1`, { token })
          const link = paged.headers["link"] ?? ""
          expect(link).toContain(`from=${encodeURIComponent(from)}`)
          expect(link).toContain(`to=${encodeURIComponent(to)}`)
          expect(link).toContain("after-id=")
        }))

      it.effect("audit is per account: another account sees none of the caller's entries", () =>
        Effect.gen(function*() {
          const a = yield* signedIn()
          const b = yield* signedIn()
          yield* call("POST", "/v1/quote", { token: a.token, json: trip })
          expect((yield* auditOf(a.token)).length).toBe(1)
          expect(yield* auditOf(b.token)).toEqual([])
        }))

      it.effect("X-Request-Id is on every response, and for a quote equals its requestId and its audit entry", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const q = yield* call("POST", "/v1/quote", { token, json: trip })
          expect(q.headers["x-request-id"]).toMatch(UUID)
          expect((q.json as Record<string, unknown>).requestId).toBe(q.headers["x-request-id"])
          const entries = yield* auditOf(token)
          expect(entries[0]?.requestId).toBe(q.headers["x-request-id"])
          const ids = new Set<string>()
          for (const [method, path] of [["GET", "/health/live"], ["GET", "/nope"], ["GET", "/v1/quote"], ["GET", "/openapi.json"], ["GET", "/metrics"], ["GET", "/v1/customer/me"]] as const) {
            const r = yield* call(method, path)
            expect(r.headers["x-request-id"], `${method} ${path}`).toMatch(UUID)
            ids.add(String(r.headers["x-request-id"]))
          }
          expect(ids.size).toBe(6)
        }))

      // --- 503 ---------------------------------------------------------------------------------

      it.effect("storage down → 503 result:unavailable (quote not half-done), ready is 503; all recover", () =>
        Effect.gen(function*() {
          const { created, token } = yield* signedIn()
          const storage = yield* StorageSwitch
          yield* storage.setAvailable(false)
          const attempt = Effect.gen(function*() {
            const q = yield* call("POST", "/v1/quote", { token, json: trip })
            expectError(q, 503, "result:unavailable")
            expectError(yield* call("GET", "/health/ready"), 503, "result:unavailable")
            expectError(yield* call("POST", "/v1/auth/token", { headers: credentialHeaders(created) }), 503, "result:unavailable")
            expectError(yield* call("GET", "/v1/audit/recent", { token }), 503, "result:unavailable")
            return q.headers["x-request-id"]
          })
          const failedId = yield* Effect.ensuring(attempt, storage.setAvailable(true))
          expect((yield* call("GET", "/health/ready")).status).toBe(200)
          // Nothing was recorded for the quote that failed.
          const entries = yield* Effect.orDie((yield* AuditLog).page({ accountId: created.account.id, limit: 10 }))
          expect(entries.entries.map((e) => e.requestId)).not.toContain(failedId)
        }))
    })

    // Markets of their own (Berlin, Paris): a point outside both is not served.
    layer(makeTestApp(makeStorageLayer, undefined, host, undefined, TwoCitiesLive), {
      excludeTestServices: true,
      timeout: "60 seconds"
    })((it) => {
      const LONDON = {
        pickup: { latitude: 51.5072, longitude: -0.1276 },
        destination: { latitude: 51.5155, longitude: -0.0922 }
      }

      it.effect("a place no market serves → 422 result:market-not-served naming the nearest markets, audited", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* call("POST", "/v1/quote", { token, json: LONDON })
          expectError(r, 422, "result:market-not-served")
          const body = r.json as { message: string; nearest: ReadonlyArray<{ id: string; name: string; distanceKm: number }> }
          // Nearest first, whole km: London–Paris's box ~300 km, London–Berlin's ~900 km.
          expect(body.nearest.map((m) => m.id)).toEqual(["paris", "berlin"])
          expect(body.nearest[0]!.distanceKm).toBeGreaterThan(250)
          expect(body.nearest[0]!.distanceKm).toBeLessThan(400)
          expect(body.nearest.every((m) => Number.isInteger(m.distanceKm))).toBe(true)
          expect(body.message).toMatch(/^no market serves \(51\.5072, -0\.1276\); nearest: paris \(\d+ km\), berlin \(\d+ km\)$/)
          const entry = (yield* auditOf(token)).find((e) => e.requestId === (r.json as { requestId: string }).requestId)
          expect(entry?.decision).toMatchObject({ outcome: "rejected", code: "result:market-not-served" })
          // A place a market serves is quoted by it.
          const berlin = yield* call("POST", "/v1/quote", { token, json: trip })
          expect(berlin.status, berlin.text).toBe(200)
          expect(berlin.json).toMatchObject({ market: { id: "berlin", sampleData: false }, currency: "EUR" })
        }))

      it.effect("a destination beyond the pickup market's reach → 422 result:market-not-served, reason and reach named, audited; distance supplied or not", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const tokyo = { latitude: 35.6812, longitude: 139.7671 }
          const r = yield* call("POST", "/v1/quote", {
            token,
            json: { pickup: trip.pickup, destination: tokyo, distanceKm: 6.2, durationMinutes: 21 }
          })
          expectError(r, 422, "result:market-not-served")
          const body = r.json as { message: string; reason: string; reach: { market: string; reachKm: number; distanceKm: number } }
          expect(body.reason).toBe("destination-beyond-reach")
          expect(body.reach.market).toBe("berlin")
          expect(body.reach.reachKm).toBe(150)
          expect(body.reach.distanceKm).toBeGreaterThan(8000)
          expect(body.message).toMatch(/^destination \(35\.6812, 139\.7671\) is [\d,]+ km from market berlin, beyond its reach of 150 km$/)
          const entry = (yield* auditOf(token)).find((e) => e.requestId === (r.json as { requestId: string }).requestId)
          expect(entry?.decision).toMatchObject({ outcome: "rejected", code: "result:market-not-served" })
          // Within reach (Berlin to Dresden, 139 km beyond the box) the supplied figures are priced as sent.
          const dresden = yield* call("POST", "/v1/quote", {
            token,
            json: { pickup: trip.pickup, destination: { latitude: 51.0504, longitude: 13.7373 }, distanceKm: 6.2, durationMinutes: 21 }
          })
          expect(dresden.status, dresden.text).toBe(200)
          expect(dresden.json).toMatchObject({ distanceKm: 6.2, durationMinutes: 21, market: { id: "berlin" } })
        }))

      it.effect("GET /v1/markets → each market's area, currency, time zone and offers with their basis now; ?at= the basis then", () =>
        Effect.gen(function*() {
          const { token } = yield* signedIn()
          const r = yield* call("GET", "/v1/markets", { token })
          expect(r.status, r.text).toBe(200)
          expect(r.headers["content-type"]).toMatch(/^application\/json/)
          const markets = r.json as ReadonlyArray<MarketWire>
          expect(markets.map((m) => m.id)).toEqual(["berlin", "paris"])
          const berlin = markets[0]!
          expect(berlin).toMatchObject({
            name: "Berlin",
            sampleData: false,
            currency: "EUR",
            timeZone: "Europe/Berlin",
            area: { south: 52.3, west: 13, north: 52.7, east: 13.8 },
            airports: [{ iata: "BER", name: "Berlin Brandenburg", latitude: 52.3667, longitude: 13.5033 }],
            reachKm: 150
          })
          // The same keys a quote's marketPrices has, each with what its prices rest on now.
          const quoted = yield* call("POST", "/v1/quote", { token, json: trip })
          expect(berlin.offers.map((o) => o.key).sort()).toEqual(Object.keys((quoted.json as QuoteWire).marketPrices).sort())
          for (const offer of berlin.offers) {
            expect(offer.key).toBe(`${offer.provider}/${offer.serviceLevel}`)
            expect(offer.source.tariff?.name).toBe("Berlin tariff of 2020")
          }
          const then = yield* call("GET", "/v1/markets?at=2019-06-01T00:00:00Z", { token })
          expect(then.status, then.text).toBe(200)
          const before = then.json as ReadonlyArray<MarketWire>
          expect(before[1]?.offers.map((o) => o.source.tariff?.name)).toEqual(before[1]?.offers.map(() => "Paris tariff of 2019"))
        }))

      it.effect("GET /v1/markets: no token → 401; a malformed, zone-less or unknown query parameter → 400", () =>
        Effect.gen(function*() {
          expectError(yield* call("GET", "/v1/markets"), 401, "result:unauthorized")
          const { token } = yield* signedIn()
          for (const query of ["at=yesterday", "at=2019-02-30T00:00:00Z", "at=2019-06-01T00:00:00", "when=2019-06-01T00:00:00Z"]) {
            expectError(yield* call("GET", `/v1/markets?${query}`, { token }), 400, "result:invalid-request")
          }
          expectError(yield* call("POST", "/v1/markets", { token, json: {} }), 405, "result:method-not-allowed")
        }))
    })

    // A tight limit on its own application, so the other tests never meet it.
    layer(makeTestApp(makeStorageLayer, { rateLimit: { requestsPerSecond: 0.01, burst: 2 } }, host), {
      excludeTestServices: true
    })((it) => {
      it.effect("over the per-account rate limit → 429 result:rate-limited with Retry-After ≥ 1; other accounts unaffected", () =>
        Effect.gen(function*() {
          const a = yield* signedIn()
          const b = yield* signedIn()
          expect((yield* call("GET", "/v1/customer/me", { token: a.token })).status).toBe(200)
          expect((yield* call("GET", "/v1/customer/me", { token: a.token })).status).toBe(200)
          const r = yield* call("GET", "/v1/customer/me", { token: a.token })
          expectError(r, 429, "result:rate-limited")
          expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1)
          expect(Number.isInteger(Number(r.headers["retry-after"]))).toBe(true)
          expect((yield* call("GET", "/v1/customer/me", { token: b.token })).status).toBe(200)
        }))
    })
  })
}

interface MarketWire {
  readonly id: string
  readonly name: string
  readonly sampleData: boolean
  readonly currency: string
  readonly timeZone: string
  readonly area: { readonly south: number; readonly west: number; readonly north: number; readonly east: number }
  readonly offers: ReadonlyArray<{
    readonly key: string
    readonly provider: string
    readonly serviceLevel: string
    readonly source: { readonly tariff?: { readonly name: string } } & Record<string, unknown>
  }>
}

/** POST with a streamed (chunked) body: no Content-Length for the server to check first. */
const callChunked = (path: string, token: string, body: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const bytes = new TextEncoder().encode(body)
    const chunks = [bytes.slice(0, 30_000), bytes.slice(30_000, 60_000), bytes.slice(60_000)]
    const request = HttpClientRequest.post(path).pipe(
      HttpClientRequest.bearerToken(token),
      HttpClientRequest.bodyStream(Stream.fromIterable(chunks), { contentType: "application/json" })
    )
    const response = yield* client.execute(request)
    const text = yield* response.text
    const headers: Record<string, string | undefined> = { ...response.headers }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const wire: WireResponse = { status: response.status, headers, text, json }
    return wire
  }).pipe(Effect.scoped, Effect.orDie)

