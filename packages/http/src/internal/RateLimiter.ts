/**
 * Per-account token buckets (200 requests/s with bursts of 400 by default, per
 * account and per instance). Time comes from `Clock`, so tests drive it with `TestClock`.
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { AccountId } from "@ridequote/core"
import { RateLimited } from "../HttpErrors.js"
import { RidequoteHttpConfig } from "../HttpConfig.js"
import type { RateLimit } from "../HttpConfig.js"

/**
 * The per-account request rate limit, applied after authentication: one token bucket per
 * account, in this process's memory (each instance limits on its own).
 */
export interface AccountRateLimiter {
  /** Takes one request from the account's bucket, or fails with how long until one is back. */
  readonly take: (accountId: AccountId) => Effect.Effect<void, RateLimited>
  /** False when the limit is off (`--rate-limit 0`): `take` always succeeds, callers may skip it. */
  readonly limits: boolean
}

export const AccountRateLimiter = Context.GenericTag<AccountRateLimiter>("@ridequote/http/AccountRateLimiter")

interface Bucket {
  tokens: number
  atMs: number
}

/** Past this many accounts, buckets that have refilled completely are dropped (they equal a new one). */
const PRUNE_THRESHOLD = 10_000

export const makeAccountRateLimiter = (limit: RateLimit): AccountRateLimiter => {
  if (limit.requestsPerSecond <= 0) return { take: () => Effect.void, limits: false }
  const perMs = limit.requestsPerSecond / 1000
  const burst = Math.max(1, limit.burst)
  const buckets = new Map<AccountId, Bucket>()

  const refill = (b: Bucket, nowMs: number): void => {
    b.tokens = Math.min(burst, b.tokens + Math.max(0, nowMs - b.atMs) * perMs)
    b.atMs = Math.max(b.atMs, nowMs)
  }

  const prune = (nowMs: number): void => {
    for (const [id, b] of buckets) {
      refill(b, nowMs)
      if (b.tokens >= burst) buckets.delete(id)
    }
  }

  return {
    limits: true,
    take: (accountId) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
        let b = buckets.get(accountId)
        if (b === undefined) {
          if (buckets.size >= PRUNE_THRESHOLD) prune(nowMs)
          b = { tokens: burst, atMs: nowMs }
          buckets.set(accountId, b)
        } else {
          refill(b, nowMs)
        }
        if (b.tokens >= 1) {
          b.tokens -= 1
          return Effect.void
        }
        const retryAfterSeconds = Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000))
        return Effect.fail(
          new RateLimited({
            message: `rate limit of ${limit.requestsPerSecond} requests/s exceeded; retry after ${retryAfterSeconds} s`,
            retryAfterSeconds
          })
        )
      })
  }
}

/** `AccountRateLimiter` with the buckets of `RidequoteHttpConfig`'s `rateLimit`. */
export const AccountRateLimiterLive: Layer.Layer<AccountRateLimiter, never, RidequoteHttpConfig> = Layer.effect(
  AccountRateLimiter,
  Effect.map(RidequoteHttpConfig, (config) => makeAccountRateLimiter(config.rateLimit))
)
