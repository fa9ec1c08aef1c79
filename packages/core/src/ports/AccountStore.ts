/** Port: where accounts and their (hashed) credentials live. */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { Account } from "../Account.js"
import type { AccountNotFound, StorageUnavailable } from "../Errors.js"
import type { AccountId, ApiKey } from "../Ids.js"

/** Hex SHA-256 of an API secret; the secret itself is never stored. */
export type SecretHash = string & { readonly _SecretHash: unique symbol }

/** The credentials storage keeps: the key and the secret's hash. */
export interface StoredCredentials {
  readonly apiKey: ApiKey
  readonly secretHash: SecretHash
}

/** An account found by API key, with the hash its secret is checked against. */
export interface AccountWithCredentials {
  readonly account: Account
  readonly secretHash: SecretHash
}

/**
 * An account as stored, with what the access snapshot keeps besides the domain fields (they are
 * storage facts, not part of the account a caller sees).
 */
export interface StoredAccount {
  readonly account: Account
  /**
   * Starts at 1 and grows by one with every change. Caches keep the highest version they have
   * seen, so a read that was slower than a later change cannot put the older account back.
   */
  readonly version: number
  /**
   * Revoke-all cutoff (epoch ms): tokens whose `iat` is in an earlier second are refused whatever
   * their jti, including tokens signed with the key that storage never recorded.
   */
  readonly tokensRevokedBeforeMs: number | undefined
}

/** The version an account is inserted with. */
export const FIRST_ACCOUNT_VERSION = 1

/** Storage of accounts and their hashed credentials, which storage adapters implement. */
export interface AccountStore {
  readonly insert: (account: Account, credentials: StoredCredentials) => Effect.Effect<void, StorageUnavailable>
  readonly findById: (id: AccountId) => Effect.Effect<Option.Option<StoredAccount>, StorageUnavailable>
  /** Read straight from storage on every token issue: a new account or secret works at once. */
  readonly findByApiKey: (apiKey: ApiKey) => Effect.Effect<Option.Option<AccountWithCredentials>, StorageUnavailable>
  /** The account's API key: rotate-secret keeps it and replaces only the secret's hash. */
  readonly findApiKey: (id: AccountId) => Effect.Effect<Option.Option<ApiKey>, StorageUnavailable>
  /** Oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Account>, StorageUnavailable>
  /**
   * Read-modify-write of one account, atomic, bumping its version. The store also publishes an
   * `AccountChanged` on the access feed in the same transaction, so every instance's snapshot sees it.
   */
  readonly update: (
    id: AccountId,
    change: (account: Account) => Account
  ) => Effect.Effect<StoredAccount, AccountNotFound | StorageUnavailable>
  /** Replaces the secret hash (rotate-secret); the old secret stops working at once. */
  readonly replaceCredentials: (
    id: AccountId,
    credentials: StoredCredentials
  ) => Effect.Effect<void, AccountNotFound | StorageUnavailable>
}

/** The AccountStore port's tag. */
export const AccountStore = Context.GenericTag<AccountStore>("@ridequote/core/AccountStore")
