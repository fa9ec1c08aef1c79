/**
 * Three `serve` processes and the CLI on one PostgreSQL database (issue 8): revocations and
 * status changes reach every instance through NOTIFY; a database that goes away costs 503s,
 * never a 200 without its audit entry, and is recovered from without a restart; a SIGKILLed
 * instance loses no acknowledged quote while the others keep answering.
 *
 * The instances refresh their view only every 60 s, so every propagation below that arrives
 * within its 10 s deadline came through the pushed path. Deadlines bound the waiting only; the
 * measured latencies are printed, not asserted (bench/scale-out.ts measures them properly).
 */
import { randomUUID } from "node:crypto"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccountId, Jti, KeyId, signJwt, TOKEN_ISSUER } from "@ridequote/core"
import {
  codeOf,
  createAccountWithCli,
  field,
  issueToken,
  me,
  pollUntil,
  quote,
  type Reply,
  revoke,
  tokenOf
} from "./support/Api.js"
import { auditedRequestIds } from "./support/Audit.js"
import { createTestDatabase, postgresAvailable, queryTestDatabase, type TestDatabase } from "./support/Postgres.js"
import { PROCESS_TEST_TIMEOUT_MS, REPO_ROOT, runCliProcess, type Served, startServe, stopAll } from "./support/Processes.js"
import { openStoredKey } from "@ridequote/storage-sql"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Either } from "effect"

/** A signing key as a thief holding the database and the instances' key-encryption key file opens it. */
const stolenKey = (kid: string, stored: string): Uint8Array => {
  const kek = Buffer.from(readFileSync(join(REPO_ROOT, "data", "key-encryption-key"), "utf8").trim(), "base64")
  expect(stored).toMatch(/^aes256gcm:/)
  return Either.getOrThrow(openStoredKey(stored, kid, { current: Redacted.make(new Uint8Array(kek)), previous: [] }))
}

const PROPAGATION_DEADLINE_MS = 10_000
const RECOVERY_DEADLINE_MS = 30_000

const jtiOf = (token: string): unknown =>
  field(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")), "jti")

const health = async (base: string): Promise<number> =>
  (await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(30_000) })).status

/** Quotes in a loop from `workers` clients until `stop()`; records every answer. */
const load = (base: string, token: string, workers: number) => {
  const ok: Array<string> = []
  const statuses: Array<number> = []
  const errors: Array<string> = []
  let stopped = false
  const worker = async () => {
    while (!stopped) {
      try {
        const reply: Reply = await quote(base, token)
        statuses.push(reply.status)
        const requestId = field(reply.body, "requestId")
        if (reply.status === 200 && typeof requestId === "string") ok.push(requestId)
        if (reply.status !== 200 && reply.status !== 503) errors.push(`${reply.status} ${JSON.stringify(reply.body)}`)
      } catch (error) {
        errors.push(String(error))
        return
      }
    }
  }
  const running = Promise.all(Array.from({ length: workers }, worker))
  return {
    ok,
    statuses,
    errors,
    stop: async () => {
      stopped = true
      await running
    }
  }
}

describe.runIf(postgresAvailable)("three serve processes on one PostgreSQL database", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let db: TestDatabase
  let instances: ReadonlyArray<Served> = []
  const env = () => ({ RIDEQUOTE_DATABASE: db.url, RIDEQUOTE_REFRESH_INTERVAL: "60", RIDEQUOTE_RATE_LIMIT: "0" })

  beforeAll(async () => {
    db = await createTestDatabase("instances")
    // started together on an empty database: they race to migrate it, and all must start
    instances = await Promise.all([startServe(env()), startServe(env()), startServe(env())])
  }, 240_000)

  afterAll(async () => {
    await stopAll()
    await db?.drop()
  })

  const at = (i: number): Served => {
    const served = instances[i]
    if (served === undefined) throw new Error(`no instance ${i}`)
    return served
  }

  it("a token revoked on A is refused by B and C through NOTIFY, well within the refresh interval", async () => {
    const account = await createAccountWithCli(db.url, "Revoke Everywhere")
    const token = tokenOf(await issueToken(at(0).url, account.apiKey, account.apiSecret))
    for (const served of instances) expect((await me(served.url, token)).status).toBe(200)

    const revoked = await revoke(at(0).url, token, { jti: jtiOf(token) })
    expect(revoked.status).toBe(200)
    const onA = await me(at(0).url, token)
    expect(codeOf(onA)).toBe("result:token-revoked")

    const latencies: Array<number> = []
    for (const served of instances.slice(1)) {
      const { elapsedMs, reply } = await pollUntil(() => me(served.url, token), (r) => r.status === 401, PROPAGATION_DEADLINE_MS, 5)
      expect(reply.status).toBe(401)
      expect(codeOf(reply)).toBe("result:token-revoked")
      latencies.push(elapsedMs)
    }
    console.info(`revocation reached B and C after ${latencies.join(" ms, ")} ms (polled every 5 ms)`)
  })

  it("accounts set-status Blocked through the CLI: all three answer 403 result:account-blocked", async () => {
    const account = await createAccountWithCli(db.url, "Blocked Everywhere")
    const tokens = await Promise.all(instances.map(async (served) => tokenOf(await issueToken(served.url, account.apiKey, account.apiSecret))))
    for (const [i, served] of instances.entries()) expect((await quote(served.url, tokens[i] ?? "")).status).toBe(200)

    const cli = await runCliProcess(["accounts", "set-status", account.id, "Blocked"], { RIDEQUOTE_DATABASE: db.url })
    expect(cli.code, cli.stderr).toBe(0)
    for (const [i, served] of instances.entries()) {
      const { elapsedMs, reply } = await pollUntil(() => quote(served.url, tokens[i] ?? ""), (r) => r.status === 403, PROPAGATION_DEADLINE_MS, 5)
      expect(reply.status).toBe(403)
      expect(codeOf(reply)).toBe("result:account-blocked")
      console.info(`instance ${i} refused the blocked account ${elapsedMs} ms after the CLI returned`)
    }
  })

  it("tokens revoke --all through the CLI also refuses a token that was signed but never recorded", async () => {
    const account = await createAccountWithCli(db.url, "Cutoff Everywhere")
    const issued = tokenOf(await issueToken(at(1).url, account.apiKey, account.apiSecret))
    // What anyone who can read the keys table *and* the key-encryption key file beside the
    // instances (REPO_ROOT/data/key-encryption-key, their default) can do: mint a token storage
    // never recorded. The table alone holds sealed keys only.
    const [key] = await queryTestDatabase<{ kid: string; secret: string }>(
      db,
      "SELECT kid, secret FROM signing_keys WHERE retired_at_ms IS NULL"
    )
    if (key === undefined) throw new Error("no current signing key")
    const nowSeconds = Math.floor(Date.now() / 1000)
    const forged = signJwt(
      { iss: TOKEN_ISSUER, sub: AccountId.make(account.id), jti: Jti.make(randomUUID()), iat: nowSeconds - 5, exp: nowSeconds + 3600 },
      { kid: KeyId.make(key.kid), secret: Redacted.make(stolenKey(key.kid, key.secret)) }
    )
    for (const served of instances) expect((await me(served.url, forged)).status).toBe(200)

    const cli = await runCliProcess(["tokens", "revoke", account.id, "--all", "--json"], { RIDEQUOTE_DATABASE: db.url })
    expect(cli.code, cli.stderr).toBe(0)
    expect(JSON.parse(cli.stdout)).toEqual({ accountId: account.id, revoked: 1 })
    for (const served of instances) {
      for (const token of [issued, forged]) {
        const { reply } = await pollUntil(() => me(served.url, token), (r) => r.status === 401, PROPAGATION_DEADLINE_MS, 5)
        expect(codeOf(reply)).toBe("result:token-revoked")
      }
    }
    // a token issued after the revoke-all works everywhere
    const fresh = tokenOf(await issueToken(at(2).url, account.apiKey, account.apiSecret))
    for (const served of instances) expect((await me(served.url, fresh)).status).toBe(200)
  })

  it("database down: 503 result:unavailable and not ready while it lasts, no 200 without its audit entry, recovery without restart", async () => {
    const account = await createAccountWithCli(db.url, "Outage")
    const token = tokenOf(await issueToken(at(2).url, account.apiKey, account.apiSecret))
    const traffic = load(at(2).url, token, 4)
    await pollUntil(async () => ({ status: traffic.ok.length, body: null, headers: new Headers() }), (r) => r.status >= 20, RECOVERY_DEADLINE_MS)

    // a blip first: every connection cut once, new ones accepted at once
    expect(await db.terminateConnections()).toBeGreaterThan(0)
    // then an outage: new connections refused too
    await db.takeDown()
    const { reply: down } = await pollUntil(() => quote(at(2).url, token), (r) => r.status === 503, RECOVERY_DEADLINE_MS)
    expect(down.status).toBe(503)
    expect(codeOf(down)).toBe("result:unavailable")
    expect(await health(at(2).url)).toBe(503)
    const beforeRecovery = traffic.ok.length

    await db.bringUp()
    const { reply: back } = await pollUntil(() => quote(at(2).url, token), (r) => r.status === 200, RECOVERY_DEADLINE_MS)
    expect(back.status).toBe(200)
    expect(await health(at(2).url)).toBe(200)
    await pollUntil(async () => ({ status: traffic.ok.length, body: null, headers: new Headers() }), (r) => r.status >= beforeRecovery + 20, RECOVERY_DEADLINE_MS)
    await traffic.stop()

    expect(traffic.errors).toEqual([])
    expect(traffic.statuses).toContain(503)
    const audited = await auditedRequestIds(db.url, account.id)
    expect(traffic.ok.filter((id) => !audited.has(id))).toEqual([])
    // the other instances never needed a restart either
    expect((await quote(at(0).url, token)).status).toBe(200)
  })

  it("one instance SIGKILLed under load: every 200 is in the audit and the others keep answering", async () => {
    const account = await createAccountWithCli(db.url, "Crash Under Load")
    const tokens = await Promise.all(instances.map(async (served) => tokenOf(await issueToken(served.url, account.apiKey, account.apiSecret))))
    const traffic = instances.map((served, i) => load(served.url, tokens[i] ?? "", 3))
    await pollUntil(async () => ({ status: traffic[0]?.ok.length ?? 0, body: null, headers: new Headers() }), (r) => r.status >= 30, RECOVERY_DEADLINE_MS)

    at(0).child.kill("SIGKILL")
    await at(0).exited
    const survivors = traffic.slice(1)
    const marks = survivors.map((t) => t.ok.length)
    await pollUntil(
      async () => ({ status: Math.min(...survivors.map((t, i) => t.ok.length - (marks[i] ?? 0))), body: null, headers: new Headers() }),
      (r) => r.status >= 20,
      RECOVERY_DEADLINE_MS
    )
    await Promise.all(traffic.map((t) => t.stop()))

    // the killed instance's clients saw connection errors once it was gone, and only then
    for (const t of survivors) expect(t.errors).toEqual([])
    for (const t of survivors) expect(t.statuses.every((s) => s === 200)).toBe(true)
    const acknowledged = traffic.flatMap((t) => t.ok)
    const audited = await auditedRequestIds(db.url, account.id)
    expect(acknowledged.filter((id) => !audited.has(id))).toEqual([])
  })
})
