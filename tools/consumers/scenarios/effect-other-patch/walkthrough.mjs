// The embed walkthrough through the Effect API: account, token, verify, quote, audit.
import { Accounts, AuditLog, Quotes, RandomnessLive, RequestId, Tokens } from "@ridequote/core"
import { makeInMemoryEngineLive } from "@ridequote/core/testing"
import { OfflineRouteResolverLive } from "@ridequote/routes"
import { DateTime, Effect, Schema } from "effect"

const program = Effect.gen(function*() {
  const created = yield* (yield* Accounts).create({ name: "Patch" })
  const tokens = yield* Tokens
  const token = yield* tokens.issue(created.apiKey, created.apiSecret)
  const caller = yield* tokens.verify(token.token)
  const quote = yield* (yield* Quotes).quote(
    caller.account,
    { pickup: { latitude: 40.758, longitude: -73.9855 }, destination: { latitude: 40.6413, longitude: -73.7781 } },
    { requestId: Schema.decodeSync(RequestId)(crypto.randomUUID()), receivedAt: yield* DateTime.now }
  )
  const page = yield* (yield* AuditLog).page({ accountId: caller.account.id, limit: 10 })
  return { providers: Object.keys(quote.marketPrices).length, audited: page.entries.length }
}).pipe(Effect.provide(makeInMemoryEngineLive({ routeResolver: OfflineRouteResolverLive })))

const result = await Effect.runPromise(program)
console.log(JSON.stringify(result))
