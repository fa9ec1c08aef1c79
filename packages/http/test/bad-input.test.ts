/**
 * Property: whatever malformed input arrives — random JSON, wrong types, huge numbers, NaN
 * strings, deep nesting, invalid UTF-8, wrong content types, junk Authorization headers,
 * junk query strings — the answer is a 4xx with a JSON `{code, message}` whose code is in the
 * contract's table; never a 5xx, and never an echo of the caller's secret or token.
 */
import { describe, expect, layer } from "@effect/vitest"
import { ErrorCode } from "@ridequote/core"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, FastCheck as fc, Layer, Redacted, Schema } from "effect"
import { call, credentialHeaders, makeTestApp, newAccount, issueToken } from "./harness.js"
import type { CallOptions, WireResponse } from "./harness.js"

const CASES = 2500
const SEED = Number(process.env["BAD_INPUT_SEED"] ?? 20261122)

const App = makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), {
  rateLimit: { requestsPerSecond: 0, burst: 0 }
})

const isErrorCode = Schema.is(ErrorCode)

type Method = "GET" | "POST"
interface Case {
  readonly label: string
  readonly method: Method
  readonly url: string
  readonly options: (secrets: Secrets) => CallOptions
}
interface Secrets {
  readonly secret: string
  readonly apiKey: string
  readonly token: string
}

const enc = new TextEncoder()

// --- bodies -------------------------------------------------------------------------------

const wrongType = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constantFrom("NaN", "Infinity", "-Infinity", "1e999", "")
)

/** A quote body that cannot be valid: at least one field has a wrong type. */
const wrongTypedQuote = fc.record({
  pickup: wrongType,
  destination: fc.oneof(wrongType, fc.constant({ latitude: 1, longitude: 2 })),
  distanceKm: fc.oneof(wrongType, fc.double()),
  durationMinutes: fc.oneof(wrongType, fc.double()),
  scheduledAt: fc.oneof(wrongType, fc.constantFrom("2026-02-30T10:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01"))
}, { requiredKeys: ["pickup"] }).map((v) => JSON.stringify(v))

const hugeNumberQuote = fc.constantFrom("1e400", "-1e400", "123456789012345678901234567890", "9e307", "-91", "180.0001")
  .map((n) => `{"pickup":{"latitude":${n},"longitude":${n}},"destination":{"latitude":0,"longitude":0}}`)

const deepNesting = fc.integer({ min: 1, max: 20_000 }).chain((depth) =>
  fc.constantFrom(
    "[".repeat(depth) + "]".repeat(depth),
    "{\"pickup\":".repeat(Math.min(depth, 6000)) + "1" + "}".repeat(Math.min(depth, 6000)),
    "[".repeat(depth)
  )
)

const invalidUtf8 = fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(0xff, 0xc0, 0xfe, 0x80, 0xed)).map(
  ([junk, bad]) => {
    const head = enc.encode("{\"pickup\":\"")
    const tail = enc.encode("\"}")
    const out = new Uint8Array(head.length + junk.length + 1 + tail.length)
    out.set(head, 0)
    out.set(junk, head.length)
    out[head.length + junk.length] = bad
    out.set(tail, head.length + junk.length + 1)
    return out
  }
)

/** Random JSON that is never a valid revoke body (no jti/all keys) nor a quote (no pickup). */
const randomJson = fc.jsonValue({ maxDepth: 4 }).filter((v) =>
  !(typeof v === "object" && v !== null && !Array.isArray(v) && ("all" in v || "jti" in v || "pickup" in v))
).map((v) => JSON.stringify(v))

const rawText = fc.oneof(fc.string({ maxLength: 200 }), fc.fullUnicodeString({ maxLength: 100 }))

const jsonContentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "application/problem+json")
const wrongContentType = fc.constantFrom(
  "text/plain",
  "text/html",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=abc",
  "application/octet-stream",
  "image/png",
  "jsonp"
)

/** Where the caller's secret ends up in a body (it must never come back). */
const withSecret = fc.constantFrom("value", "key", "none")

const bodyCase = (path: "/v1/quote" | "/v1/auth/revoke"): fc.Arbitrary<Case> =>
  fc.oneof(
    fc.tuple(fc.oneof(randomJson, wrongTypedQuote, hugeNumberQuote, deepNesting, rawText), jsonContentType, withSecret).map(
      ([body, contentType, placement]): Case => ({
        label: `${path} body`,
        method: "POST",
        url: path,
        options: (s) => ({
          token: s.token,
          contentType,
          body: placement === "value"
            ? `{"pickup": "${s.secret}", "extra": ${JSON.stringify(body)}}`
            : placement === "key"
            ? `{"${s.secret}": ${JSON.stringify(body)}}`
            : body
        })
      })
    ),
    invalidUtf8.map((bytes): Case => ({
      label: `${path} invalid utf-8`,
      method: "POST",
      url: path,
      options: (s) => ({ token: s.token, body: bytes, contentType: "application/json" })
    })),
    fc.tuple(fc.oneof(randomJson, rawText), wrongContentType).map(([body, contentType]): Case => ({
      label: `${path} content type`,
      method: "POST",
      url: path,
      options: (s) => ({ token: s.token, body, contentType })
    }))
  )

// --- headers and query strings -----------------------------------------------------------

const tokenish = fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/), { minLength: 1, maxLength: 5 }).map((parts) => parts.join("."))

/** The real token with one character changed (never the last of a segment, whose low bits may be padding). */
const mangle = (token: string, at: number, replacement: string): string => {
  const i = at % Math.max(1, token.length - 1)
  const segmentEnd = token[i + 1] === "." || i === token.length - 1
  const j = segmentEnd ? Math.max(0, i - 1) : i
  const c = token[j] === replacement ? (replacement === "A" ? "B" : "A") : replacement
  return token.slice(0, j) + c + token.slice(j + 1)
}

const authorizationCase: fc.Arbitrary<Case> = fc.tuple(
  fc.oneof(
    fc.string({ maxLength: 120 }).map((v) => () => v),
    tokenish.map((t) => () => `Bearer ${t}`),
    fc.constant((s: Secrets) => `Bearer ${s.secret}`),
    fc.constant((s: Secrets) => `Basic ${Buffer.from(`${s.apiKey}:${s.secret}`).toString("base64")}`),
    fc.tuple(fc.nat(), fc.constantFrom("A", "z", "-", "_", "0")).map(([at, r]) => (s: Secrets) => `Bearer ${mangle(s.token, at, r)}`),
    fc.nat().map((n) => (s: Secrets) => `Bearer ${s.token.slice(0, n % s.token.length)}`),
    fc.string({ minLength: 1, maxLength: 5 }).map((x) => (s: Secrets) => `Bearer ${s.token}${x.replace(/\s/g, "x")}`)
  ),
  fc.constantFrom("/v1/customer/me", "/v1/audit/recent", "/v1/quote", "/v1/auth/revoke")
).map(([authorization, url]): Case => ({
  label: `authorization on ${url}`,
  method: url === "/v1/quote" || url === "/v1/auth/revoke" ? "POST" : "GET",
  url,
  options: (s) => ({ headers: { authorization: authorization(s) } })
}))

const KNOWN_QUERY = ["limit", "from", "to", "after-id", "after-received-at"]
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("0", "501", "-1", "1.5", "1e2", "NaN", "2026-02-30T00:00:00Z", "2026-01-01", "yesterday", "")
)
const auditQueryCase: fc.Arbitrary<Case> = fc.tuple(
  fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_QUERY), fc.string({ maxLength: 12 })), queryValue), { maxLength: 4 }),
  // One pair that is always wrong: an unknown name, or a known name with a malformed value.
  fc.oneof(
    fc.string({ maxLength: 12 }).map((k) => [`q_${k}`, "1"] as const),
    fc.constantFrom(["limit", "0"] as const, ["limit", "abc"] as const, ["from", "2026-02-30T00:00:00Z"] as const, ["after-id", "x"] as const)
  ),
  fc.boolean()
).map(([pairs, bad, secretInQuery]): Case => ({
  label: "audit query",
  method: "GET",
  url: `/v1/audit/recent?${[...pairs, bad, ...(secretInQuery ? [["api_secret", "SECRET"] as const] : [])]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&")}`,
  options: (s) => ({ token: s.token })
}))

const tokenIssueCase: fc.Arbitrary<Case> = fc.tuple(
  fc.option(fc.string({ maxLength: 60 }), { nil: undefined }),
  fc.option(fc.string({ maxLength: 60 }), { nil: undefined }),
  fc.constantFrom("", "?apiSecret=SECRET", "?API_SECRET=SECRET", "?x-api-secret=SECRET", "?foo=bar"),
  fc.boolean()
).map(([key, secret, query, useRealKey]): Case => ({
  label: "token issue",
  method: "POST",
  url: `/v1/auth/token${query}`,
  options: (s) => ({
    headers: {
      ...(useRealKey ? { "x-api-key": s.apiKey } : key !== undefined ? { "x-api-key": key } : {}),
      ...(secret !== undefined ? { "x-api-secret": secret } : {})
    }
  })
}))

const anyCase: fc.Arbitrary<Case> = fc.oneof(
  { arbitrary: bodyCase("/v1/quote"), weight: 4 },
  { arbitrary: bodyCase("/v1/auth/revoke"), weight: 2 },
  { arbitrary: authorizationCase, weight: 3 },
  { arbitrary: auditQueryCase, weight: 2 },
  { arbitrary: tokenIssueCase, weight: 2 }
)

const problemWith = (r: WireResponse, s: Secrets): string | undefined => {
  if (r.status < 400 || r.status > 499) return `status ${r.status}`
  if (!/^application\/json/.test(r.headers["content-type"] ?? "")) return `content type ${r.headers["content-type"]}`
  const body = r.json
  if (typeof body !== "object" || body === null) return "body is not a JSON object"
  if (!("code" in body) || !isErrorCode(body.code)) return "code not in the contract's table"
  if (!("message" in body) || typeof body.message !== "string") return "no message"
  if (r.text.includes(s.secret)) return "the secret came back"
  if (r.text.includes(s.token)) return "the token came back"
  return undefined
}

describe("bad input", () => {
  layer(App, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    it.effect(`${CASES} generated malformed requests → 4xx {code, message} from the table; never 5xx, never the secret or token`, () =>
      Effect.gen(function*() {
        const created = yield* newAccount()
        const issued = yield* issueToken(created)
        const secrets: Secrets = {
          secret: Redacted.value(created.apiSecret),
          apiKey: created.apiKey,
          token: issued.token
        }
        expect(credentialHeaders(created)["x-api-secret"]).toBe(secrets.secret)
        const cases = fc.sample(anyCase, { numRuns: CASES, seed: SEED })
        const failures: Array<string> = []
        const seen = new Map<string, number>()
        for (const c of cases) {
          const options = c.options(secrets)
          const url = c.url.replace("SECRET", encodeURIComponent(secrets.secret))
          const r = yield* call(c.method, url, options)
          seen.set(String(r.status), (seen.get(String(r.status)) ?? 0) + 1)
          const problem = problemWith(r, secrets)
          if (problem !== undefined && failures.length < 10) {
            failures.push(`${c.label} ${c.method} ${url.slice(0, 120)}: ${problem}: ${r.text.slice(0, 200)}`)
          }
        }
        expect(failures, `seed ${SEED}`).toEqual([])
        // The generators reach every kind of refusal, not just one.
        expect([...seen.keys()].sort()).toEqual(expect.arrayContaining(["400", "401", "415"]))
      }))
  })
})
