/**
 * Fail closed on staleness (docs/security.md, "Failing closed"), end to end on PostgreSQL:
 * an instance that was paused while a token was revoked elsewhere, and that finds the database
 * gone when it wakes, answers bearer calls 503 result:unavailable — never 200 for the revoked
 * token — once its view is older than two refresh intervals, and recovers by itself (401
 * token-revoked) when the database returns; and an instance told of a change (NOTIFY) that it
 * cannot read answers 503 at once, long before that bound. The PostgreSQL server is the test's
 * own (a private cluster it starts and stops), not the machine's shared one.
 */
import * as Pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { FEED_CHANNEL } from "@ridequote/storage-sql"
import { codeOf, createAccountWithCli, field, issueToken, me, pollUntil, revoke, tokenOf } from "./support/Api.js"
import { PROCESS_TEST_TIMEOUT_MS, startServe, stopAll } from "./support/Processes.js"
import { type PrivatePostgres, privatePostgresAvailable, startPrivatePostgres } from "./support/PrivatePostgres.js"

const REFRESH_SECONDS = 2
/** Two refresh intervals: the documented staleness bound. */
const BOUND_MS = 2 * REFRESH_SECONDS * 1000

const jtiOf = (token: string): unknown =>
  field(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")), "jti")

const clusters: Array<PrivatePostgres> = []
afterAll(async () => {
  await stopAll()
  for (const cluster of clusters) cluster.remove()
})

describe.runIf(privatePostgresAvailable)("stale access data fails closed", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("a paused instance that missed a revoke and lost the database answers 503, never 200, then recovers", async () => {
    const pg = await startPrivatePostgres()
    clusters.push(pg)
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

  it("told of a change it cannot read (NOTIFY, then its read fails), an instance answers 503 at once, then recovers", async () => {
    const pg = await startPrivatePostgres()
    clusters.push(pg)
    // A 60 s interval makes the staleness bound 60 s: whatever answers 503 below is the NOTIFY rule.
    const env = {
      RIDEQUOTE_DATABASE: pg.url,
      RIDEQUOTE_RATE_LIMIT: "0",
      RIDEQUOTE_REFRESH_INTERVAL: "60",
      RIDEQUOTE_DB_STATEMENT_TIMEOUT: "1"
    }
    const served = await startServe(env)
    const account = await createAccountWithCli(pg.url, "Unread Change")
    const token = tokenOf(await issueToken(served.url, account.apiKey, account.apiSecret))
    expect((await me(served.url, token)).status).toBe(200)

    // The feed cannot be read (the table is locked), and a change is announced.
    const admin = new Pg.Client({ connectionString: pg.url })
    await admin.connect()
    try {
      await admin.query("BEGIN")
      await admin.query("LOCK TABLE access_changes IN ACCESS EXCLUSIVE MODE")
      const notifier = new Pg.Client({ connectionString: pg.url })
      await notifier.connect()
      await notifier.query("SELECT pg_notify($1, '')", [FEED_CHANNEL])
      await notifier.end()
      const { reply: refused } = await pollUntil(() => me(served.url, token), (r) => r.status === 503, 20_000, 50)
      expect(codeOf(refused)).toBe("result:unavailable")
    } finally {
      await admin.query("ROLLBACK")
      await admin.end()
    }
    // Readable again: the next read (the next wake-up, or the scheduled one) ends the refusal.
    const again = new Pg.Client({ connectionString: pg.url })
    await again.connect()
    await again.query("SELECT pg_notify($1, '')", [FEED_CHANNEL])
    await again.end()
    const { reply: back } = await pollUntil(() => me(served.url, token), (r) => r.status === 200, 20_000, 50)
    expect(back.status).toBe(200)
  })
})
