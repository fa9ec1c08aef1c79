/**
 * The engine on a PostgreSQL URL, as layer and as facade, on a database of its own created on
 * the machine's server (127.0.0.1:5432). Without a reachable server the file is skipped loudly;
 * under CI=true it fails instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Accounts, AuditLog, Quotes, RequestId, Tokens } from "@ridequote/core"
import { PostgresEngineLive } from "@ridequote/compose"
import { createRidequote } from "@ridequote/engine"
import { adminQuery, POSTGRES_URL, postgresReachable } from "@ridequote/storage-postgres/testing"
import { DateTime, Effect } from "effect"

const available = await postgresReachable("the @ridequote/engine PostgreSQL tests")

const timesSquareToJfk = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
}

describe.runIf(available)("the engine on PostgreSQL", () => {
  const name = `rq_engine_${Date.now().toString(36)}_${process.pid}`
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${name}`)
  })
  afterAll(async () => {
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

  it.effect("PostgresEngineLive: migrates on start, then account, token, quote and audit", () =>
    Effect.gen(function*() {
      const created = yield* (yield* Accounts).create({ name: "On PostgreSQL" })
      const tokens = yield* Tokens
      const caller = yield* tokens.verify((yield* tokens.issue(created.apiKey, created.apiSecret)).token)
      const requestId = RequestId.make("7a3c1f0e-2b4d-4e6f-8a9b-0c1d2e3f4a5b")
      yield* (yield* Quotes).quote(caller.account, timesSquareToJfk, { requestId, receivedAt: yield* DateTime.now })
      const page = yield* (yield* AuditLog).page({ accountId: created.account.id, limit: 5 })
      expect(page.entries.map((e) => [e.requestId, e.decision.outcome])).toEqual([[requestId, "quoted"]])
    }).pipe(Effect.provide(PostgresEngineLive({ url: url.toString(), poolSize: 2 }))))

  it("createRidequote({ storage: { postgres } }): two engines on one database share accounts and the audit", async () => {
    const a = await createRidequote({ storage: { postgres: url.toString(), poolSize: 2 }, refreshIntervalSeconds: 1 })
    const b = await createRidequote({ storage: { postgres: url.toString(), poolSize: 2 }, refreshIntervalSeconds: 1 })
    try {
      const created = await a.accounts.create({ name: "Shared" })
      // Token issue reads storage directly: the account made on `a` works on `b` at once.
      const issued = await b.tokens.issue(created.apiKey, created.apiSecret)
      const quote = await a.quote({ token: issued.token }, timesSquareToJfk)
      expect((await b.audit.recent({ token: issued.token })).map((e) => e.requestId)).toEqual([quote.requestId])
      // Revoked on `a`: refused there at once (other instances hear of it through the change feed,
      // which @ridequote/storage-postgres's own tests cover).
      expect(await a.tokens.revokeAll({ accountId: created.account.id })).toEqual({ revoked: 1 })
      expect(await a.tokens.verify(issued.token).then(() => "valid", (e: { code?: string }) => e.code)).toBe("result:token-revoked")
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it("refuses a database that is not there with result:unavailable, without leaking the URL's password", async () => {
    const missing = new URL(url.toString())
    missing.pathname = `/${name}_missing`
    missing.password = "hunter2-not-a-real-password"
    missing.username = "postgres"
    const error = await createRidequote({ storage: { postgres: missing.toString() } }).then(
      () => undefined,
      (e: { code?: string; message?: string }) => e
    )
    expect(error?.code).toBe("result:unavailable")
    expect(JSON.stringify(error)).not.toContain("hunter2")
  })
})
