/**
 * The Promise facade on the in-memory engine: the walkthrough a service without Effect makes
 * (account, token, quote, audit), every refusal as a RidequoteError with the contract's error
 * body, inputs checked with core's schemas, and close().
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Ridequote, RidequoteError } from "@ridequote/engine"
import { createRidequote, isRidequoteError } from "@ridequote/engine"
import { readFileSync } from "node:fs"

/** The shipped Paris file's versions (their forfaits): what a CDG quote is checked against. */
const parisForfaits: ReadonlyArray<{ effectiveFrom: string; flatFares: ReadonlyArray<{ name: string; amount: number }> }> =
  JSON.parse(readFileSync(new URL("../../markets/models/paris-tariff.json", import.meta.url), "utf8")).tariffs[0].versions

/** Times Square to JFK, route inferred. */
const timesSquareToJfk = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
}

/** The RidequoteError a promise rejects with (fails the test if it resolves or rejects with anything else). */
const rejection = async (promise: Promise<unknown>): Promise<RidequoteError> => {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error })
  )
  if (!("error" in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`)
  if (!isRidequoteError(outcome.error)) throw new Error(`expected a RidequoteError, got ${String(outcome.error)}`)
  return outcome.error
}

/** The fields an invalid-request error names (each once; a union reports one issue per member). */
const fieldsNamed = (error: RidequoteError): Array<string> =>
  error.body.code === "result:invalid-request"
    ? [...new Set((error.body.details ?? []).map((d) => d.path.join(".")))]
    : []

describe("createRidequote (memory)", () => {
  let rq: Ridequote
  /** A new account's key and secret. */
  const credentials = async (): Promise<[string, string]> => {
    const created = await rq.accounts.create({ name: "Markets" })
    return [created.apiKey, created.apiSecret]
  }
  beforeAll(async () => {
    rq = await createRidequote()
  })
  afterAll(() => rq.close())

  it("creates an account, issues a token, quotes on the shipped NYC market and finds the quote in the audit", async () => {
    const created = await rq.accounts.create({ name: "  Acme Rides " })
    expect(created.account).toMatchObject({ name: "Acme Rides", status: "Active", tokenTtlSeconds: 86_400 })
    expect(created.account.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(created.apiKey).toMatch(/^rqk_/)
    expect(typeof created.apiSecret).toBe("string")

    const issued = await rq.tokens.issue(created.apiKey, created.apiSecret)
    expect(issued.ttlSeconds).toBe(86_400)
    expect(issued.expiresAt).toMatch(/\.000Z$/)
    const verified = await rq.tokens.verify(issued.token)
    expect(verified).toMatchObject({ accountId: created.account.id, jti: issued.jti, expiresAt: issued.expiresAt })

    const quote = await rq.quote({ token: issued.token }, timesSquareToJfk)
    expect(quote.mode).toBe("Realtime")
    expect(quote.currency).toBe("USD")
    expect(quote.distanceKm).toBeGreaterThan(15)
    for (const points of Object.values(quote.recommendations)) {
      expect(points.map((p) => p.label)).toEqual(["saver", "balanced", "priority"])
    }
    expect(Object.keys(quote.marketPrices).length).toBeGreaterThan(0)

    const entries = await rq.audit.recent({ token: issued.token })
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ requestId: quote.requestId, decision: { outcome: "quoted", market: "nyc" } })
    // The same account, named by id (an embedder that authenticated its caller itself).
    expect(await rq.audit.recent({ accountId: created.account.id })).toEqual(entries)
    expect((await rq.accounts.get(created.account.id)).name).toBe("Acme Rides")
    expect((await rq.accounts.list()).map((a) => a.id)).toContain(created.account.id)
  })

  it("keeps the audit as it was written: changing a returned quote or entry changes nothing stored", async () => {
    const { account } = await rq.accounts.create({ name: "Immutable audit" })
    const caller = { accountId: account.id }
    const quote = await rq.quote(caller, { ...timesSquareToJfk, distanceKm: 20, durationMinutes: 30 })
    const [before] = await rq.audit.recent(caller)
    const standard = quote.recommendations["Standard"] as unknown as Array<{ price: number }>
    standard[0]!.price = -1
    const recommendations = before?.decision.outcome === "quoted" ? before.decision.recommendations : {}
    ;(recommendations["Standard"] as unknown as Array<{ price: number }>)[0]!.price = -2
    const [after] = await rq.audit.recent(caller)
    expect(after?.decision.outcome === "quoted" ? after.decision.recommendations["Standard"]?.[0]?.price : undefined)
      .toBeGreaterThan(0)
  })

  it("answers a request it cannot decode with invalid-request and details, and audits the refusal", async () => {
    const { account } = await rq.accounts.create({ name: "Validation" })
    const error = await rejection(
      rq.quote({ accountId: account.id }, { pickup: { latitude: 91, longitude: 0 }, destination: { latitude: 0, longitude: 0 } })
    )
    expect(error.body).toMatchObject({
      code: "result:invalid-request",
      details: [{ path: ["pickup", "latitude"] }]
    })
    expect(error.body.requestId).toMatch(/^[0-9a-f-]{36}$/)
    const [entry] = await rq.audit.recent({ accountId: account.id })
    expect(entry).toMatchObject({
      requestId: error.body.requestId,
      decision: { outcome: "rejected", code: "result:invalid-request" }
    })
    expect(entry?.request).toBeUndefined()
  })

  it("refuses exactly one of distance and duration with route-metadata-incomplete", async () => {
    const { account } = await rq.accounts.create({ name: "Half a route" })
    const error = await rejection(rq.quote({ accountId: account.id }, { ...timesSquareToJfk, distanceKm: 12 }))
    expect(error.code).toBe("result:route-metadata-incomplete")
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.body)
  })

  it("blocks a Pending account: no token (account-blocked with its status), and quotes by id are refused and audited", async () => {
    const created = await rq.accounts.create({ name: "Pending", status: "Pending" })
    const onIssue = await rejection(rq.tokens.issue(created.apiKey, created.apiSecret))
    expect(onIssue.body).toEqual({
      code: "result:account-blocked",
      message: expect.any(String),
      accountStatus: "Pending"
    })
    const onQuote = await rejection(rq.quote({ accountId: created.account.id }, timesSquareToJfk))
    expect(onQuote.code).toBe("result:account-blocked")
    const [entry] = await rq.audit.recent({ accountId: created.account.id })
    expect(entry?.decision).toMatchObject({ outcome: "rejected", code: "result:account-blocked" })
  })

  it("revokes one token, then all: each counted once, refused afterwards with token-revoked", async () => {
    const created = await rq.accounts.create({ name: "Revocation" })
    const first = await rq.tokens.issue(created.apiKey, created.apiSecret)
    const second = await rq.tokens.issue(created.apiKey, created.apiSecret)
    const third = await rq.tokens.issue(created.apiKey, created.apiSecret)
    expect(await rq.tokens.revoke({ token: second.token }, first.jti)).toEqual({ revoked: 1 })
    expect(await rq.tokens.revoke({ token: second.token }, first.jti)).toEqual({ revoked: 0 })
    expect((await rejection(rq.quote({ token: first.token }, timesSquareToJfk))).code).toBe("result:token-revoked")
    expect(await rq.tokens.revokeAll({ token: second.token })).toEqual({ revoked: 2 })
    expect((await rejection(rq.tokens.verify(third.token))).code).toBe("result:token-revoked")
  })

  it("setStatus with revokeTokens blocks the account and revokes what it holds", async () => {
    const created = await rq.accounts.create({ name: "To block" })
    const issued = await rq.tokens.issue(created.apiKey, created.apiSecret)
    const change = await rq.accounts.setStatus(created.account.id, "Blocked", { revokeTokens: true })
    expect(change.account.status).toBe("Blocked")
    expect(change.revoked).toBe(1)
    expect((await rejection(rq.tokens.verify(issued.token))).code).toBe("result:token-revoked")
  })

  it("changes settings: token TTL, behaviors (shadow pricing in the audit), a rotated secret", async () => {
    const created = await rq.accounts.create({ name: "Settings" })
    expect((await rq.accounts.setTokenTtl(created.account.id, 600)).tokenTtlSeconds).toBe(600)
    expect((await rejection(rq.accounts.setTokenTtl(created.account.id, 10))).code).toBe("result:invalid-request")
    expect((await rq.accounts.enableBehavior(created.account.id, "undercut")).pricing.enabledBehaviors).toEqual(["undercut"])
    expect((await rejection(rq.accounts.enableBehavior(created.account.id, "no-such-behavior"))).code).toBe(
      "result:invalid-request"
    )
    await rq.quote({ accountId: created.account.id }, { ...timesSquareToJfk, distanceKm: 20, durationMinutes: 30 })
    const [entry] = await rq.audit.recent({ accountId: created.account.id })
    expect(entry?.decision.outcome === "quoted" ? Object.keys(entry.decision.shadow ?? {}) : []).toEqual(["undercut"])
    const premium = await rq.accounts.setDefaultBehavior(created.account.id, "premium")
    expect(premium.pricing.defaultBehavior).toBe("premium")

    const rotated = await rq.tokens.issue(created.apiKey, created.apiSecret).then(async () => {
      const next = await rq.accounts.rotateSecret(created.account.id)
      expect(next.apiKey).toBe(created.apiKey)
      return next
    })
    expect((await rejection(rq.tokens.issue(created.apiKey, created.apiSecret))).code).toBe("result:invalid-credentials")
    expect((await rq.tokens.issue(rotated.apiKey, rotated.apiSecret)).ttlSeconds).toBe(600)
  })

  it("pages the audit with a cursor, newest first", async () => {
    const { account } = await rq.accounts.create({ name: "Paging" })
    const caller = { accountId: account.id }
    const quoted: Array<string> = []
    for (let i = 0; i < 3; i++) {
      quoted.push((await rq.quote(caller, { ...timesSquareToJfk, distanceKm: 10 + i, durationMinutes: 20 })).requestId)
    }
    const first = await rq.audit.page(caller, { limit: 2 })
    expect(first.entries).toHaveLength(2)
    expect(first.next).toBeDefined()
    const second = await rq.audit.page(caller, { limit: 2, after: first.next })
    expect(second.next).toBeUndefined()
    const all = [...first.entries, ...second.entries]
    expect(new Set(all.map((e) => e.requestId))).toEqual(new Set(quoted))
    const received = all.map((e) => e.receivedAt)
    expect([...received].sort().reverse()).toEqual(received)
  })

  it("checks every input with core's schemas: invalid-request with details, never an exception of another kind", async () => {
    const badName = await rejection(rq.accounts.create({ name: "", tokenTtlSeconds: 5 }))
    expect(badName.code).toBe("result:invalid-request")
    expect(fieldsNamed(badName)).toEqual(["name", "tokenTtlSeconds"])
    const asJs = rq as unknown as {
      accounts: { get: (id: unknown) => Promise<unknown>; create: (input: unknown) => Promise<unknown> }
      quote: (caller: unknown, request: unknown) => Promise<unknown>
      audit: { page: (caller: unknown, query: unknown) => Promise<unknown> }
    }
    expect((await rejection(asJs.accounts.get("not-a-uuid"))).code).toBe("result:invalid-request")
    expect((await rejection(asJs.accounts.get(undefined))).code).toBe("result:invalid-request")
    expect((await rejection(asJs.accounts.create({ name: "x", admin: true }))).code).toBe("result:invalid-request")
    expect((await rejection(asJs.quote({}, timesSquareToJfk))).body).toMatchObject({
      code: "result:invalid-request",
      details: [{ path: ["caller"] }]
    })
    const { account } = await rq.accounts.create({ name: "Queries" })
    const badQuery = await rejection(asJs.audit.page({ accountId: account.id }, { limit: 501, from: "2026-02-30T00:00:00Z" }))
    expect(fieldsNamed(badQuery)).toEqual(["limit", "from"])
  })

  it("lists the markets served: the shipped ones with their areas, zones and offers' basis, then the sample market", async () => {
    const markets = await rq.markets()
    const nyc = markets.find((m) => m.id === "nyc")
    expect(nyc).toMatchObject({ name: "New York City", sampleData: false, currency: "USD", timeZone: "America/New_York" })
    expect(nyc?.area.south).toBeLessThan(40.758)
    expect(nyc?.area.north).toBeGreaterThan(40.758)
    const quote = await rq.quote({ token: (await rq.tokens.issue(...(await credentials()))).token }, timesSquareToJfk)
    expect(nyc?.offers.map((o) => o.key).sort()).toEqual(Object.keys(quote.marketPrices).sort())
    for (const offer of nyc?.offers ?? []) expect(offer.key).toBe(`${offer.provider}/${offer.serviceLevel}`)
    // The sample market, for every other place, comes last.
    expect(markets.at(-1)).toMatchObject({ id: "global-sample", sampleData: true, timeZone: "solar" })
    // A moment of the past is accepted; a time without a zone is refused with details.
    expect((await rq.markets({ at: "2020-06-01T12:00:00Z" })).map((m) => m.id)).toEqual(markets.map((m) => m.id))
    const error = await rejection(rq.markets({ at: "2020-06-01T12:00:00" }))
    expect(fieldsNamed(error)).toEqual(["at"])
  })

  it("answers unknown accounts, credentials and tokens with the contract's codes", async () => {
    const missing = await rejection(rq.accounts.get("0b5c4a1e-8f3d-4c2a-9e1b-7d6f5a4b3c2d"))
    expect(missing.code).toBe("result:not-found")
    const credentials = await rejection(rq.tokens.issue("rqk_AAAAAAAAAAAAAAAAAAAAAAAA", "wrong"))
    expect(credentials.code).toBe("result:invalid-credentials")
    expect((await rejection(rq.tokens.verify("not.a.jwt"))).code).toMatch(/^result:(unauthorized|token-invalid)$/)
  })
})

describe("createRidequote options", () => {
  it("refuses bad options with invalid-request and details, before starting anything", async () => {
    const error = await rejection(
      createRidequote({ storage: { postgres: "mysql://x" }, routes: { osrm: "ftp://x" }, refreshIntervalSeconds: 600 } as never)
    )
    expect(error.code).toBe("result:invalid-request")
    expect(new Set(fieldsNamed(error).map((path) => path.split(".")[0]))).toEqual(
      new Set(["storage", "routes", "refreshIntervalSeconds"])
    )
  })

  it("a folder of market models that cannot be read fails the start with result:internal, saying which folder", async () => {
    const error = await rejection(createRidequote({ markets: { models: "/nonexistent/ridequote-models" } }))
    expect(error.code).toBe("result:internal")
    expect(error.message).toContain("/nonexistent/ridequote-models")
  })

  it("never echoes a secret it refuses", async () => {
    const error = await rejection(createRidequote({ storage: { sqlite: "/tmp/x.db", jwtSecret: "too-short-secret-value" } }))
    expect(JSON.stringify(error.body)).not.toContain("too-short-secret-value")
  })

  it("prices on the sample market alone when asked: even in New York City", async () => {
    const rq = await createRidequote({ markets: "sample" })
    try {
      const { account } = await rq.accounts.create({ name: "Sample" })
      const quote = await rq.quote({ accountId: account.id }, timesSquareToJfk)
      const [entry] = await rq.audit.recent({ accountId: account.id })
      expect(entry?.decision).toMatchObject({ outcome: "quoted", market: "global-sample" })
      expect(quote.requestId).toBe(entry?.requestId)
    } finally {
      await rq.close()
    }
  })

  it("the shipped markets without the sample fallback refuse a place none of them serves, and audit it", async () => {
    const rq = await createRidequote({ markets: { models: "shipped", fallbackToSample: false } })
    try {
      const { account } = await rq.accounts.create({ name: "No fallback" })
      const caller = { accountId: account.id }
      const lisbon = { pickup: { latitude: 38.7223, longitude: -9.1393 }, destination: { latitude: 38.7436, longitude: -9.1602 } }
      const error = await rejection(rq.quote(caller, { ...lisbon, distanceKm: 4.2, durationMinutes: 14 }))
      expect(error.code).toBe("result:market-not-served")
      // The nearest markets, nearest first, as structured data and in the message.
      const nearest = error.body.code === "result:market-not-served" ? error.body.nearest ?? [] : []
      expect(nearest.length).toBe(3)
      expect(nearest.map((m) => m.distanceKm)).toEqual([...nearest.map((m) => m.distanceKm)].sort((a, b) => a - b))
      expect(error.message).toContain(`nearest: ${nearest[0]?.id} (`)
      expect(error.body.requestId).toMatch(/^[0-9a-f-]{36}$/)
      // Paris ships its airports' forfaits alone: CDG → Opéra (right bank) is the forfait, exact;
      // Opéra → Montparnasse has no published price here and is refused as such, not priced as nothing.
      const opera = { latitude: 48.8719, longitude: 2.3316 }
      const cdg = await rq.quote(caller, { pickup: { latitude: 49.0097, longitude: 2.5479 }, destination: opera, distanceKm: 27, durationMinutes: 45 })
      // Priced now (the facade's clock is the wall clock): the test pins the rule, not the year's
      // amount. Exact at every percentile, and the CDG – rive droite forfait of the version the
      // offer names (Paris's tests price each version on explicit dates).
      const [[key, prices] = []] = Object.entries(cdg.marketPrices)
      const named = key === undefined ? undefined : cdg.offers?.[key]?.tariff
      const forfait = parisForfaits.find((v) => v.effectiveFrom === named?.effectiveFrom)?.flatFares
        .find((f) => f.name.includes("Charles-de-Gaulle – Paris rive droite"))?.amount
      expect(forfait).toBeGreaterThan(0)
      expect([prices?.p5, prices?.p95]).toEqual([forfait, forfait])
      const inTown = await rejection(rq.quote(caller, { pickup: opera, destination: { latitude: 48.8421, longitude: 2.3219 }, distanceKm: 4, durationMinutes: 15 }))
      expect(inTown.code).toBe("result:market-not-served")
      expect(inTown.body.code === "result:market-not-served" ? inTown.body.reason : undefined).toBe("no-rule-for-trip")
      expect(inTown.message).toContain("airports CDG, ORY")
      expect((await rq.quote(caller, timesSquareToJfk)).currency).toBe("USD")
      // Listing shows the shipped markets only: no sample fallback here.
      expect((await rq.markets()).some((m) => m.sampleData)).toBe(false)
      const decisions = (await rq.audit.recent(caller)).map((e) => e.decision.outcome).sort()
      expect(decisions).toEqual(["quoted", "quoted", "rejected", "rejected"])
    } finally {
      await rq.close()
    }
  })

  it("lists each market's airports and reach, and refuses a destination beyond the pickup market's reach whatever distance is sent", async () => {
    const rq = await createRidequote({ markets: { models: "shipped", fallbackToSample: false } })
    try {
      const markets = await rq.markets({ at: "2026-12-08T12:00:00Z" })
      const nyc = markets.find((m) => m.id === "nyc")
      expect(nyc?.airports.map((a) => a.iata)).toEqual(["JFK", "LGA", "EWR"])
      expect(nyc?.airports[0]).toEqual({ iata: "JFK", name: "New York John F. Kennedy International", latitude: 40.6413, longitude: -73.7781 })
      expect(nyc?.reachKm).toBe(150)
      expect(markets.find((m) => m.id === "san-francisco")?.airports.map((a) => a.iata)).toEqual(["SFO"])
      const { account } = await rq.accounts.create({ name: "Reach" })
      const caller = { accountId: account.id }
      // A New York pickup, a destination in Tokyo, 6.2 km sent: not a 6.2 km New York ride.
      const error = await rejection(rq.quote(caller, {
        pickup: timesSquareToJfk.pickup,
        destination: { latitude: 35.6812, longitude: 139.7671 },
        distanceKm: 6.2,
        durationMinutes: 21
      }))
      expect(error.code).toBe("result:market-not-served")
      const body = error.body.code === "result:market-not-served" ? error.body : undefined
      expect(body?.reason).toBe("destination-beyond-reach")
      expect(body?.reach).toMatchObject({ market: "nyc", reachKm: 150 })
      expect(error.message).toMatch(/^destination \(35\.6812, 139\.7671\) is [\d,]+ km from market nyc, beyond its reach of 150 km$/)
      // JFK → Manhattan is served (the flat fare); so is a destination 100 km beyond the NYC area, on the distance sent.
      const jfk = await rq.quote(caller, { pickup: timesSquareToJfk.destination, destination: timesSquareToJfk.pickup, distanceKm: 27, durationMinutes: 45 })
      expect(jfk.market.id).toBe("nyc")
      const far = await rq.quote(caller, {
        pickup: timesSquareToJfk.pickup,
        destination: { latitude: 40.9175 + 100 / 111.195, longitude: -73.9 },
        distanceKm: 6.2,
        durationMinutes: 21
      })
      expect([far.market.id, far.distanceKm, far.durationMinutes]).toEqual(["nyc", 6.2, 21])
    } finally {
      await rq.close()
    }
  })

  it("close() waits for calls in flight; later calls reject with unavailable", async () => {
    const rq = await createRidequote({ markets: "sample" })
    const { account } = await rq.accounts.create({ name: "Closing" })
    const inFlight = rq.quote({ accountId: account.id }, timesSquareToJfk)
    const closed = rq.close()
    expect((await inFlight).requestId).toMatch(/^[0-9a-f-]{36}$/)
    await closed
    await rq.close()
    expect((await rejection(rq.accounts.list())).body).toEqual({ code: "result:unavailable", message: "the engine is closed" })
  })
})
