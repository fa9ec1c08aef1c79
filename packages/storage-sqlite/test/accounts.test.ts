import { describe, expect, layer } from "@effect/vitest"
import type { ApiKey } from "@ridequote/core"
import { AccessFeed, AccountStore } from "@ridequote/core"
import { Effect, Option } from "effect"
import { makeAccount, newAccountId, newCredentials, storageWithClient, tempDirectory } from "./fixtures.js"

const dir = tempDirectory()

describe("AccountStore on SQLite", () => {
  layer(storageWithClient(dir.file("accounts")))((it) => {
    it.effect("an inserted account is found by id and by API key, with its secret hash", () =>
      Effect.gen(function*() {
        const store = yield* AccountStore
        const account = makeAccount({ name: "Find Me", tokenTtlSeconds: 3600 })
        const credentials = newCredentials()
        yield* store.insert(account, credentials)
        expect(yield* store.findById(account.id)).toEqual(Option.some(account))
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
        expect(blocked.status).toBe("Blocked")
        expect(yield* store.findById(account.id)).toEqual(Option.some(blocked))
        const after = yield* feed.since(cursor)
        expect(after.changes).toEqual([{ _tag: "AccountChanged", accountId: account.id }])
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
