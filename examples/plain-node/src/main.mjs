// ridequote in a plain Node service: no Effect, no TypeScript, no database.
// Run: node src/main.mjs   (inside the repository: pnpm --filter @ridequote/example-plain-node start)
//
// createRidequote starts the engine in this process (in memory here; { sqlite: "./data/ridequote.db" }
// or { postgres: "postgres://…" } keep it in a database) with the markets shipped in
// @ridequote/markets and the offline route resolver. Every method returns a Promise; every
// refusal is a RidequoteError whose `body` is the HTTP API's error body ({ code, message, … }).
import { createRidequote, isRidequoteError } from "@ridequote/engine"

const ridequote = await createRidequote({ storage: "memory" })

try {
  // 1. An operator creates an account. The secret is in this answer only: only its hash is kept.
  const { account, apiKey, apiSecret } = await ridequote.accounts.create({ name: "Acme Rides" })
  console.log(JSON.stringify({ step: "account", id: account.id, status: account.status }))

  // 2. The account exchanges its key and secret for a token (an HS256 JWT, 24 h by default).
  const { token, jti, expiresAt } = await ridequote.tokens.issue(apiKey, apiSecret)
  console.log(JSON.stringify({ step: "token", jti, expiresAt }))

  // 3. A quote for the token's account: Times Square to JFK, distance and duration inferred.
  const quote = await ridequote.quote({ token }, {
    pickup: { latitude: 40.758, longitude: -73.9855 },
    destination: { latitude: 40.6413, longitude: -73.7781 }
  })
  console.log(JSON.stringify({
    step: "quote",
    requestId: quote.requestId,
    mode: quote.mode,
    currency: quote.currency,
    distanceKm: quote.distanceKm,
    durationMinutes: quote.durationMinutes,
    standard: quote.recommendations.Standard
  }))

  // 4. A refused request is an error with the contract's code, and is audited too.
  try {
    await ridequote.quote({ token }, { pickup: { latitude: 95, longitude: 0 }, destination: { latitude: 0, longitude: 0 } })
  } catch (error) {
    if (!isRidequoteError(error)) throw error
    console.log(JSON.stringify({ step: "refused", ...error.body }))
  }

  // 5. The audit, newest first: the refusal, then the quote.
  const entries = await ridequote.audit.recent({ token }, { limit: 10 })
  console.log(JSON.stringify({
    step: "audit",
    entries: entries.map((entry) => ({ requestId: entry.requestId, outcome: entry.decision.outcome }))
  }))
} finally {
  // Waits for calls in flight and flushes the audit before the storage closes.
  await ridequote.close()
}
