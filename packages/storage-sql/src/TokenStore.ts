/**
 * TokenStore over SQL. Revocations write the token row and its feed row in one transaction,
 * each transaction opening with the feed lock (PostgreSQL) and a write (SQLite); see
 * `AccountStore.update` for why.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { AccountId, Jti, RevokedAll, RevokeOutcome, TokenRecord } from "@ridequote/core"
import { Jti as JtiSchema, TokenStore } from "@ridequote/core"
import { Effect, Layer, Option, Schema } from "effect"
import { decodeStoredAccount } from "./AccountStore.js"
import { DbInt } from "./Columns.js"
import { dialect } from "./Dialect.js"
import { appendChanges } from "./FeedRows.js"
import { orUnavailable } from "./Unavailable.js"

const RevokedRow = Schema.Struct({ jti: JtiSchema, expires_at_ms: DbInt })
const decodeRevoked = Schema.decodeUnknown(Schema.Array(RevokedRow))

export const makeTokenStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const d = yield* dialect

  const record = (token: TokenRecord) =>
    sql`INSERT INTO tokens ${
      sql.insert({
        jti: token.jti,
        account_id: token.accountId,
        issued_at_ms: token.issuedAtMs,
        expires_at_ms: token.expiresAtMs
      })
    }`.pipe(Effect.asVoid, orUnavailable("token record"))

  /**
   * A token already past its expiry is not "newly revoked": it no longer verifies anyway, so
   * revoking it changes nothing and counts 0, like revoke-all, which skips expired tokens.
   */
  const revoke = (accountId: AccountId, jti: Jti, atMs: number) =>
    Effect.gen(function*() {
      yield* d.lockFeed
      const revoked = yield* sql`UPDATE tokens SET revoked_at_ms = ${atMs}
        WHERE jti = ${jti} AND account_id = ${accountId} AND revoked_at_ms IS NULL AND expires_at_ms > ${atMs}
        RETURNING jti, expires_at_ms`.pipe(Effect.flatMap(decodeRevoked))
      const token = revoked[0]
      if (token !== undefined) {
        yield* appendChanges(sql, d, [
          { kind: "TokenRevoked", account_id: accountId, jti: token.jti, expires_at_ms: token.expires_at_ms, at_ms: atMs }
        ])
        return { _tag: "Revoked", expiresAtMs: token.expires_at_ms } satisfies RevokeOutcome
      }
      // Another account's jti reads exactly like a missing one (tenant isolation).
      const known = yield* sql`SELECT jti, expires_at_ms FROM tokens WHERE jti = ${jti} AND account_id = ${accountId}`
        .pipe(Effect.flatMap(decodeRevoked))
      const found = known[0]
      return (found === undefined
        ? { _tag: "NotFound" }
        : { _tag: "AlreadyRevoked", expiresAtMs: found.expires_at_ms }) satisfies RevokeOutcome
    }).pipe(sql.withTransaction, orUnavailable("token revoke"))

  /**
   * "Every token recorded before this call" is decided by the transaction, not by clocks: a
   * token recorded after the UPDATE commits is simply not in it, even within the same millisecond.
   * The account's cutoff covers tokens storage never recorded (see `Tokens.issuedBeforeCutoff`);
   * it only moves forward, and the account's version moves with it.
   */
  const revokeAll = (accountId: AccountId, atMs: number) =>
    Effect.gen(function*() {
      yield* d.lockFeed
      const revoked = yield* sql`UPDATE tokens SET revoked_at_ms = ${atMs}
        WHERE account_id = ${accountId} AND revoked_at_ms IS NULL AND expires_at_ms > ${atMs}
        RETURNING jti, expires_at_ms`.pipe(Effect.flatMap(decodeRevoked))
      const accounts = yield* sql`UPDATE accounts
        SET tokens_revoked_before_ms = CASE
              WHEN tokens_revoked_before_ms IS NULL OR tokens_revoked_before_ms < ${atMs} THEN ${atMs}
              ELSE tokens_revoked_before_ms END,
            version = version + 1
        WHERE id = ${accountId} RETURNING *`
      const account = accounts[0] === undefined ? Option.none() : Option.some(yield* decodeStoredAccount(accounts[0]))
      yield* appendChanges(sql, d, [
        ...revoked.map((token) => ({
          kind: "TokenRevoked" as const,
          account_id: accountId,
          jti: token.jti,
          expires_at_ms: token.expires_at_ms,
          at_ms: atMs
        })),
        ...(Option.isSome(account)
          ? [{ kind: "AccountChanged" as const, account_id: accountId, jti: null, expires_at_ms: null, at_ms: atMs }]
          : [])
      ])
      const result: RevokedAll = {
        tokens: revoked.map((token) => ({ jti: token.jti, expiresAtMs: token.expires_at_ms })),
        account
      }
      return result
    }).pipe(sql.withTransaction, orUnavailable("token revoke-all"))

  return TokenStore.of({ record, revoke, revokeAll })
})

/**
 * `TokenStore` on the `tokens` table of a migrated database (needs a `SqlClient`). Revocations
 * append `TokenRevoked` rows to the access feed in the same transaction, which is how other
 * instances learn of them.
 */
export const SqlTokenStoreLive: Layer.Layer<TokenStore, never, SqlClient.SqlClient> = Layer.effect(
  TokenStore,
  makeTokenStore
)
