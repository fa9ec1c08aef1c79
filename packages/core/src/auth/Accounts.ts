/** Operator actions on accounts (the `ridequote accounts …` commands, and embedders' admin code). */
import { Context } from "effect"
import type { Effect, Redacted } from "effect"
import type { Account, AccountStatus } from "../Account.js"
import type { AccountNotFound, BehaviorNotFound, InvalidRequest, StorageUnavailable } from "../Errors.js"
import type { AccountId, ApiKey } from "../Ids.js"

export interface NewAccount {
  readonly name: string
  readonly status?: AccountStatus | undefined
  readonly tokenTtlSeconds?: number | undefined
  readonly defaultBehavior?: string | undefined
}

export interface CreatedAccount {
  readonly account: Account
  readonly apiKey: ApiKey
  /** Shown once: only its hash is stored. */
  readonly apiSecret: Redacted.Redacted<string>
}

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

export const Accounts = Context.GenericTag<Accounts>("@ridequote/core/Accounts")
