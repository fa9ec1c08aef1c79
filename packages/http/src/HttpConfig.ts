/**
 * Settings of the HTTP adapter: the per-account rate limit, the request body limit and the
 * origins allowed to call from a browser (CORS). Hosts pass them to `HttpHostLive` or
 * `NodeHostLive`; the server reads `RIDEQUOTE_RATE_LIMIT` through `rateLimitConfig`.
 */
import { Config, Context, Either, Layer } from "effect"

/** A token bucket per account: its refill rate and size. */
export interface RateLimit {
  /** Sustained requests per second per account; 0 turns rate limiting off. */
  readonly requestsPerSecond: number
  /** Bucket size: how many requests an idle account may send at once. */
  readonly burst: number
}

/** Every setting of the HTTP adapter; `defaultHttpOptions` holds the defaults. */
export interface RidequoteHttpOptions {
  readonly rateLimit: RateLimit
  /** Largest accepted request body, in bytes (64 KiB by default; docs/api.md, "Rate limits and sizes"). */
  readonly maxBodyBytes: number
  /**
   * Origins whose browser pages may call the API (CORS), e.g. `https://app.example.com`; `*`
   * allows any origin. Empty (the default): CORS is off and browsers keep their same-origin
   * rule. See docs/api.md, "CORS".
   */
  readonly corsOrigins: ReadonlyArray<string>
}

/** The default per-account limit: 200 requests/s sustained, bursts of 400 (docs/api.md, "Rate limits and sizes"). */
export const DEFAULT_RATE_LIMIT: RateLimit = { requestsPerSecond: 200, burst: 400 }
/** No rate limit (`RIDEQUOTE_RATE_LIMIT=0`), e.g. behind a gateway that limits already. */
export const RATE_LIMIT_OFF: RateLimit = { requestsPerSecond: 0, burst: 0 }
/** 64 KiB, far above any valid body (a quote request is a few hundred bytes); a larger one is 413, never parsed. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

/** The defaults: 200 requests/s per account, 64 KiB bodies, CORS off. */
export const defaultHttpOptions: RidequoteHttpOptions = {
  rateLimit: DEFAULT_RATE_LIMIT,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  corsOrigins: []
}

/**
 * The HTTP adapter's settings as a service, read by the handlers, the edge and the rate limiter;
 * `RidequoteHttpConfig.layer(options)` provides `defaultHttpOptions` overridden by `options`.
 */
export class RidequoteHttpConfig extends Context.Tag("@ridequote/http/RidequoteHttpConfig")<
  RidequoteHttpConfig,
  RidequoteHttpOptions
>() {
  static readonly layer = (options?: Partial<RidequoteHttpOptions>): Layer.Layer<RidequoteHttpConfig> =>
    Layer.succeed(RidequoteHttpConfig, { ...defaultHttpOptions, ...options })
}

/**
 * A rate limit from a number of requests per second, with the default burst of twice the
 * rate (200/s → bursts of 400). 0 (or less) turns the limit off.
 */
export const rateLimitPerSecond = (requestsPerSecond: number): RateLimit =>
  requestsPerSecond > 0 && Number.isFinite(requestsPerSecond)
    ? { requestsPerSecond, burst: Math.max(1, Math.ceil(requestsPerSecond * 2)) }
    : RATE_LIMIT_OFF

/** `RIDEQUOTE_RATE_LIMIT` (requests per second per account, 0 = off; default 200). */
export const rateLimitConfig: Config.Config<RateLimit> = Config.number("RIDEQUOTE_RATE_LIMIT").pipe(
  Config.validate({ message: "RIDEQUOTE_RATE_LIMIT must be a number ≥ 0", validation: (n) => n >= 0 && Number.isFinite(n) }),
  Config.withDefault(DEFAULT_RATE_LIMIT.requestsPerSecond),
  Config.map(rateLimitPerSecond)
)

/**
 * An allowed CORS origin as browsers send it in `Origin`: `scheme://host[:port]` with an
 * http or https scheme and nothing after the host (`https://app.example.com`), normalized
 * (lower-case host, default port dropped); or `*` for any origin.
 */
export const parseCorsOrigin = (text: string): Either.Either<string, string> => {
  const trimmed = text.trim()
  if (trimmed === "*") return Either.right("*")
  const problem = `${JSON.stringify(text)} is not an origin (scheme://host[:port], e.g. https://app.example.com)`
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return Either.left(problem)
  }
  const bare = url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && url.password === ""
  return (url.protocol === "http:" || url.protocol === "https:") && bare ? Either.right(url.origin) : Either.left(problem)
}
