/**
 * Cross-origin requests from browsers (CORS), off unless origins are configured
 * (`corsOrigins` of `RidequoteHttpConfig`; `ridequote serve --cors-origin`).
 *
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin, to a
 *   path the API serves, is answered 204 with the methods served there, the request headers
 *   the API reads, and a max age.
 * - Every other answer to an allowed origin — successes and error bodies alike — carries
 *   `Access-Control-Allow-Origin` (the origin itself) and exposes the headers a script needs
 *   to read: `X-Request-Id`, `Retry-After` (the rate limit), `Link` (audit pages) and
 *   `WWW-Authenticate`.
 * - A disallowed origin gets no CORS header at all (its preflight is the 405 any OPTIONS gets),
 *   so the browser refuses to hand the answer to the page.
 * - While CORS is on, every answer carries `Vary: Origin`: it depends on the request's origin,
 *   and a cache must not give one origin's answer to another.
 *
 * Credentials mode is not enabled: the API authenticates with headers (bearer token, API
 * key), never with cookies, so pages send them explicitly.
 *
 * Everything is computed once, when the policy is made: per request it is one map lookup.
 */
import { parseCorsOrigin } from "../HttpConfig.js"
import { Either } from "effect"

/** Request headers the API reads; a preflight allows exactly these. */
const ALLOWED_REQUEST_HEADERS = "Authorization, Content-Type, X-API-KEY, X-API-SECRET, X-Request-Id"

/** Response headers a page's script may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = "X-Request-Id, Retry-After, Link, WWW-Authenticate"

/** How long (seconds) a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600

export type CorsHeaders = Readonly<Record<string, string>>

export interface CorsPolicy {
  /** Headers of any answer to a request with this `Origin` header (only `Vary` when the origin is not allowed). */
  readonly responseHeaders: (origin: string | undefined) => CorsHeaders
  /**
   * Headers of the 204 answer to a preflight from `origin` for a path served with `methods`;
   * undefined when the origin is not allowed (the request is then answered as any OPTIONS is).
   */
  readonly preflightHeaders: (origin: string | undefined, methods: ReadonlyArray<string>) => CorsHeaders | undefined
}

const VARY_ONLY: CorsHeaders = { vary: "Origin" }

/**
 * The policy for these origins (`*`: any origin), or undefined when the list is empty: CORS is
 * off and hosts do no work for it. Throws for an entry that is not an origin (hosts check
 * their settings before, see `parseCorsOrigin`).
 */
export const makeCorsPolicy = (origins: ReadonlyArray<string>): CorsPolicy | undefined => {
  if (origins.length === 0) return undefined
  const allowed = new Set<string>()
  for (const origin of origins) {
    const parsed = parseCorsOrigin(origin)
    if (Either.isLeft(parsed)) throw new Error(`corsOrigins: ${parsed.left}`)
    allowed.add(parsed.right)
  }
  const anyOrigin = allowed.has("*")
  const cache = new Map<string, CorsHeaders>()
  const forOrigin = (origin: string): CorsHeaders => {
    let headers = cache.get(origin)
    if (headers === undefined) {
      headers = {
        "access-control-allow-origin": origin,
        "access-control-expose-headers": EXPOSED_HEADERS,
        vary: "Origin"
      }
      // With `*`, any origin may come: keep the cache to the configured ones.
      if (!anyOrigin || allowed.has(origin)) cache.set(origin, headers)
    }
    return headers
  }
  const isAllowed = (origin: string | undefined): origin is string =>
    origin !== undefined && (allowed.has(origin) || (anyOrigin && origin !== "null" && origin !== ""))
  return {
    responseHeaders: (origin) => (isAllowed(origin) ? forOrigin(origin) : VARY_ONLY),
    preflightHeaders: (origin, methods) =>
      isAllowed(origin)
        ? {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": methods.join(", "),
          "access-control-allow-headers": ALLOWED_REQUEST_HEADERS,
          "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
          vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
        }
        : undefined
  }
}

/** `Vary` values merged: the response's own (e.g. `accept-encoding` on /docs) and CORS's. */
export const mergeVary = (existing: string | undefined, added: string): string =>
  existing === undefined || existing.trim() === "" ? added : `${existing}, ${added}`
