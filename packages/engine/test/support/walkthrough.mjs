// The engine's whole walkthrough, for the import test: account, token, quote, audit. In memory,
// or on a SQLite file in RQ_TMP when RQ_STORAGE=sqlite.
import { createRidequote } from "@ridequote/engine"

const options = process.env.RQ_STORAGE === "sqlite" ? { storage: { sqlite: `${process.env.RQ_TMP}/imports.db` } } : {}
const ridequote = await createRidequote(options)
const { apiKey, apiSecret } = await ridequote.accounts.create({ name: "Imports" })
const { token } = await ridequote.tokens.issue(apiKey, apiSecret)
await ridequote.quote({ token }, { pickup: { latitude: 40.758, longitude: -73.9855 }, destination: { latitude: 40.6413, longitude: -73.7781 } })
const entries = await ridequote.audit.recent({ token })
await ridequote.close()
console.log(JSON.stringify({ audited: entries.length }))
