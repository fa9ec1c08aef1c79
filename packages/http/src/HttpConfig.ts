/**
 * Settings of the HTTP adapter: the per-account rate limit and the request body limit.
 * Hosts pass them to `HttpHostLive`; the server reads `RIDEQUOTE_RATE_LIMIT` through
 * `rateLimitConfig`.
 */
import { Config, Context, Layer } from "effect"

export interface RateLimit {
  /** Sustained requests per second per account; 0 turns rate limiting off. */
  readonly requestsPerSecond: number
  /** Bucket size: how many requests an idle account may send at once. */
  readonly burst: number
}

export interface RidequoteHttpOptions {
  readonly rateLimit: RateLimit
  /** Largest accepted request body, in bytes (contract §1: 64 KiB). */
  readonly maxBodyBytes: number
}

export const DEFAULT_RATE_LIMIT: RateLimit = { requestsPerSecond: 200, burst: 400 }
export const RATE_LIMIT_OFF: RateLimit = { requestsPerSecond: 0, burst: 0 }
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

export const defaultHttpOptions: RidequoteHttpOptions = {
  rateLimit: DEFAULT_RATE_LIMIT,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES
}

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
