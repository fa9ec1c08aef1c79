import { describe, expect, layer } from "@effect/vitest"
import type { ApiKey } from "@ridequote/core"
import { AccessFeed, AccountStore, FIRST_ACCOUNT_VERSION, TokenStore } from "@ridequote/core"
import { Effect, Option } from "effect"
import type { StorageUnderTest } from "./fixtures.js"
import { makeAccount, newAccountId, newCredentials, storageWithClient } from "./fixtures.js"

export const accountStoreContract = (h: StorageUnderTest) =>
describe(`AccountStore on ${h.name}`, () => {
  layer(storageWithClient(h, "accounts"))((it) => {
    it.effect("an inserted account is found by id and by API key, with its secret hash", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const account = makeAccount({ name: "Find Me", tokenTtlSeconds: 3600 })
        const credentials = newCredentials()
        yield* store.insert(account, credentials)
        expect(yield* store.findById(account.id)).toEqual(
          Option.some({ account, version: FIRST_ACCOUNT_VERSION, tokensRevokedBeforeMs: undefined })
        )
        expect(yield* store.findByApiKey(credentials.apiKey)).toEqual(
          Option.some({ account, secretHash: credentials.secretHash })
        )
        expect(yield* store.findApiKey(account.id)).toEqual(Option.some(credentials.apiKey))
      }))

    it.effect("an unknown id or key finds nothing", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        expect(yield* store.findById(newAccountId())).toEqual(Option.none())
        expect(yield* store.findByApiKey(newCredentials().apiKey)).toEqual(Option.none())
        expect(yield* store.findApiKey(newAccountId())).toEqual(Option.none())
      }))

    it.effect("list returns accounts oldest first", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const later = makeAccount({ createdAt: "2031-01-02T00:00:00.000Z" })
        const earlier = makeAccount({ createdAt: "2031-01-01T00:00:00.000Z" })
        yield* store.insert(later, newCredentials())
        yield* store.insert(earlier, newCredentials())
        const ids = (yield* store.list).map((a) => a.id)
        expect(ids.indexOf(earlier.id)).toBeLessThan(ids.indexOf(later.id))
        const created = (yield* store.list).map((a) => a.createdAt.epochMillis)
        expect(created).toEqual([...created].sort((a, b) => a - b))
      }))

    it.effect("a second account with the same API key is refused as StorageUnavailable", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const credentials = newCredentials()
        yield* store.insert(makeAccount(), credentials)
        const error = yield* Effect.flip(store.insert(makeAccount(), credentials))
        expect(error._tag).toBe("StorageUnavailable")
      }))

    it.effect("update applies the change atomically and publishes AccountChanged on the feed", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const feed = yield* AccessFeed
        const account = makeAccount()
        yield* store.insert(account, newCredentials())
        const { cursor } = yield* drain(0)
        const blocked = yield* store.update(account.id, (a) => ({ ...a, status: "Blocked" as const }))
        expect(blocked.account.status).toBe("Blocked")
        expect(blocked.version).toBe(FIRST_ACCOUNT_VERSION + 1)
        expect(yield* store.findById(account.id)).toEqual(Option.some(blocked))
        const after = yield* feed.since(cursor)
        expect(after.changes).toEqual([{ _tag: "AccountChanged", accountId: account.id }])
      }))

    it.effect("concurrent updates of one account lose none: each bumps the version once", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const account = makeAccount({ tokenTtlSeconds: 3600 })
        yield* store.insert(account, newCredentials())
        const writers = 12
        const results = yield* Effect.forEach(
          Array.from({ length: writers }),
          () => store.update(account.id, (a) => ({ ...a, tokenTtlSeconds: a.tokenTtlSeconds + 1 })),
          { concurrency: "unbounded" }
        )
        const found = yield* store.findById(account.id)
        expect(Option.map(found, (s) => [s.account.tokenTtlSeconds, s.version])).toEqual(
          Option.some([3600 + writers, FIRST_ACCOUNT_VERSION + writers])
        )
        // every writer saw a different version: no two read-modify-writes overlapped
        expect(new Set(results.map((r) => r.version)).size).toBe(writers)
      }))

    it.effect("revoke-all sets the account's cutoff and bumps its version; the cutoff never moves back", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const tokens = yield* TokenStore
        const account = makeAccount()
        yield* store.insert(account, newCredentials())
        const first = yield* tokens.revokeAll(account.id, 5_000)
        expect(Option.map(first.account, (s) => [s.tokensRevokedBeforeMs, s.version])).toEqual(
          Option.some([5_000, FIRST_ACCOUNT_VERSION + 1])
        )
        const earlier = yield* tokens.revokeAll(account.id, 4_000)
        expect(Option.map(earlier.account, (s) => [s.tokensRevokedBeforeMs, s.version])).toEqual(
          Option.some([5_000, FIRST_ACCOUNT_VERSION + 2])
        )
        // a later settings change keeps the cutoff
        const renamed = yield* store.update(account.id, (a) => ({ ...a, name: "Renamed" }))
        expect(renamed.tokensRevokedBeforeMs).toBe(5_000)
        expect(yield* store.findById(account.id)).toEqual(Option.some(renamed))
      }))

    it.effect("update of an unknown account fails AccountNotFound and publishes nothing", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const feed = yield* AccessFeed
        const { cursor } = yield* drain(0)
        const error = yield* Effect.flip(store.update(newAccountId(), (a) => a))
        expect(error._tag).toBe("AccountNotFound")
        expect((yield* feed.since(cursor)).changes).toEqual([])
      }))

    it.effect("rotate-secret replaces the hash: the old one is gone, the key is kept", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const account = makeAccount()
        const first = newCredentials()
        yield* store.insert(account, first)
        const apiKey: ApiKey = first.apiKey
        const rotated = { apiKey, secretHash: newCredentials().secretHash }
        yield* store.replaceCredentials(account.id, rotated)
        const found = yield* store.findByApiKey(apiKey)
        expect(Option.map(found, (f) => f.secretHash)).toEqual(Option.some(rotated.secretHash))
        expect(rotated.secretHash).not.toBe(first.secretHash)
      }))

    it.effect("replacing the credentials of an unknown account fails AccountNotFound", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const error = yield* Effect.flip(store.replaceCredentials(newAccountId(), newCredentials()))
        expect(error._tag).toBe("AccountNotFound")
      }))
  })
})

/** Reads the feed to its head. */
const drain = (cursor: number): Effect.Effect<{ readonly cursor: number }, unknown, AccessFeed> =>
  Effect.gen(function*() {
    const feed = yield* AccessFeed
    const batch = yield* feed.since(cursor)
    return batch.changes.length === 0 ? { cursor } : yield* drain(batch.cursor)
  })
