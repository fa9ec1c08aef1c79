/** Operator actions on accounts (the `ridequote accounts …` commands, and embedders' admin code). */
import { Clock, Context, DateTime, Effect, Either, Layer, Option, ParseResult, Schema } from "effect"
import type { Redacted } from "effect"
import { AccountName, DEFAULT_TOKEN_TTL_SECONDS, TokenTtlSeconds } from "../Account.js"
import type { Account, AccountStatus } from "../Account.js"
import { AccountNotFound, InvalidRequest } from "../Errors.js"
import type { BehaviorNotFound, StorageUnavailable } from "../Errors.js"
import { AccountId } from "../Ids.js"
import type { ApiKey, BehaviorId } from "../Ids.js"
import { AccountStore, FIRST_ACCOUNT_VERSION } from "../ports/AccountStore.js"
import { TokenStore } from "../ports/TokenStore.js"
import { Behaviors, DEFAULT_BEHAVIOR } from "../pricing/Behaviors.js"
import { Randomness } from "../Randomness.js"
import { AccessSnapshot } from "./AccessSnapshot.js"
import { Credentials } from "./Credentials.js"
import { applyRevokedAll } from "./Tokens.js"

/** What `Accounts.create` takes; everything but the name has a default (Active, 86400 s, market-median). */
export interface NewAccount {
  readonly name: string
  readonly status?: AccountStatus | undefined
  readonly tokenTtlSeconds?: number | undefined
  readonly defaultBehavior?: string | undefined
}

/** A created account with its credentials. */
export interface CreatedAccount {
  readonly account: Account
  readonly apiKey: ApiKey
  /** Shown once: only its hash is stored. */
  readonly apiSecret: Redacted.Redacted<string>
}

/**
 * Operator actions on accounts: create, read, change status, token lifetime, behaviors and
 * secret. Every change reaches this instance's access snapshot at once, and other instances
 * through the change feed.
 */
export interface Accounts {
  readonly create: (input: NewAccount) => Effect.Effect<CreatedAccount, InvalidRequest | BehaviorNotFound | StorageUnavailable>
  readonly get: (id: AccountId) => Effect.Effect<Account, AccountNotFound | StorageUnavailable>
  readonly list: Effect.Effect<ReadonlyArray<Account>, StorageUnavailable>
  /** With `revokeTokens`, also revokes every token the account holds (an immediate block). */
  readonly setStatus: (
    id: AccountId,
    status: AccountStatus,
    options?: { readonly revokeTokens?: boolean }
  ) => Effect.Effect<{ readonly account: Account; readonly revoked: number }, AccountNotFound | StorageUnavailable>
  readonly setTokenTtl: (id: AccountId, seconds: number) => Effect.Effect<Account, AccountNotFound | InvalidRequest | StorageUnavailable>
  readonly enableBehavior: (id: AccountId, behavior: string) => Effect.Effect<Account, AccountNotFound | BehaviorNotFound | StorageUnavailable>
  readonly setDefaultBehavior: (id: AccountId, behavior: string) => Effect.Effect<Account, AccountNotFound | BehaviorNotFound | StorageUnavailable>
  /** New secret, same key; the old secret stops working at once. */
  readonly rotateSecret: (id: AccountId) => Effect.Effect<{ readonly apiKey: ApiKey; readonly apiSecret: Redacted.Redacted<string> }, AccountNotFound | StorageUnavailable>
}

/** The Accounts service's tag. */
export const Accounts = Context.GenericTag<Accounts>("@ridequote/core/Accounts")

/** Decodes one operator-supplied field; a failure names the field and says what is allowed. */
const decodeField = <A, I>(schema: Schema.Schema<A, I>, field: string, value: unknown): Either.Either<A, InvalidRequest> =>
  Either.mapLeft(Schema.decodeUnknownEither(schema)(value), (error) => {
    const message = ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.message ?? `invalid ${field}`
    return new InvalidRequest({ message: `${field}: ${message}`, details: [{ path: [field], message }] })
  })

const notFound = (id: AccountId) => new AccountNotFound({ message: `no account with id ${id}` })

/** Builds the Accounts service from the storage ports and the other auth services. */
export const makeAccounts = Effect.gen(function*() {
  const store = yield* AccountStore
  const tokenStore = yield* TokenStore
  const credentials = yield* Credentials
  const behaviors = yield* Behaviors
  const snapshot = yield* AccessSnapshot
  const randomness = yield* Randomness

  /** Every change goes through here, so this instance's snapshot sees it at once (others via the feed). */
  const update = (id: AccountId, change: (account: Account) => Account) =>
    Effect.map(Effect.tap(store.update(id, change), snapshot.accountChanged), (stored) => stored.account)

  /** The registry's own id for a behavior, or BehaviorNotFound. */
  const knownBehavior = (id: string): Effect.Effect<BehaviorId, BehaviorNotFound> =>
    Effect.map(behaviors.get(id), (behavior) => behavior.id)

  const create = (input: NewAccount) =>
    Effect.gen(function*() {
      const name = yield* decodeField(AccountName, "name", input.name)
      const tokenTtlSeconds = yield* decodeField(
        TokenTtlSeconds,
        "tokenTtlSeconds",
        input.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS
      )
      const defaultBehavior = yield* knownBehavior(input.defaultBehavior ?? DEFAULT_BEHAVIOR)
      const id = AccountId.make(yield* randomness.uuidV4)
      const createdAt = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
      const account: Account = {
        id,
        name,
        status: input.status ?? "Active",
        tokenTtlSeconds,
        pricing: { defaultBehavior, enabledBehaviors: [] },
        createdAt
      }
      const { apiKey, apiSecret } = yield* credentials.generate
      yield* store.insert(account, { apiKey, secretHash: credentials.hash(apiSecret) })
      yield* snapshot.accountChanged({ account, version: FIRST_ACCOUNT_VERSION, tokensRevokedBeforeMs: undefined })
      const created: CreatedAccount = { account, apiKey, apiSecret }
      return created
    })

  const get = (id: AccountId) =>
    Effect.flatMap(
      store.findById(id),
      Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: (stored) => Effect.succeed(stored.account) })
    )

  const setStatus = (id: AccountId, status: AccountStatus, options?: { readonly revokeTokens?: boolean }) =>
    Effect.gen(function*() {
      // Status first: from here on the account cannot obtain new tokens, so revoke-all leaves none behind.
      const account = yield* update(id, (a) => ({ ...a, status }))
      if (options?.revokeTokens !== true) return { account, revoked: 0 }
      const revoked = yield* tokenStore.revokeAll(id, yield* Clock.currentTimeMillis)
      yield* applyRevokedAll(snapshot, revoked)
      return { account, revoked: revoked.tokens.length }
    })

  const setTokenTtl = (id: AccountId, seconds: number) =>
    Effect.flatMap(
      decodeField(TokenTtlSeconds, "tokenTtlSeconds", seconds),
      (tokenTtlSeconds) => update(id, (a) => ({ ...a, tokenTtlSeconds }))
    )

  const enableBehavior = (id: AccountId, behavior: string) =>
    Effect.flatMap(knownBehavior(behavior), (b) =>
      update(id, (a) =>
        // Idempotent; the default is priced anyway, so it is never listed twice.
        a.pricing.defaultBehavior === b || a.pricing.enabledBehaviors.includes(b)
          ? a
          : { ...a, pricing: { ...a.pricing, enabledBehaviors: [...a.pricing.enabledBehaviors, b] } }))

  const setDefaultBehavior = (id: AccountId, behavior: string) =>
    Effect.flatMap(knownBehavior(behavior), (b) =>
      update(id, (a) => ({
        ...a,
        // The new default leaves the enabled list (it would be priced twice); the old one is not added.
        pricing: { defaultBehavior: b, enabledBehaviors: a.pricing.enabledBehaviors.filter((e) => e !== b) }
      })))

  const rotateSecret = (id: AccountId) =>
    Effect.gen(function*() {
      const apiKey = yield* Effect.flatMap(
        store.findApiKey(id),
        Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed })
      )
      const apiSecret = yield* credentials.generateSecret
      yield* store.replaceCredentials(id, { apiKey, secretHash: credentials.hash(apiSecret) })
      return { apiKey, apiSecret }
    })

  return Accounts.of({ create, get, list: store.list, setStatus, setTokenTtl, enableBehavior, setDefaultBehavior, rotateSecret })
})

/** Accounts as a layer (part of `makeEngineLive`). */
export const AccountsLive: Layer.Layer<
  Accounts,
  never,
  AccountStore | TokenStore | Credentials | Behaviors | AccessSnapshot | Randomness
> = Layer.effect(Accounts, makeAccounts)
