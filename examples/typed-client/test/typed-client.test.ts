/**
 * Both clients against a real `ridequote serve`: the Effect client made from `RidequoteApi`
 * and the openapi-fetch client typed by the file openapi-typescript generated from
 * /openapi.json (which must match what the running server documents).
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, Either } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Connection } from "../src/credentials.js"
import { effectClientSession, issueToken as effectIssueToken } from "../src/EffectClient.js"
import { fetchClientSession, issueToken as fetchIssueToken, RidequoteError } from "../src/FetchClient.js"
import { GENERATED_FILE, generateClientTypes } from "../src/generate.js"
import { type Ridequote, startRidequote } from "./ridequote-process.js"

/** Several cold starts of the CLI and server, each seconds long on a loaded machine. */
const TIMEOUT_MS = 240_000

/** One account per client, so that each reads back exactly its own audit. */
const ACCOUNTS = ["Effect client", "Fetch client"] as const

let ridequote: Ridequote
beforeAll(async () => {
  ridequote = await startRidequote(ACCOUNTS)
}, TIMEOUT_MS)
afterAll(() => ridequote?.stop(), TIMEOUT_MS)

const connection = (name: typeof ACCOUNTS[number]): Connection => {
  const account = ridequote.accounts[ACCOUNTS.indexOf(name)]
  if (account === undefined) throw new Error(`no account ${name}`)
  return { baseUrl: ridequote.url, apiKey: account.apiKey, apiSecret: account.apiSecret }
}

/** Five quotes read back two at a time: pages of 2, 2 and 1, newest first. */
const QUOTES = 5
const PAGE_SIZE = 2

describe("typed clients against a running ridequote", { timeout: TIMEOUT_MS }, () => {
  it("HttpApiClient.make(RidequoteApi): token, quotes, and the audit read back page by page", async () => {
    const session = await Effect.runPromise(
      effectClientSession(connection("Effect client"), { quotes: QUOTES, pageSize: PAGE_SIZE })
    )
    expect(session.issued.ttlSeconds).toBeGreaterThan(0)
    expect(session.me.name).toBe("Effect client")
    expect(session.quotes).toHaveLength(QUOTES)
    // The market that priced the quotes is listed, with the offers the quotes priced.
    const priced = session.markets.find((m) => m.id === session.quotes[0]?.market.id)
    expect(priced?.offers.map((o) => o.key).sort()).toEqual(Object.keys(session.quotes[0]?.marketPrices ?? {}).sort())
    expect(session.quotes.every((q) => q.distanceKm > 0 && Object.keys(q.recommendations).length > 0)).toBe(true)
    expect(session.pages.map((p) => p.length)).toEqual([2, 2, 1])
    // The audit is newest first: the quotes in reverse order, each once.
    expect(session.pages.flat().map((e) => e.requestId)).toEqual(session.quotes.map((q) => q.requestId).reverse())
  })

  it("HttpApiClient: a wrong secret fails with the server's own error class", async () => {
    const right = connection("Effect client")
    const result = await Effect.runPromise(
      Effect.either(effectIssueToken({ ...right, apiSecret: `${right.apiSecret}x` })).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
    )
    expect(Either.isLeft(result) && result.left._tag).toBe("InvalidCredentials")
  })

  it("openapi-fetch with the generated types: token, quotes, and the audit by its Link rel=next", async () => {
    const session = await fetchClientSession(connection("Fetch client"), { quotes: QUOTES, pageSize: PAGE_SIZE })
    expect(session.issued.ttlSeconds).toBeGreaterThan(0)
    expect(session.me.name).toBe("Fetch client")
    expect(session.quotes).toHaveLength(QUOTES)
    const priced = session.markets.find((m) => m.id === session.quotes[0]?.market.id)
    expect(priced?.offers.map((o) => o.key).sort()).toEqual(Object.keys(session.quotes[0]?.marketPrices ?? {}).sort())
    expect(session.pages.map((p) => p.length)).toEqual([2, 2, 1])
    expect(session.pages.flat().map((e) => e.requestId)).toEqual(session.quotes.map((q) => q.requestId).reverse())
  })

  it("openapi-fetch: a wrong secret is the documented 401 body", async () => {
    const right = connection("Fetch client")
    const failure = await fetchIssueToken({ ...right, apiSecret: `${right.apiSecret}x` }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(RidequoteError)
    expect(failure).toMatchObject({ status: 401, body: { code: "result:invalid-credentials" } })
  })

  it("the committed generated types are what openapi-typescript makes of the served /openapi.json", async () => {
    const served = (await (await fetch(new URL("/openapi.json", ridequote.url))).json()) as object
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(await generateClientTypes(served))
  })
})
