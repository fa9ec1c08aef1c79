/**
 * SigningKeys over SQL. Two sources:
 *
 * - `RIDEQUOTE_JWT_SECRET` given: one fixed key, its kid a hash of the secret (the secret
 *   itself never leaves memory). Its bytes are used as the HMAC key unchanged, so standard JWT
 *   tools given the same secret verify our tokens. Rotation means changing the variable.
 * - otherwise the `signing_keys` table, shared by every process on the database. The ring is
 *   served from memory (it sits on every issue and verify); it reloads after `rotate`, when a
 *   token names a kid it does not hold (another process rotated; at most once a second), and
 *   every minute so that all processes soon sign with the newest key.
 *
 * A retired key keeps verifying for the maximum token lifetime after its retirement, so no
 * token it signed is cut short.
 *
 * With a key-encryption key configured (`SigningKeyCipher`), stored keys are sealed: new keys
 * are written sealed, and keys still plain or under a previous KEK are re-sealed under the
 * current one when a process loads them and when `rotate` runs.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SigningKey, SigningKeyRing } from "@ridequote/core"
import { KeyId, MAX_TOKEN_TTL_SECONDS, SigningKeyNotFound, SigningKeys, StorageUnavailable } from "@ridequote/core"
import { Clock, Duration, Effect, Either, Layer, Option, Redacted, Schema, SynchronizedRef } from "effect"
import type { Scope } from "effect"
import { DbInt } from "./Columns.js"
import type { KeyEncryption } from "./SigningKeyCipher.js"
import { needsResealing, open, seal } from "./SigningKeyCipher.js"
import { newSigningKeyRow, SIGNING_KEY_BYTES } from "./SigningKeyRow.js"
import { dialect } from "./Dialect.js"
import { appendChanges } from "./FeedRows.js"
import { orUnavailable } from "./Unavailable.js"

/** How long a retired key still verifies: the longest a token it signed can live. */
export const RETIRED_KEY_GRACE_MS = MAX_TOKEN_TTL_SECONDS * 1000
/** Unknown kids trigger at most one reload per this interval (a flood of forged kids costs one query a second). */
export const UNKNOWN_KID_RELOAD_INTERVAL = Duration.seconds(1)
export const PERIODIC_RELOAD_INTERVAL = Duration.minutes(1)

const sameSecret = (a: SigningKey, b: SigningKey): boolean => {
  const x = Redacted.value(a.secret)
  const y = Redacted.value(b.secret)
  return x.length === y.length && timingSafeEqual(x, y)
}

const ringOf = (current: SigningKey, verifying: ReadonlyArray<SigningKey>): SigningKeyRing => ({
  current,
  verifying: new Map(verifying.map((key) => [key.kid, key]))
})

// ---- fixed key from the environment -------------------------------------------------------

const fixedKey = (secret: Redacted.Redacted<string>): Effect.Effect<SigningKey, StorageUnavailable> =>
  Effect.gen(function*() {
    const bytes = Buffer.from(Redacted.value(secret), "utf8")
    if (bytes.length < SIGNING_KEY_BYTES) {
      return yield* new StorageUnavailable({
        message: `RIDEQUOTE_JWT_SECRET must be at least ${SIGNING_KEY_BYTES} bytes (HS256 needs 256 bits)`
      })
    }
    const digest = createHash("sha256").update("ridequote signing key id\0").update(bytes).digest("base64url")
    return { kid: KeyId.make(`env-${digest.slice(0, 22)}`), secret: Redacted.make(new Uint8Array(bytes)) }
  })

export const makeFixedSigningKeys = (secret: Redacted.Redacted<string>) =>
  Effect.map(fixedKey(secret), (key) => {
    const ring = ringOf(key, [key])
    return SigningKeys.of({
      ring: Effect.succeed(ring),
      verifyingKey: (kid) => Effect.succeed(Option.fromNullable(ring.verifying.get(kid))),
      rotate: Effect.fail(
        new StorageUnavailable({
          message: "the signing key comes from RIDEQUOTE_JWT_SECRET: rotate by changing that variable"
        })
      )
    })
  })

// ---- keys in the database -------------------------------------------------------------------

const KeyRow = Schema.Struct({
  kid: KeyId,
  secret: Schema.String,
  created_at_ms: DbInt,
  retired_at_ms: Schema.NullOr(DbInt)
})
const decodeKeys = Schema.decodeUnknown(Schema.Array(KeyRow))

export const makeStoredSigningKeys = (
  encryption?: KeyEncryption | undefined
): Effect.Effect<SigningKeys, StorageUnavailable, SqlClient.SqlClient | Scope.Scope> =>
Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const d = yield* dialect

  const toKey = (row: typeof KeyRow.Type): Effect.Effect<SigningKey, StorageUnavailable> =>
    Either.match(open(row.secret, row.kid, encryption), {
      onLeft: (message) => Effect.fail(new StorageUnavailable({ message })),
      onRight: (bytes) => Effect.succeed({ kid: row.kid, secret: Redacted.make(bytes) })
    })

  /** The form a key's secret is written in: sealed under the current KEK when there is one. */
  const storedForm = (kid: string, secret: Uint8Array): string =>
    encryption === undefined ? Buffer.from(secret).toString("base64url") : seal(secret, kid, encryption.current)

  const insertKey = (nowMs: number) =>
    Effect.gen(function*() {
      const row = newSigningKeyRow()
      const secret = storedForm(row.kid, Buffer.from(row.secret, "base64url"))
      yield* sql`INSERT INTO signing_keys ${sql.insert({ kid: row.kid, secret, created_at_ms: nowMs })}`
    })

  /**
   * Re-seals under the current KEK every row that is plain or under a previous one. The UPDATE
   * names the old stored form, so processes doing this at once change each row once.
   */
  const resealAll = Effect.gen(function*() {
    if (encryption === undefined) return 0
    const rows = yield* sql`SELECT kid, secret, created_at_ms, retired_at_ms FROM signing_keys`.pipe(
      Effect.flatMap(decodeKeys)
    )
    let resealed = 0
    for (const row of rows) {
      if (!needsResealing(row.secret, encryption)) continue
      const key = yield* toKey(row)
      yield* sql`UPDATE signing_keys SET secret = ${storedForm(row.kid, Redacted.value(key.secret))}
        WHERE kid = ${row.kid} AND secret = ${row.secret}`
      resealed++
    }
    return resealed
  })

  /**
   * Reads the ring; a database without a current key (never migrated its first one) gets one.
   * A key `held` already (same kid, same bytes) is kept as the same object: token verification
   * caches a checked token with the key object it verified under and counts a later hit only
   * while the ring answers that very object, so a reload that made new objects for unchanged
   * keys sent every token through the full check again (docs/performance.md, issue 34).
   */
  const load = (held?: SigningKeyRing) => Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const read = sql`SELECT kid, secret, created_at_ms, retired_at_ms FROM signing_keys
      WHERE retired_at_ms IS NULL OR retired_at_ms > ${now - RETIRED_KEY_GRACE_MS}
      ORDER BY created_at_ms DESC, kid DESC`.pipe(Effect.flatMap(decodeKeys))
    let rows = yield* read
    if (!rows.some((row) => row.retired_at_ms === null)) {
      yield* insertKey(now)
      rows = yield* read
    }
    const current = rows.find((row) => row.retired_at_ms === null)
    if (current === undefined) {
      return yield* new StorageUnavailable({ message: "no current signing key could be stored" })
    }
    const keep = (key: SigningKey): SigningKey => {
      const same = held?.verifying.get(key.kid)
      return same !== undefined && sameSecret(same, key) ? same : key
    }
    const keys = (yield* Effect.forEach(rows, toKey)).map(keep)
    const currentKey = keys.find((key) => key.kid === current.kid) ?? keep(yield* toKey(current))
    return { ring: ringOf(currentKey, keys) }
  }).pipe(orUnavailable("signing key load"))

  // Keys written before a KEK was configured (the first migration's, say) are sealed now.
  const resealed = yield* resealAll.pipe(sql.withTransaction, orUnavailable("signing key re-encryption"))
  if (resealed > 0) yield* Effect.logInfo(`sealed ${resealed} signing key(s) under the configured key-encryption key`)
  const ring = yield* SynchronizedRef.make((yield* load()).ring)
  const reload = SynchronizedRef.updateEffect(ring, (held) => Effect.map(load(held), (loaded) => loaded.ring))
  /** When the last reload for an unknown kid happened: such reloads are throttled. */
  const lastUnknownKidReload = yield* SynchronizedRef.make(Number.NEGATIVE_INFINITY)

  const verifyingKey = (kid: string) =>
    Effect.gen(function*() {
      const known = (yield* SynchronizedRef.get(ring)).verifying.get(kid)
      if (known !== undefined) return Option.some(known)
      const now = yield* Clock.currentTimeMillis
      yield* SynchronizedRef.updateEffect(lastUnknownKidReload, (last) =>
        now - last < Duration.toMillis(UNKNOWN_KID_RELOAD_INTERVAL) ? Effect.succeed(last) : Effect.as(reload, now))
      return Option.fromNullable((yield* SynchronizedRef.get(ring)).verifying.get(kid))
    })

  /**
   * Retires the current key and makes a new one, in one transaction (it opens with a write),
   * and re-seals every stored key under the current KEK (how a KEK rotation completes).
   */
  const rotate = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    yield* sql`UPDATE signing_keys SET retired_at_ms = ${now} WHERE retired_at_ms IS NULL`
    yield* insertKey(now)
    yield* resealAll
  }).pipe(
    sql.withTransaction,
    orUnavailable("signing key rotation"),
    Effect.zipRight(reload),
    Effect.zipRight(SynchronizedRef.get(ring)),
    Effect.map((r) => r.current)
  )

  /**
   * Retires `kid` at once (a key that may have leaked): deleted, so no ring loaded from now on
   * holds it, after a new current key when it was the current one; and a `KeyRetired` feed row
   * in the same transaction, so running instances refuse its tokens at their next feed read.
   */
  const retire = (kid: KeyId) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      // Feed lock and row first, as every feed writer does (see AccountStore.update).
      yield* d.lockFeed
      yield* appendChanges(sql, d, [{ kind: "KeyRetired", account_id: "", jti: kid, expires_at_ms: null, at_ms: now }])
      const rows = yield* sql`SELECT kid, secret, created_at_ms, retired_at_ms FROM signing_keys WHERE kid = ${kid}`.pipe(
        Effect.flatMap(decodeKeys)
      )
      const row = rows[0]
      if (row === undefined) return yield* new SigningKeyNotFound({ message: `no signing key ${kid}` })
      if (row.retired_at_ms === null) yield* insertKey(now)
      yield* sql`DELETE FROM signing_keys WHERE kid = ${kid}`
    }).pipe(
      sql.withTransaction,
      orUnavailable("signing key retirement"),
      Effect.zipRight(reload),
      Effect.zipRight(SynchronizedRef.get(ring)),
      Effect.map((r) => r.current)
    )

  // Other processes may rotate: pick up their newest key to sign with.
  yield* Effect.forkScoped(
    Effect.sleep(PERIODIC_RELOAD_INTERVAL).pipe(
      Effect.zipRight(reload),
      Effect.catchAll((error) => Effect.logWarning("signing key reload failed; keeping the keys in memory", error)),
      Effect.forever
    )
  )

  return SigningKeys.of({
    ring: SynchronizedRef.get(ring),
    verifyingKey,
    rotate,
    retire,
    reload
  })
})

/**
 * `SigningKeys` for token signing and verification (needs a `SqlClient`). With `jwtSecret`: one
 * fixed key, the secret's bytes, the table unused. Otherwise the `signing_keys` ring shared by
 * every process, held in memory and reloaded every minute; with `encryption`, keys are sealed at
 * rest. Fails with `StorageUnavailable` when `jwtSecret` is shorter than 32 bytes, the ring
 * cannot be loaded, or a stored key does not open under the given KEKs.
 */
export const SqlSigningKeysLive = (
  jwtSecret?: Redacted.Redacted<string> | undefined,
  encryption?: KeyEncryption | undefined
): Layer.Layer<SigningKeys, StorageUnavailable, SqlClient.SqlClient> =>
  jwtSecret === undefined
    ? Layer.scoped(SigningKeys, makeStoredSigningKeys(encryption))
    : Layer.effect(SigningKeys, makeFixedSigningKeys(jwtSecret))
