/**
 * Several `serve` processes and the CLI on one SQLite file (docs/operations.md, "Several processes on one database"): a revocation
 * or a status change made by any of them reaches the others within the refresh interval.
 * Instances run with RIDEQUOTE_REFRESH_INTERVAL=1; each propagation is polled for with a
 * bounded deadline of 10 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  codeOf,
  createAccountWithCli,
  field,
  issueToken,
  me,
  pollUntil,
  quote,
  revoke,
  tokenOf
} from "./support/Api.js"
import { runCliProcess, type Served, startServe, stopAll, tempDir, PROCESS_TEST_TIMEOUT_MS } from "./support/Processes.js"

const PROPAGATION_DEADLINE_MS = 10_000

describe("several serve processes and the CLI on one SQLite file", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const dir = tempDir("multi")
  const database = dir.file("shared.db")
  const env = { RIDEQUOTE_DATABASE: database, RIDEQUOTE_REFRESH_INTERVAL: "1", RIDEQUOTE_RATE_LIMIT: "0" }
  let a: Served
  let b: Served

  // Started together on a fresh file: both race to create and migrate it, and both must start.
  beforeAll(async () => {
    ;[a, b] = await Promise.all([startServe(env), startServe(env)])
  }, 200_000)

  afterAll(async () => {
    await stopAll()
    dir.remove()
  })

  it("a token revoked on instance A is refused by instance B (401 token-revoked) within the refresh interval", async () => {
    const account = await createAccountWithCli(database, "Revoke Across Instances")
    const token = tokenOf(await issueToken(a.url, account.apiKey, account.apiSecret))
    const jti = field(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")), "jti")

    // Both instances honour it first (signing keys are shared through the database).
    expect((await quote(b.url, token)).status).toBe(200)
    expect((await me(a.url, token)).status).toBe(200)

    const revoked = await revoke(a.url, token, { jti })
    expect(revoked.status).toBe(200)
    expect(field(revoked.body, "revoked")).toBe(1)

    // At once on the instance that handled it.
    const onA = await me(a.url, token)
    expect(onA.status).toBe(401)
    expect(codeOf(onA)).toBe("result:token-revoked")

    // On the other one within the refresh interval.
    const { reply } = await pollUntil(() => quote(b.url, token), (r) => r.status === 401, PROPAGATION_DEADLINE_MS)
    expect(reply.status).toBe(401)
    expect(codeOf(reply)).toBe("result:token-revoked")
  })

  it("accounts set-status ID Blocked through the CLI: both instances answer 403 result:account-blocked", async () => {
    const account = await createAccountWithCli(database, "Blocked By Operator")
    const tokenA = tokenOf(await issueToken(a.url, account.apiKey, account.apiSecret))
    const tokenB = tokenOf(await issueToken(b.url, account.apiKey, account.apiSecret))
    expect((await quote(a.url, tokenA)).status).toBe(200)
    expect((await quote(b.url, tokenB)).status).toBe(200)

    const cli = await runCliProcess(["accounts", "set-status", account.id, "Blocked"], { RIDEQUOTE_DATABASE: database })
    expect(cli.code, cli.stderr).toBe(0)

    for (const [base, token] of [[a.url, tokenA], [b.url, tokenB]] as const) {
      const { reply } = await pollUntil(() => quote(base, token), (r) => r.status === 403, PROPAGATION_DEADLINE_MS)
      expect(reply.status).toBe(403)
      expect(codeOf(reply)).toBe("result:account-blocked")
      // A blocked account is refused quotes, but its token stays valid for the other endpoints until it expires (docs/security.md).
      const who = await me(base, token)
      expect(who.status).toBe(200)
      expect(field(who.body, "status")).toBe("Blocked")
    }
    // And no new token is issued to a Blocked account, on either instance.
    for (const base of [a.url, b.url]) {
      const refused = await issueToken(base, account.apiKey, account.apiSecret)
      expect(refused.status).toBe(403)
      expect(codeOf(refused)).toBe("result:account-blocked")
    }
  })

  it("tokens revoke --all through the CLI: both instances refuse the account's tokens", async () => {
    const account = await createAccountWithCli(database, "Revoked By Operator")
    const tokenA = tokenOf(await issueToken(a.url, account.apiKey, account.apiSecret))
    const tokenB = tokenOf(await issueToken(b.url, account.apiKey, account.apiSecret))
    expect((await me(b.url, tokenA)).status).toBe(200)

    const cli = await runCliProcess(["tokens", "revoke", account.id, "--all", "--json"], {
      RIDEQUOTE_DATABASE: database
    })
    expect(cli.code, cli.stderr).toBe(0)
    expect(JSON.parse(cli.stdout)).toEqual({ accountId: account.id, revoked: 2 })

    for (const [base, token] of [[a.url, tokenA], [a.url, tokenB], [b.url, tokenA], [b.url, tokenB]] as const) {
      const { reply } = await pollUntil(() => me(base, token), (r) => r.status === 401, PROPAGATION_DEADLINE_MS)
      expect(reply.status).toBe(401)
      expect(codeOf(reply)).toBe("result:token-revoked")
    }
    // A token issued after the revocation works everywhere.
    const fresh = tokenOf(await issueToken(b.url, account.apiKey, account.apiSecret))
    expect((await quote(a.url, fresh)).status).toBe(200)
  })
})
