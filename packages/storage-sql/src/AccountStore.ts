/**
 * AccountStore over SQL: accounts with their API key and secret hash in one row, plus the
 * version (bumped by every change) and the revoke-all cutoff the access snapshot needs.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { AccountId, ApiKey, SecretHash, StoredAccount, StoredCredentials } from "@ridequote/core"
import {
  Account,
  AccountNotFound,
  AccountStore,
  ApiKey as ApiKeySchema,
  FIRST_ACCOUNT_VERSION,
  StorageUnavailable
} from "@ridequote/core"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { DbInt, isoFromMillis, millisOf } from "./Columns.js"
import { dialect } from "./Dialect.js"
import { appendChanges } from "./FeedRows.js"
import { orUnavailable } from "./Unavailable.js"

const AccountRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.String,
  token_ttl_seconds: DbInt,
  pricing: Schema.parseJson(),
  created_at_ms: DbInt
})

/** Row → core's `Account`, validated by core's schema (a row that does not decode is a storage failure). */
const AccountFromRow = Schema.transform(AccountRow, Schema.encodedSchema(Account), {
  strict: false,
  decode: (row) => ({
    id: row.id,
    name: row.name,
    status: row.status,
    tokenTtlSeconds: row.token_ttl_seconds,
    pricing: row.pricing,
    createdAt: isoFromMillis(row.created_at_ms)
  }),
  encode: (account) => ({
    id: account.id,
    name: account.name,
    status: account.status,
    token_ttl_seconds: account.tokenTtlSeconds,
    pricing: account.pricing,
    created_at_ms: Date.parse(account.createdAt)
  })
}).pipe(Schema.compose(Account))

const decodeAccount = Schema.decodeUnknown(AccountFromRow)
const AccessColumns = Schema.Struct({ version: DbInt, tokens_revoked_before_ms: Schema.NullOr(DbInt) })
const decodeAccessColumns = Schema.decodeUnknown(AccessColumns)

/** A row read with `SELECT *` → the account with its version and cutoff. */
export const decodeStoredAccount = (row: unknown) =>
  Effect.map(
    Effect.all({ account: decodeAccount(row), access: decodeAccessColumns(row) }),
    ({ access, account }): StoredAccount => ({
      account,
      version: access.version,
      tokensRevokedBeforeMs: access.tokens_revoked_before_ms ?? undefined
    })
  )
const decodeAccounts = Schema.decodeUnknown(Schema.Array(AccountFromRow))
const encodeAccount = Schema.encode(Account)

const CredentialsRow = Schema.Struct({ secret_hash: Schema.String })
const ApiKeyRow = Schema.Struct({ api_key: ApiKeySchema })

/** The columns an account's settings occupy (everything but its identity and credentials). */
const settingsColumns = (account: Account) =>
  Effect.map(encodeAccount(account), (encoded) => ({
    name: encoded.name,
    status: encoded.status,
    token_ttl_seconds: encoded.tokenTtlSeconds,
    pricing: JSON.stringify(encoded.pricing)
  }))

export const makeAccountStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const d = yield* dialect

  const notFound = (id: AccountId) => new AccountNotFound({ message: `no account ${id}` })

  const insert = (account: Account, credentials: StoredCredentials) =>
    Effect.gen(function*() {
      const settings = yield* settingsColumns(account)
      yield* sql`INSERT INTO accounts ${
        sql.insert({
          id: account.id,
          ...settings,
          created_at_ms: millisOf(account.createdAt),
          version: FIRST_ACCOUNT_VERSION,
          api_key: credentials.apiKey,
          secret_hash: credentials.secretHash
        })
      }`
    }).pipe(orUnavailable("account insert"))

  const findById = (id: AccountId) =>
    sql`SELECT * FROM accounts WHERE id = ${id}`.pipe(
      Effect.flatMap((rows) => rows.length === 0 ? Effect.succeedNone : Effect.asSome(decodeStoredAccount(rows[0]))),
      orUnavailable("account lookup")
    )

  const findByApiKey = (apiKey: ApiKey) =>
    sql`SELECT * FROM accounts WHERE api_key = ${apiKey}`.pipe(
      Effect.flatMap((rows) => {
        const row = rows[0]
        if (row === undefined) return Effect.succeedNone
        return Effect.all({ account: decodeAccount(row), credentials: Schema.decodeUnknown(CredentialsRow)(row) }).pipe(
          Effect.map(({ account, credentials }) =>
            Option.some({ account, secretHash: credentials.secret_hash as SecretHash })
          )
        )
      }),
      orUnavailable("account lookup by API key")
    )

  const findApiKey = (id: AccountId) =>
    sql`SELECT api_key FROM accounts WHERE id = ${id}`.pipe(
      Effect.flatMap((rows) =>
        rows.length === 0
          ? Effect.succeedNone
          : Effect.map(Schema.decodeUnknown(ApiKeyRow)(rows[0]), (row) => Option.some(row.api_key))
      ),
      orUnavailable("API key lookup")
    )

  const list = sql`SELECT * FROM accounts ORDER BY created_at_ms, id`.pipe(
    Effect.flatMap(decodeAccounts),
    orUnavailable("account list")
  )

  const update = (id: AccountId, change: (account: Account) => Account) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      // The feed lock and row go first: a write as the first statement makes SQLite wait for the
      // write lock (busy_timeout), where a transaction that read first could not upgrade and would
      // fail; on PostgreSQL the lock serialises every feed writer, this account's included.
      yield* d.lockFeed
      yield* appendChanges(sql, d, [{ kind: "AccountChanged", account_id: id, jti: null, expires_at_ms: null, at_ms: now }])
      const rows = yield* sql`SELECT * FROM accounts WHERE id = ${id}`
      if (rows.length === 0) return yield* notFound(id)
      const current = yield* decodeStoredAccount(rows[0])
      const changed = change(current.account)
      const settings = yield* settingsColumns(changed)
      const version = current.version + 1
      // Compare-and-set on the version: even a writer that bypassed the feed lock cannot make
      // this read-modify-write lose another one's change.
      const written = yield* sql`UPDATE accounts SET ${sql.update({ ...settings, version })}
        WHERE id = ${id} AND version = ${current.version} RETURNING id`
      if (written.length === 0) {
        return yield* new StorageUnavailable({ message: `account ${id} changed concurrently; try again` })
      }
      const stored: StoredAccount = {
        account: changed.id === id ? changed : { ...changed, id },
        version,
        tokensRevokedBeforeMs: current.tokensRevokedBeforeMs
      }
      return stored
    }).pipe(sql.withTransaction, orUnavailable("account update"))

  const replaceCredentials = (id: AccountId, credentials: StoredCredentials) =>
    sql`UPDATE accounts SET api_key = ${credentials.apiKey}, secret_hash = ${credentials.secretHash}
        WHERE id = ${id} RETURNING id`.pipe(
      Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(notFound(id)) : Effect.void),
      orUnavailable("credential replacement")
    )

  return AccountStore.of({ insert, findById, findByApiKey, findApiKey, list, update, replaceCredentials })
})

/**
 * `AccountStore` on the `accounts` table of a migrated database (needs a `SqlClient`). Every
 * change appends an `AccountChanged` row to the access feed in the same transaction.
 */
export const SqlAccountStoreLive: Layer.Layer<AccountStore, never, SqlClient.SqlClient> = Layer.effect(
  AccountStore,
  makeAccountStore
)
