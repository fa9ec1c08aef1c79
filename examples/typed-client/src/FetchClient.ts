/**
 * A client generated from the served OpenAPI document: `openapi-typescript` wrote
 * `generated/ridequote.ts` from /openapi.json, and `openapi-fetch` types every call with it
 * (paths, parameters, bodies, and each status's response). This is what a client that does
 * not use Effect, or is written without access to ridequote's sources, does.
 */
import createClient from "openapi-fetch"
import type { Connection } from "./credentials.js"
import { EXAMPLE_RIDE } from "./credentials.js"
import type { components, paths } from "./generated/ridequote.js"

export type AuditEntry = components["schemas"]["AuditEntry"]
type AuditQuery = NonNullable<paths["/v1/audit/recent"]["get"]["parameters"]["query"]>

/** Thrown for any answer other than the documented success; carries the JSON error body. */
export class RidequoteError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`ridequote answered ${status}: ${JSON.stringify(body)}`)
  }
}

const succeeded = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
  if (result.data === undefined) throw new RidequoteError(result.response.status, result.error)
  return result.data
}

/** The `rel="next"` target of a Link header, if any. */
export const nextLink = (link: string | null): string | undefined =>
  link?.split(",").map((part) => /<([^>]*)>\s*;\s*rel="?next"?/.exec(part)?.[1]).find((url) => url !== undefined)

/** POST /v1/auth/token with the key and secret headers. */
export const issueToken = async (connection: Connection) => {
  const client = createClient<paths>({ baseUrl: connection.baseUrl })
  return succeeded(
    await client.POST("/v1/auth/token", {
      params: { header: { "x-api-key": connection.apiKey, "x-api-secret": connection.apiSecret } }
    })
  )
}

/**
 * The caller's audit in pages, following the `Link: <…>; rel="next"` header the server sends
 * while more entries exist (the same filters plus the cursor).
 */
export const auditPages = async (baseUrl: string, token: string, pageSize: number) => {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } })
  const pages: Array<ReadonlyArray<AuditEntry>> = []
  const first = await client.GET("/v1/audit/recent", { params: { query: { limit: String(pageSize) } } })
  pages.push(succeeded(first))
  let next = nextLink(first.response.headers.get("link"))
  while (next !== undefined) {
    const url = new URL(next, baseUrl)
    // The next page is the same operation with the query the server chose: pass it through typed.
    const query = Object.fromEntries(url.searchParams) as AuditQuery
    const page = await client.GET("/v1/audit/recent", { params: { query } })
    pages.push(succeeded(page))
    next = nextLink(page.response.headers.get("link"))
  }
  return pages
}

/** A whole session: a token, `quotes` quotes of the sample ride, the markets served, then the audit in pages. */
export const fetchClientSession = async (connection: Connection, options: { quotes: number; pageSize: number }) => {
  const issued = await issueToken(connection)
  const client = createClient<paths>({ baseUrl: connection.baseUrl, headers: { authorization: `Bearer ${issued.token}` } })
  const quotes = []
  for (let i = 0; i < options.quotes; i++) quotes.push(succeeded(await client.POST("/v1/quote", { body: EXAMPLE_RIDE })))
  const me = succeeded(await client.GET("/v1/customer/me"))
  const markets = succeeded(await client.GET("/v1/markets"))
  const pages = await auditPages(connection.baseUrl, issued.token, options.pageSize)
  return { issued, me, quotes, markets, pages }
}
