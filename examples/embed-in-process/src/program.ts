/**
 * ridequote embedded in-process: no database, no HTTP. The program an embedding service would
 * run, step by step: create an account, exchange its credentials for a token, verify the token
 * the way a host would on each call, price a ride, and read the audit back.
 */
import { Accounts, AuditLog, Quotes, RequestId, Tokens, type QuoteRequest, type QuoteResponse } from "@ridequote/core"
import type { AuditEntry, IssuedToken } from "@ridequote/core"
import { DateTime, Effect, Schema } from "effect"
import { Randomness } from "@ridequote/core"

export interface Walkthrough {
  readonly accountId: string
  readonly token: IssuedToken
  readonly quote: QuoteResponse
  readonly audit: ReadonlyArray<AuditEntry>
}

/** Times Square to JFK, route inferred from the coordinates. */
export const sampleRequest: QuoteRequest = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
}

export const walkthrough = Effect.gen(function*() {
  const accounts = yield* Accounts
  const tokens = yield* Tokens
  const quotes = yield* Quotes
  const audit = yield* AuditLog
  const random = yield* Randomness

  // 1. An operator creates an account; the secret is shown once and only its hash is kept.
  const created = yield* accounts.create({ name: "Acme Rides" })

  // 2. The caller exchanges key and secret for a short-lived HS256 JWT.
  const token = yield* tokens.issue(created.apiKey, created.apiSecret)

  // 3. On each call the host verifies the bearer token: signature, expiry, revocation, account.
  const caller = yield* tokens.verify(token.token)

  // 4. A quote; the host assigns the request id and the time it received the request.
  const requestId = Schema.decodeSync(RequestId)(yield* random.uuidV4)
  const quote = yield* quotes.quote(caller.account, sampleRequest, { requestId, receivedAt: yield* DateTime.now })

  // 5. Every quote is in the audit, newest first.
  const page = yield* audit.page({ accountId: caller.account.id, limit: 10 })

  return { accountId: created.account.id, token, quote, audit: page.entries } satisfies Walkthrough
})
