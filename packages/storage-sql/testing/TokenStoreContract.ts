import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import type { AccountId, Jti, TokenRecord } from "@ridequote/core"
import { AccessFeed, TokenStore } from "@ridequote/core"
import { Effect, Option } from "effect"
import type { StorageUnderTest } from "./fixtures.js"
import { DAY, makeAccount, newAccount, newJti, NOW, storageWithClient } from "./fixtures.js"


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
    const rows = yield* sql<{ revoked_at_ms: number | string | null }>`SELECT revoked_at_ms FROM tokens WHERE jti = ${jti}`
    const at = rows[0]?.revoked_at_ms
    // node-postgres returns BIGINT as a string
    return typeof at === "string" ? Number(at) : at
  })

export const tokenStoreContract = (h: StorageUnderTest) =>
describe(`TokenStore on ${h.name}`, () => {
  layer(storageWithClient(h, "tokens"))((it) => {
    it.effect("revoke by jti marks the token and publishes TokenRevoked in the same transaction", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const token = yield* issue(accountId)
        const cursor = yield* head
        expect(yield* tokens.revoke(accountId, token.jti, NOW + 5)).toEqual({ _tag: "Revoked", expiresAtMs: token.expiresAtMs })
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
        expect(yield* tokens.revoke(accountId, token.jti, NOW)).toEqual({ _tag: "Revoked", expiresAtMs: token.expiresAtMs })
        expect(yield* tokens.revoke(accountId, token.jti, NOW + 1)).toEqual({
          _tag: "AlreadyRevoked",
          expiresAtMs: token.expiresAtMs
        })
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
        expect(yield* tokens.revoke(intruder, token.jti, NOW)).toEqual({ _tag: "NotFound" })
        expect(yield* revokedAt(token.jti)).toBeNull()
        expect((yield* (yield* AccessFeed).since(cursor)).changes).toEqual([])
      }))

    it.effect("revoke of a jti never issued is not-found", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        expect(yield* tokens.revoke(yield* newAccount, newJti(), NOW)).toEqual({ _tag: "NotFound" })
      }))

    it.effect("revoke of an already expired token changes nothing (0 newly revoked)", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const token = yield* issue(accountId, NOW - 2 * DAY, NOW - DAY)
        expect(yield* tokens.revoke(accountId, token.jti, NOW)).toEqual({
          _tag: "AlreadyRevoked",
          expiresAtMs: token.expiresAtMs
        })
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

        const revoked = (yield* tokens.revokeAll(accountId, NOW + 10)).tokens
        const expected = live.map((t) => ({ jti: t.jti, expiresAtMs: t.expiresAtMs }))
        expect([...revoked].sort(byJti)).toEqual([...expected].sort(byJti))
        const changes = (yield* (yield* AccessFeed).since(cursor)).changes
        // each jti, then the account (its cutoff moved), all in the one transaction
        expect([...changes.slice(0, -1)].sort(byJti)).toEqual(
          expected.map((t) => ({ _tag: "TokenRevoked", accountId, ...t })).sort(byJti)
        )
        expect(changes.at(-1)).toEqual({ _tag: "AccountChanged", accountId })
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
        expect((yield* tokens.revokeAll(accountId, NOW + 1)).tokens).toEqual([
          { jti: after.jti, expiresAtMs: after.expiresAtMs }
        ])
      }))

    it.effect("revokeAll of an account without live tokens revokes no jti but still publishes its cutoff", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const accountId = yield* newAccount
        const cursor = yield* head
        const result = yield* tokens.revokeAll(accountId, NOW)
        expect(result.tokens).toEqual([])
        expect(Option.map(result.account, (s) => s.tokensRevokedBeforeMs)).toEqual(Option.some(NOW))
        expect((yield* (yield* AccessFeed).since(cursor)).changes).toEqual([{ _tag: "AccountChanged", accountId }])
      }))

    it.effect("revokeAll of an account that does not exist changes and publishes nothing", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenStore
        const cursor = yield* head
        expect(yield* tokens.revokeAll(makeAccount().id, NOW)).toEqual({ tokens: [], account: Option.none() })
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
