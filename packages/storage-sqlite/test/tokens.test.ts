import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import type { AccountId, Jti, TokenRecord } from "@ridequote/core"
import { AccessFeed, AccountStore, TokenStore } from "@ridequote/core"
import { Effect } from "effect"
import { makeAccount, newCredentials, newJti, storageWithClient, tempDirectory } from "./fixtures.js"

const dir = tempDirectory()

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0)
const DAY = 86_400_000

const newAccount = Effect.gen(function*() {
  const account = makeAccount()
  yield* (yield* AccountStore).insert(account, newCredentials())
  return account.id
})

const issue = (accountId: AccountId, issuedAtMs = NOW, expiresAtMs = NOW + DAY) =>
  Effect.gen(function*() {
    const token: TokenRecord = { jti: newJti(), accountId, issuedAtMs, expiresAtMs }
    yield* (yield* TokenStore).record(token)
    return token
  })

const head = Effect.flatMap(AccessFeed, (feed) => Effect.map(feed.start(NOW), (s) => s.cursor))

const revokedAt = (jti: Jti) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ revoked_at_ms: number | null }>`SELECT revoked_at_ms FROM tokens WHERE jti = ${jti}`
    return rows[0]?.revoked_at_ms
  })

describe("TokenStore on SQLite", () => {
  layer(storageWithClient(dir.file("tokens")))((it) => {
    it.effect("revoke by jti marks the token and publishes TokenRevoked in the same transaction", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const token = yield* issue(accountId)
        const cursor = yield* head
        expect(yield* tokens.revoke(accountId, token.jti, NOW + 5)).toBe("revoked")
        expect(yield* revokedAt(token.jti)).toBe(NOW + 5)
        const changes = (yield* (yield* AccessFeed).since(cursor)).changes
        expect(changes).toEqual([{ _tag: "TokenRevoked", accountId, jti: token.jti, expiresAtMs: token.expiresAtMs }])
      }))

    it.effect("revoking the same jti twice answers already-revoked and publishes once", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const token = yield* issue(accountId)
        const cursor = yield* head
        expect(yield* tokens.revoke(accountId, token.jti, NOW)).toBe("revoked")
        expect(yield* tokens.revoke(accountId, token.jti, NOW + 1)).toBe("already-revoked")
        expect(yield* revokedAt(token.jti)).toBe(NOW)
        expect((yield* (yield* AccessFeed).since(cursor)).changes).toHaveLength(1)
      }))

    it.effect("revoke of another account's jti is not-found and leaves the token valid (tenant isolation)", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const owner = yield* newAccount
        const intruder = yield* newAccount
        const token = yield* issue(owner)
        const cursor = yield* head
        expect(yield* tokens.revoke(intruder, token.jti, NOW)).toBe("not-found")
        expect(yield* revokedAt(token.jti)).toBeNull()
        expect((yield* (yield* AccessFeed).since(cursor)).changes).toEqual([])
      }))

    it.effect("revoke of a jti never issued is not-found", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        expect(yield* tokens.revoke(yield* newAccount, newJti(), NOW)).toBe("not-found")
      }))

    it.effect("revoke of an already expired token changes nothing (0 newly revoked)", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const token = yield* issue(accountId, NOW - 2 * DAY, NOW - DAY)
        expect(yield* tokens.revoke(accountId, token.jti, NOW)).toBe("already-revoked")
        expect(yield* revokedAt(token.jti)).toBeNull()
      }))

    it.effect("revokeAll returns exactly the live tokens recorded before it, and publishes each", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const other = yield* newAccount
        const live = yield* Effect.all([issue(accountId), issue(accountId), issue(accountId, NOW, NOW + 3 * DAY)])
        const alreadyRevoked = yield* issue(accountId)
        yield* tokens.revoke(accountId, alreadyRevoked.jti, NOW)
        yield* issue(accountId, NOW - 2 * DAY, NOW - DAY) // expired
        const othersToken = yield* issue(other)
        const cursor = yield* head

        const revoked = yield* tokens.revokeAll(accountId, NOW + 10)
        const expected = live.map((t) => ({ jti: t.jti, expiresAtMs: t.expiresAtMs }))
        expect([...revoked].sort(byJti)).toEqual([...expected].sort(byJti))
        const changes = (yield* (yield* AccessFeed).since(cursor)).changes
        expect([...changes].sort(byJti)).toEqual(
          expected.map((t) => ({ _tag: "TokenRevoked", accountId, ...t })).sort(byJti)
        )
        expect(yield* revokedAt(othersToken.jti)).toBeNull()
      }))

    it.effect("a token recorded right after revokeAll, in the same millisecond, stays valid", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        yield* issue(accountId, NOW, NOW + DAY)
        yield* tokens.revokeAll(accountId, NOW)
        const after = yield* issue(accountId, NOW, NOW + DAY)
        expect(yield* revokedAt(after.jti)).toBeNull()
        const start = yield* (yield* AccessFeed).start(NOW)
        expect(start.revoked.map((r) => r.jti)).not.toContain(after.jti)
        // and a later revoke-all finds exactly it
        expect(yield* tokens.revokeAll(accountId, NOW + 1)).toEqual([{ jti: after.jti, expiresAtMs: after.expiresAtMs }])
      }))

    it.effect("revokeAll of an account without live tokens returns nothing and publishes nothing", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const cursor = yield* head
        expect(yield* tokens.revokeAll(yield* newAccount, NOW)).toEqual([])
        expect((yield* (yield* AccessFeed).since(cursor)).changes).toEqual([])
      }))

    it.effect("recording a token of an account that does not exist is refused (foreign key)", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(issue(makeAccount().id))
        expect(error._tag).toBe("StorageUnavailable")
      }))
  })
})

const jtiOf = (x: object): string => ("jti" in x && typeof x.jti === "string" ? x.jti : "")
const byJti = (a: object, b: object) => jtiOf(a).localeCompare(jtiOf(b))
