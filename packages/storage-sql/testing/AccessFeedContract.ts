import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import type { AccountId, TokenRecord } from "@ridequote/core"
import { AccessFeed, AccountStore, TokenStore } from "@ridequote/core"
import { EXPIRED_TOKEN_RETENTION_MS, FEED_BATCH, FEED_RETENTION_MS, prune } from "../src/index.js"
import { Effect } from "effect"
import type { StorageUnderTest } from "./fixtures.js"
import { DAY, newAccount, newJti, NOW, storageWithClient } from "./fixtures.js"


const issue = (accountId: AccountId, expiresAtMs = NOW + DAY) =>
  Effect.gen(function*() {
    const token: TokenRecord = { jti: newJti(), accountId, issuedAtMs: NOW - DAY, expiresAtMs }
    yield* (yield* TokenStore).record(token)
    return token
  })

/** Many tokens at once, straight into the table (the feed bound needs more rows than the API makes quickly). */
const issueMany = (accountId: AccountId, n: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = Array.from({ length: n }, () => ({
      jti: newJti(),
      account_id: accountId,
      issued_at_ms: NOW,
      expires_at_ms: NOW + DAY
    }))
    for (let i = 0; i < rows.length; i += 1000) {
      yield* sql`INSERT INTO tokens ${sql.insert(rows.slice(i, i + 1000))}`
    }
  })

export const accessFeedContract = (h: StorageUnderTest) =>
describe(`AccessFeed on ${h.name}`, () => {
  layer(storageWithClient(h, "feed"))((it) => {
    it.effect("since(cursor) returns the changes after the cursor, in commit order, and the next cursor", () =>
      Effect.gen(function*() {
        const feed = yield* AccessFeed
        const tokens = yield* TokenStore
        const accounts = yield* AccountStore
        const accountId = yield* newAccount
        const [a, b] = yield* Effect.all([issue(accountId), issue(accountId)])
        const { cursor } = yield* feed.start(NOW)

        yield* tokens.revoke(accountId, a.jti, NOW)
        yield* accounts.update(accountId, (x) => ({ ...x, name: "Renamed" }))
        yield* tokens.revoke(accountId, b.jti, NOW)

        const batch = yield* feed.since(cursor)
        expect(batch.changes).toEqual([
          { _tag: "TokenRevoked", accountId, jti: a.jti, expiresAtMs: a.expiresAtMs },
          { _tag: "AccountChanged", accountId },
          { _tag: "TokenRevoked", accountId, jti: b.jti, expiresAtMs: b.expiresAtMs }
        ])
        expect(batch.cursor).toBeGreaterThan(cursor)
        expect(yield* feed.since(batch.cursor)).toEqual({ cursor: batch.cursor, changes: [] })
        // a cursor in the middle skips what precedes it
        const firstOnly = yield* feed.since(cursor).pipe(Effect.map((x) => x.changes.slice(1)))
        const middle = yield* feed.since(cursor + 1)
        expect(middle.changes).toEqual(firstOnly)
      }))

    it.effect("start gives the feed head and only the revocations not yet expired", () =>
      Effect.gen(function*() {
        const feed = yield* AccessFeed
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const live = yield* issue(accountId, NOW + DAY)
        const expiring = yield* issue(accountId, NOW + 1000)
        const notRevoked = yield* issue(accountId, NOW + DAY)
        yield* tokens.revoke(accountId, live.jti, NOW)
        yield* tokens.revoke(accountId, expiring.jti, NOW)

        const start = yield* feed.start(NOW + 1000)
        const jtis = start.revoked.map((r) => r.jti)
        expect(jtis).toContain(live.jti)
        expect(jtis).not.toContain(expiring.jti) // expired at NOW + 1000 exactly
        expect(jtis).not.toContain(notRevoked.jti)
        expect(start.revoked.find((r) => r.jti === live.jti)?.expiresAtMs).toBe(live.expiresAtMs)
        expect(yield* feed.since(start.cursor)).toEqual({ cursor: start.cursor, changes: [] })
      }))

    it.effect("since returns at most FEED_BATCH changes; the cursor then picks up the rest", () =>
      Effect.gen(function*() {
        const feed = yield* AccessFeed
        const accountId = yield* newAccount
        yield* issueMany(accountId, FEED_BATCH + 25)
        const { cursor } = yield* feed.start(NOW)
        const revoked = (yield* (yield* TokenStore).revokeAll(accountId, NOW)).tokens
        expect(revoked).toHaveLength(FEED_BATCH + 25)
        const first = yield* feed.since(cursor)
        const second = yield* feed.since(first.cursor)
        // the jtis, then the account's cutoff
        expect([first.changes.length, second.changes.length]).toEqual([FEED_BATCH, 26])
        const jtis = [...first.changes, ...second.changes].flatMap((c) => c._tag === "TokenRevoked" ? [c.jti] : [])
        const seen = new Set(jtis)
        expect(seen).toEqual(new Set(revoked.map((r) => r.jti)))
      }))

    it.effect("retention drops feed rows older than the longest token life and long-expired tokens", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const accountId = yield* newAccount
        const old = yield* issue(accountId, NOW - EXPIRED_TOKEN_RETENTION_MS - 1)
        const recent = yield* issue(accountId, NOW - EXPIRED_TOKEN_RETENTION_MS + 1)
        yield* sql`INSERT INTO access_changes ${
          sql.insert([
            { kind: "AccountChanged", account_id: accountId, at_ms: NOW - FEED_RETENTION_MS - 1 },
            { kind: "AccountChanged", account_id: accountId, at_ms: NOW - FEED_RETENTION_MS + 1 }
          ])
        }`
        yield* prune(NOW)
        const tokens = yield* sql<{ jti: string }>`SELECT jti FROM tokens WHERE account_id = ${accountId}`
        expect(tokens.map((t) => t.jti)).toEqual([recent.jti])
        expect(tokens.map((t) => t.jti)).not.toContain(old.jti)
        const changes = yield* sql<{ at_ms: number | string }>`SELECT at_ms FROM access_changes WHERE account_id = ${accountId}`
        expect(changes.map((c) => Number(c.at_ms))).toEqual([NOW - FEED_RETENTION_MS + 1])
      }))
  })
})
