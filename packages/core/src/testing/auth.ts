/**
 * In-memory storage for the auth ports: accounts, issued tokens, the access change feed,
 * signing keys and a health check, all over one shared state — the way one database backs
 * several server instances. Build the context once with `makeInMemoryStorage` and hand it to
 * two `AccessSnapshot`s to test propagation between "instances"; `InMemoryStorageControl`
 * switches the storage off and on to test failing closed.
 *
 * State lives in plain maps touched only inside `Effect.sync`: each port operation is one
 * synchronous step, so it is atomic like a transaction, and nothing is copied per write.
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { Account } from "../Account.js"
import { AccountNotFound, StorageUnavailable } from "../Errors.js"
import type { AccountId, ApiKey, Jti } from "../Ids.js"
import { KeyId } from "../Ids.js"
import { AccessFeed } from "../ports/AccessFeed.js"
import type { AccessChange } from "../ports/AccessFeed.js"
import { AccountStore } from "../ports/AccountStore.js"
import { FIRST_ACCOUNT_VERSION } from "../ports/AccountStore.js"
import type { AccountWithCredentials, StoredAccount, StoredCredentials } from "../ports/AccountStore.js"
import { SigningKeys } from "../ports/SigningKeys.js"
import type { SigningKey } from "../ports/SigningKeys.js"
import { StorageHealth } from "../ports/StorageHealth.js"
import { TokenStore } from "../ports/TokenStore.js"
import type { RevokeOutcome } from "../ports/TokenStore.js"
import { Randomness } from "../Randomness.js"
import type { TokenRecord } from "../Token.js"

/** Test control over the in-memory storage. */
export interface InMemoryStorageControl {
  /** While off, every storage operation fails with StorageUnavailable (signing keys still answer from memory). */
  readonly setAvailable: (available: boolean) => Effect.Effect<void>
  /** The feed as recorded so far, oldest first. */
  readonly feed: Effect.Effect<ReadonlyArray<AccessChange>>
}

export const InMemoryStorageControl = Context.GenericTag<InMemoryStorageControl>(
  "@ridequote/core/testing/InMemoryStorageControl"
)

/** Everything `InMemoryStorageLive` provides. */
export type InMemoryStorage = AccountStore | TokenStore | AccessFeed | SigningKeys | StorageHealth | InMemoryStorageControl

/** Largest batch `AccessFeed.since` returns, as a real store bounds its reads. */
const FEED_BATCH = 1000

const KEY_BYTES = 32
const KID_BYTES = 9

/** A signing ring held in memory: a random 256-bit key, rotation keeps every older key verifying. */
export const makeInMemorySigningKeys: Effect.Effect<SigningKeys, never, Randomness> = Effect.gen(function*() {
  const randomness = yield* Randomness
  const newKey = Effect.map(
    Effect.all({ secret: randomness.bytes(KEY_BYTES), kid: randomness.bytes(KID_BYTES) }),
    ({ kid, secret }): SigningKey => ({
      kid: KeyId.make(Buffer.from(kid).toString("base64url")),
      secret: Redacted.make(secret)
    })
  )
  const first = yield* newKey
  let current = first
  const verifying = new Map<string, SigningKey>([[first.kid, first]])
  return SigningKeys.of({
    ring: Effect.sync(() => ({ current, verifying: new Map(verifying) })),
    rotate: Effect.map(newKey, (key) => {
      verifying.set(key.kid, key)
      current = key
      return key
    })
  })
})

/** `makeInMemorySigningKeys` as a layer. */
export const InMemorySigningKeys: Layer.Layer<SigningKeys, never, Randomness> = Layer.effect(
  SigningKeys,
  makeInMemorySigningKeys
)

interface AccountRow {
  account: Account
  credentials: StoredCredentials
  version: number
  tokensRevokedBeforeMs: number | undefined
}

const storedOf = (row: AccountRow): StoredAccount => ({
  account: row.account,
  version: row.version,
  tokensRevokedBeforeMs: row.tokensRevokedBeforeMs
})

interface StoredToken {
  readonly record: TokenRecord
  revokedAtMs: number | undefined
}

/** One shared in-memory storage; every call builds a new, empty one. */
export const makeInMemoryStorage: Effect.Effect<Context.Context<InMemoryStorage>, never, Randomness> = Effect.gen(
  function*() {
    const signingKeys = yield* makeInMemorySigningKeys
    const accounts = new Map<AccountId, AccountRow>()
    const accountByKey = new Map<ApiKey, AccountId>()
    const tokens = new Map<Jti, StoredToken>()
    const tokensByAccount = new Map<AccountId, Set<Jti>>()
    const feed: Array<AccessChange> = []
    let available = true

    const unavailable = new StorageUnavailable({ message: "in-memory storage is switched off" })
    /** One storage operation: atomic, and failing while the storage is off. */
    const op = <A>(run: () => A): Effect.Effect<A, StorageUnavailable> =>
      Effect.suspend(() => (available ? Effect.sync(run) : Effect.fail(unavailable)))
    const opOrFail = <A, E>(run: () => Effect.Effect<A, E>): Effect.Effect<A, E | StorageUnavailable> =>
      Effect.flatten(op(run))

    const notFound = (id: AccountId) => new AccountNotFound({ message: `no account with id ${id}` })

    const accountStore = AccountStore.of({
      insert: (account, credentials) =>
        op(() => {
          accounts.set(account.id, {
            account,
            credentials,
            version: FIRST_ACCOUNT_VERSION,
            tokensRevokedBeforeMs: undefined
          })
          accountByKey.set(credentials.apiKey, account.id)
        }),
      findById: (id) => op(() => Option.map(Option.fromNullable(accounts.get(id)), storedOf)),
      findByApiKey: (apiKey) =>
        op(() =>
          Option.flatMap(Option.fromNullable(accountByKey.get(apiKey)), (id) =>
            Option.map(
              Option.fromNullable(accounts.get(id)),
              (s): AccountWithCredentials => ({ account: s.account, secretHash: s.credentials.secretHash })
            ))
        ),
      findApiKey: (id) => op(() => Option.map(Option.fromNullable(accounts.get(id)), (s) => s.credentials.apiKey)),
      list: op(() => [...accounts.values()].map((s) => s.account)),
      update: (id, change) =>
        opOrFail(() => {
          const stored = accounts.get(id)
          if (stored === undefined) return Effect.fail(notFound(id))
          stored.account = change(stored.account)
          stored.version += 1
          feed.push({ _tag: "AccountChanged", accountId: id })
          return Effect.succeed(storedOf(stored))
        }),
      replaceCredentials: (id, credentials) =>
        opOrFail(() => {
          const stored = accounts.get(id)
          if (stored === undefined) return Effect.fail(notFound(id))
          accountByKey.delete(stored.credentials.apiKey)
          stored.credentials = credentials
          accountByKey.set(credentials.apiKey, id)
          return Effect.void
        })
    })

    const revokeOne = (stored: StoredToken, atMs: number) => {
      stored.revokedAtMs = atMs
      const { accountId, expiresAtMs, jti } = stored.record
      feed.push({ _tag: "TokenRevoked", accountId, jti, expiresAtMs })
    }

    const tokenStore = TokenStore.of({
      record: (record) =>
        op(() => {
          tokens.set(record.jti, { record, revokedAtMs: undefined })
          const own = tokensByAccount.get(record.accountId) ?? new Set<Jti>()
          own.add(record.jti)
          tokensByAccount.set(record.accountId, own)
        }),
      revoke: (accountId, jti, atMs) =>
        op((): RevokeOutcome => {
          const stored = tokens.get(jti)
          // Another account's token is indistinguishable from a missing one (tenant isolation).
          if (stored === undefined || stored.record.accountId !== accountId) return { _tag: "NotFound" }
          const { expiresAtMs } = stored.record
          // An expired token no longer verifies: revoking it changes nothing (as in the SQL store).
          if (stored.revokedAtMs !== undefined || expiresAtMs <= atMs) return { _tag: "AlreadyRevoked", expiresAtMs }
          revokeOne(stored, atMs)
          return { _tag: "Revoked", expiresAtMs }
        }),
      revokeAll: (accountId, atMs) =>
        op(() => {
          const revoked: Array<{ readonly jti: Jti; readonly expiresAtMs: number }> = []
          for (const jti of tokensByAccount.get(accountId) ?? []) {
            const stored = tokens.get(jti)
            if (stored === undefined || stored.revokedAtMs !== undefined || stored.record.expiresAtMs <= atMs) continue
            revokeOne(stored, atMs)
            revoked.push({ jti, expiresAtMs: stored.record.expiresAtMs })
          }
          const account = accounts.get(accountId)
          if (account === undefined) return { tokens: revoked, account: Option.none() }
          account.tokensRevokedBeforeMs = Math.max(account.tokensRevokedBeforeMs ?? atMs, atMs)
          account.version += 1
          feed.push({ _tag: "AccountChanged", accountId })
          return { tokens: revoked, account: Option.some(storedOf(account)) }
        })
    })

    // The cursor is the number of feed entries seen: positions only grow.
    const accessFeed = AccessFeed.of({
      start: (nowMs) =>
        op(() => ({
          cursor: feed.length,
          revoked: [...tokens.values()]
            .filter((t) => t.revokedAtMs !== undefined && t.record.expiresAtMs > nowMs)
            .map((t) => ({ jti: t.record.jti, expiresAtMs: t.record.expiresAtMs }))
        })),
      since: (cursor) =>
        op(() => {
          const changes = feed.slice(cursor, cursor + FEED_BATCH)
          return { cursor: cursor + changes.length, changes }
        })
    })

    const control = InMemoryStorageControl.of({
      setAvailable: (up) => Effect.sync(() => void (available = up)),
      feed: Effect.sync(() => [...feed])
    })

    return Context.make(AccountStore, accountStore).pipe(
      Context.add(TokenStore, tokenStore),
      Context.add(AccessFeed, accessFeed),
      Context.add(SigningKeys, signingKeys),
      Context.add(StorageHealth, StorageHealth.of({ ping: op(() => undefined) })),
      Context.add(InMemoryStorageControl, control)
    )
  }
)

/**
 * AccountStore, TokenStore, AccessFeed, SigningKeys and StorageHealth over one fresh in-memory
 * state (plus `InMemoryStorageControl`). Each build is a separate storage; to share one between
 * two instances, build `makeInMemoryStorage` once and provide its context to both.
 */
export const InMemoryStorageLive: Layer.Layer<InMemoryStorage, never, Randomness> = Layer.effectContext(
  makeInMemoryStorage
)
