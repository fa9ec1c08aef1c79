/**
 * `pnpm --filter @ridequote/example-typed-client start`: both clients against the ridequote at
 * RIDEQUOTE_URL (default http://127.0.0.1:8080) with the account in RIDEQUOTE_API_KEY and
 * RIDEQUOTE_API_SECRET, printing what each got back.
 */
import { Effect } from "effect"
import type { Connection } from "./credentials.js"
import { effectClientSession } from "./EffectClient.js"
import { fetchClientSession } from "./FetchClient.js"

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === "") {
    console.error(`typed-client: set ${name} (an account's credentials, from \`ridequote accounts create\`)`)
    process.exit(2)
  }
  return value
}

const connection: Connection = {
  baseUrl: process.env["RIDEQUOTE_URL"] ?? "http://127.0.0.1:8080",
  apiKey: required("RIDEQUOTE_API_KEY"),
  apiSecret: required("RIDEQUOTE_API_SECRET")
}
const options = { quotes: 3, pageSize: 2 }

const viaEffect = await Effect.runPromise(effectClientSession(connection, options))
console.log(`HttpApiClient: ${viaEffect.quotes.length} quotes for ${viaEffect.me.name}; audit pages of`, viaEffect.pages.map((p) => p.length))
const viaFetch = await fetchClientSession(connection, options)
console.log(`openapi-fetch: ${viaFetch.quotes.length} quotes for ${viaFetch.me.name}; audit pages of`, viaFetch.pages.map((p) => p.length))
