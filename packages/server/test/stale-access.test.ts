/**
 * Fail closed on staleness (docs/security.md, "Failing closed"), end to end on PostgreSQL:
 * an instance that was paused while a token was revoked elsewhere, and that finds the database
 * gone when it wakes, answers bearer calls 503 result:unavailable — never 200 for the revoked
 * token — once its view is older than two refresh intervals, and recovers by itself (401
 * token-revoked) when the database returns. The PostgreSQL server is the test's own (a private
 * cluster it starts and stops), not the machine's shared one.
 */
import { afterAll, describe, expect, it } from "vitest"
import { codeOf, createAccountWithCli, field, issueToken, me, pollUntil, revoke, tokenOf } from "./support/Api.js"
import { PROCESS_TEST_TIMEOUT_MS, startServe, stopAll } from "./support/Processes.js"
import { type PrivatePostgres, privatePostgresAvailable, startPrivatePostgres } from "./support/PrivatePostgres.js"

const REFRESH_SECONDS = 2
/** Two refresh intervals: the documented staleness bound. */
const BOUND_MS = 2 * REFRESH_SECONDS * 1000

const jtiOf = (token: string): unknown =>
  field(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")), "jti")

let pg: PrivatePostgres | undefined
afterAll(async () => {
  await stopAll()
  pg?.remove()
})

describe.runIf(privatePostgresAvailable)("stale access data fails closed", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("a paused instance that missed a revoke and lost the database answers 503, never 200, then recovers", async () => {
    pg = await startPrivatePostgres()
    const env = { RIDEQUOTE_DATABASE: pg.url, RIDEQUOTE_RATE_LIMIT: "0", RIDEQUOTE_REFRESH_INTERVAL: String(REFRESH_SECONDS) }
    const [a, b] = await Promise.all([startServe(env), startServe(env)])
    if (a === undefined || b === undefined) throw new Error("instances did not start")
    const account = await createAccountWithCli(pg.url, "Stale View")
    const token = tokenOf(await issueToken(a.url, account.apiKey, account.apiSecret))
    expect((await me(b.url, token)).status).toBe(200)

    // B misses the revocation (paused), then the database goes away before B wakes.
    const pausedAt = Date.now()
    b.child.kill("SIGSTOP")
    try {
      expect((await revoke(a.url, token, { jti: jtiOf(token) })).status).toBe(200)
      pg.stop()
      // Past the bound since B's last read (which was before the pause).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, BOUND_MS + 1_000 - (Date.now() - pausedAt))))
    } finally {
      b.child.kill("SIGCONT")
    }

    const whileDown: Array<number> = []
    for (let i = 0; i < 5; i++) {
      const reply = await me(b.url, token)
      whileDown.push(reply.status)
      if (reply.status === 503) expect(codeOf(reply)).toBe("result:unavailable")
    }
    expect(whileDown).toEqual([503, 503, 503, 503, 503])

    // The database returns: B reads the feed again by itself and refuses the revoked token.
    pg.start()
    const seen: Array<number> = []
    const { reply } = await pollUntil(async () => {
      const r = await me(b.url, token)
      seen.push(r.status)
      return r
    }, (r) => r.status === 401, 30_000, 100)
    expect(codeOf(reply)).toBe("result:token-revoked")
    expect(seen).not.toContain(200)
  })
})
