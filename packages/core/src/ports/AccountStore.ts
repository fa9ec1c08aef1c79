/** Port: where accounts and their (hashed) credentials live. */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { Account } from "../Account.js"
import type { AccountNotFound, StorageUnavailable } from "../Errors.js"
import type { AccountId, ApiKey } from "../Ids.js"

/** Hex SHA-256 of an API secret; the secret itself is never stored. */
export type SecretHash = string & { readonly _SecretHash: unique symbol }

export interface StoredCredentials {
  readonly apiKey: ApiKey
  readonly secretHash: SecretHash
}

export interface AccountWithCredentials {
  readonly account: Account
  readonly secretHash: SecretHash
}

export interface AccountStore {
  readonly insert: (account: Account, credentials: StoredCredentials) => Effect.Effect<void, StorageUnavailable>
  readonly findById: (id: AccountId) => Effect.Effect<Option.Option<Account>, StorageUnavailable>
  /** Read straight from storage on every token issue: a new account or secret works at once. */
  readonly findByApiKey: (apiKey: ApiKey) => Effect.Effect<Option.Option<AccountWithCredentials>, StorageUnavailable>
  /** The account's API key: rotate-secret keeps it and replaces only the secret's hash. */
  readonly findApiKey: (id: AccountId) => Effect.Effect<Option.Option<ApiKey>, StorageUnavailable>
  /** Oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Account>, StorageUnavailable>
  /**
   * Read-modify-write of one account, atomic. The store also publishes an `AccountChanged`
   * on the access feed in the same transaction, so every instance's snapshot sees it.
   */
  readonly update: (
    id: AccountId,
    change: (account: Account) => Account
  ) => Effect.Effect<Account, AccountNotFound | StorageUnavailable>
  /** Replaces the secret hash (rotate-secret); the old secret stops working at once. */
  readonly replaceCredentials: (
    id: AccountId,
    credentials: StoredCredentials
  ) => Effect.Effect<void, AccountNotFound | StorageUnavailable>
}

export const AccountStore = Context.GenericTag<AccountStore>("@ridequote/core/AccountStore")
