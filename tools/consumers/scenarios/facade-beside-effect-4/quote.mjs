// The service: its own Effect 4 program, and a first quote through the facade in the same process.
import { Effect } from "effect"
import { createRidequote, isRidequoteError } from "@ridequote/engine"

const own = await Effect.runPromise(Effect.succeed("effect 4 program ran").pipe(Effect.map((s) => s.toUpperCase())))

const ridequote = await createRidequote()
const { apiKey, apiSecret } = await ridequote.accounts.create({ name: "On Effect 4" })
const { token } = await ridequote.tokens.issue(apiKey, apiSecret)
const quote = await ridequote.quote({ token }, {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
})
const audited = (await ridequote.audit.recent({ token })).length
await ridequote.close()

// A storage whose driver is not installed is refused at start, naming the package to install.
const refused = await createRidequote({ storage: { sqlite: "./data/rq.db" } }).then(
  (rq) => rq.close().then(() => undefined),
  (error) => (isRidequoteError(error) ? { code: error.code, message: error.message } : { thrown: String(error) })
)
console.log(JSON.stringify({
  own,
  market: quote.market.id,
  currency: quote.currency,
  standard: quote.recommendations.Standard.map((p) => p.price),
  requestId: quote.requestId,
  audited,
  refused
}))
