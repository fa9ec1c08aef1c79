/**
 * A client derived from the API definition itself: `HttpApiClient.make(RidequoteApi)` gives
 * one typed method per endpoint, decodes successes into core's types and failures into the
 * same error classes the server fails with (so `Effect.catchTag("InvalidCredentials", …)`
 * works on the client). No code generation: the types come from the `@ridequote/http` import.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { AuditEntry } from "@ridequote/core"
import { RidequoteApi } from "@ridequote/http"
import { Effect, Redacted } from "effect"
import type { Connection } from "./credentials.js"
import { EXAMPLE_RIDE } from "./credentials.js"

/** The client for calls made with a bearer token. */
const withToken = (baseUrl: string, token: string) =>
  HttpApiClient.make(RidequoteApi, {
    baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
  })

/** POST /v1/auth/token: the key and secret travel in headers, never in a body or a URL. */
export const issueToken = (connection: Connection) =>
  Effect.gen(function*() {
    const client = yield* HttpApiClient.make(RidequoteApi, { baseUrl: connection.baseUrl })
    return yield* client.auth.issueToken({
      headers: { "x-api-key": connection.apiKey, "x-api-secret": Redacted.make(connection.apiSecret) }
    })
  })

/**
 * The caller's audit, newest first, as the pages it was read in (`pageSize` entries each).
 * The next page's cursor is the previous page's last entry (its `receivedAt` and
 * `requestId`); a page shorter than `pageSize` is the last.
 */
export const auditPages = (baseUrl: string, token: string, pageSize: number) =>
  Effect.gen(function*() {
    const client = yield* withToken(baseUrl, token)
    const pages: Array<ReadonlyArray<AuditEntry>> = []
    let after: AuditEntry | undefined
    for (;;) {
      const page = yield* client.audit.recent({
        urlParams: after === undefined
          ? { limit: pageSize }
          : { limit: pageSize, "after-received-at": after.receivedAt, "after-id": after.requestId }
      })
      pages.push(page)
      after = page[page.length - 1]
      if (page.length < pageSize || after === undefined) return pages
    }
  })

/** A whole session: a token, `quotes` quotes of the sample ride, the markets served, then the audit in pages. */
export const effectClientSession = (connection: Connection, options: { quotes: number; pageSize: number }) =>
  Effect.gen(function*() {
    const issued = yield* issueToken(connection)
    const client = yield* withToken(connection.baseUrl, issued.token)
    const quotes = yield* Effect.forEach(
      Array.from({ length: options.quotes }),
      () => client.quotes.quote({ payload: EXAMPLE_RIDE })
    )
    const me = yield* client.customer.me()
    const markets = yield* client.markets.list({ urlParams: {} })
    const pages = yield* auditPages(connection.baseUrl, issued.token, options.pageSize)
    return { issued, me, quotes, markets, pages }
  }).pipe(
    // Fetch: the same client runs in browsers, Deno and Bun as well as Node.
    Effect.provide(FetchHttpClient.layer)
  )
