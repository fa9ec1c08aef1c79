// An in-memory engine's whole walkthrough, for the import test: account, token, quote, audit.
import { createRidequote } from "@ridequote/engine"

const ridequote = await createRidequote()
const { apiKey, apiSecret } = await ridequote.accounts.create({ name: "Imports" })
const { token } = await ridequote.tokens.issue(apiKey, apiSecret)
await ridequote.quote({ token }, { pickup: { latitude: 40.758, longitude: -73.9855 }, destination: { latitude: 40.6413, longitude: -73.7781 } })
const entries = await ridequote.audit.recent({ token })
await ridequote.close()
console.log(JSON.stringify({ audited: entries.length }))
