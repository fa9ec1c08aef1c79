import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import type { SigningKey } from "@ridequote/core"
import { SigningKeys } from "@ridequote/core"
import { Context, Duration, Effect, Layer, Option, Redacted, TestClock } from "effect"
import type { KeyEncryption } from "../src/index.js"
import { isSealed, KEK_BYTES, kekId, RETIRED_KEY_GRACE_MS } from "../src/index.js"
import type { DatabaseRef, StorageUnderTest } from "./fixtures.js"
import { storageWithClient } from "./fixtures.js"

const keysOf = (context: Context.Context<SigningKeys>) => Context.get(context, SigningKeys)
const kids = (keys: SigningKeys) => Effect.map(keys.ring, (ring) => [...ring.verifying.keys()].sort())
const lookup = (keys: SigningKeys, kid: string) =>
  keys.verifyingKey === undefined ? Effect.die("verifyingKey not implemented") : keys.verifyingKey(kid)
const secretBytes = (key: SigningKey) => Buffer.from(Redacted.value(key.secret))

/**
 * Reads `read` until `done` holds, waiting on the real clock (the test's clock is TestClock)
 * between reads, for at most 5 s; then returns the last value read, for the assertion to show.
 */
const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 5_000
    let value = yield* read
    while (!done(value) && Date.now() < deadline) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
      value = yield* read
    }
    return value
  })

export const signingKeysContract = (h: StorageUnderTest) => {
describe(`SigningKeys stored in ${h.name}`, () => {
  it.scoped("the first migration's key signs, with 256 random bits, and is the one stored", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(storageWithClient(h, "first"))
      const keys = Context.get(context, SigningKeys)
      const ring = yield* keys.ring
      expect(secretBytes(ring.current)).toHaveLength(32)
      expect([...ring.verifying.keys()]).toEqual([ring.current.kid])
      const sql = Context.get(context, SqlClient.SqlClient)
      const stored = yield* sql<{ kid: string; secret: string }>`SELECT kid, secret FROM signing_keys`
      expect(stored).toEqual([{ kid: ring.current.kid, secret: secretBytes(ring.current).toString("base64url") }])
    }))

  it.scoped("rotate makes a new current key; the previous one keeps verifying", () =>
    Effect.gen(function*() {
      const keys = keysOf(yield* Layer.build(h.storage(h.newDatabase("rotate"))))
      const before = (yield* keys.ring).current
      const rotated = yield* keys.rotate
      const ring = yield* keys.ring
      expect(rotated.kid).not.toBe(before.kid)
      expect(ring.current).toEqual(rotated)
      expect(secretBytes(rotated).equals(secretBytes(before))).toBe(false)
      expect(yield* kids(keys)).toEqual([before.kid, rotated.kid].sort())
    }))

  it.effect("a retired key verifies for the longest token life after its retirement, then no more", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("grace")
      const ringAt = Effect.scoped(Effect.flatMap(Layer.build(h.storage(filename)), (c) => keysOf(c).ring))
      const { old, rotated } = yield* Effect.scoped(Effect.gen(function*() {
        const keys = keysOf(yield* Layer.build(h.storage(filename)))
        const old = (yield* keys.ring).current
        return { old, rotated: yield* keys.rotate } // retired at TestClock time 0
      }))
      // a token signed at the retirement instant lives at most the grace period (expired once now ≥ exp)
      yield* TestClock.setTime(RETIRED_KEY_GRACE_MS - 1)
      expect([...(yield* ringAt).verifying.keys()].sort()).toEqual([old.kid, rotated.kid].sort())
      yield* TestClock.setTime(RETIRED_KEY_GRACE_MS)
      const later = yield* ringAt
      expect([...later.verifying.keys()]).toEqual([rotated.kid])
      expect(later.current.kid).toBe(rotated.kid)
    }))

  it.scoped("every minute a process reloads, so it signs with another process's newest key", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("periodic")
      const a = keysOf(yield* Layer.build(h.storage(filename)))
      const b = keysOf(yield* Layer.build(h.storage(filename)))
      const rotated = yield* a.rotate
      expect((yield* b.ring).current.kid).not.toBe(rotated.kid)
      yield* TestClock.adjust(Duration.minutes(1))
      // The adjust wakes B's reload; its query is real I/O that may still be in flight.
      expect(yield* eventually(Effect.map(b.ring, (ring) => ring.current.kid), (kid) => kid === rotated.kid)).toBe(rotated.kid)
    }))

  it.scoped("the periodic reload keeps the key objects of unchanged keys: the ring answers the same objects after it", () =>
    Effect.gen(function*() {
      // Sealed at rest too: each load opens every stored secret into new bytes.
      const encryption: KeyEncryption = { current: Redacted.make(new Uint8Array(KEK_BYTES).fill(9)), previous: [] }
      const filename = h.newDatabase("reload-identity")
      const a = keysOf(yield* Layer.build(h.storage(filename, { keyEncryption: encryption })))
      const b = keysOf(yield* Layer.build(h.storage(filename, { keyEncryption: encryption })))
      const before = yield* b.ring
      const rotated = yield* a.rotate
      yield* TestClock.adjust(Duration.minutes(1))
      // The adjust wakes B's reload; its query is real I/O that may still be in flight.
      const after = yield* eventually(b.ring, (ring) => ring.current.kid === rotated.kid)
      expect(after.current.kid).toBe(rotated.kid)
      // The key B held before is still verifying, and is the very object B answered before the
      // reload: token verification counts a cached token only while the ring answers that object.
      expect(after.verifying.get(before.current.kid)).toBe(before.current)
      // A further reload with nothing changed answers every key as the same object.
      yield* TestClock.adjust(Duration.minutes(1))
      yield* b.reload ?? Effect.void
      const again = yield* b.ring
      expect(again.current).toBe(after.current)
      for (const [kid, key] of after.verifying) expect(again.verifying.get(kid)).toBe(key)
    }))

  it.scoped("another process's rotation is picked up when its kid is first seen, at most once a second", () =>
    Effect.gen(function*() {
      const filename = h.newDatabase("shared")
      const a = keysOf(yield* Layer.build(h.storage(filename)))
      const b = keysOf(yield* Layer.build(h.storage(filename)))
      expect((yield* b.ring).current).toEqual((yield* a.ring).current)

      const first = yield* a.rotate
      expect(Option.map(yield* lookup(b, first.kid), (k) => k.kid)).toEqual(Option.some(first.kid))

      // B reloaded for an unknown kid just now: another one within the same second is not looked for
      const second = yield* a.rotate
      expect(yield* lookup(b, second.kid)).toEqual(Option.none())
      yield* TestClock.adjust(Duration.seconds(1))
      expect(Option.map(yield* lookup(b, second.kid), (k) => k.kid)).toEqual(Option.some(second.kid))
      // and B now signs with the newest key too
      expect((yield* b.ring).current.kid).toBe(second.kid)
    }))

  it.scoped("a kid nobody issued is not found", () =>
    Effect.gen(function*() {
      const keys = keysOf(yield* Layer.build(h.storage(h.newDatabase("unknown"))))
      expect(yield* lookup(keys, "no-such-kid")).toEqual(Option.none())
    }))
})

describe(`SigningKeys from RIDEQUOTE_JWT_SECRET on ${h.name}`, () => {
  const secret = Redacted.make("a-long-enough-shared-secret-for-hs256-0123456789")

  it.scoped("one key: the secret's bytes, under a kid derived by hashing that does not reveal it", () =>
    Effect.gen(function*() {
      const keys = keysOf(yield* Layer.build(h.storage(h.newDatabase("env"), { jwtSecret: secret })))
      const ring = yield* keys.ring
      expect(secretBytes(ring.current).toString("utf8")).toBe(Redacted.value(secret))
      expect([...ring.verifying.keys()]).toEqual([ring.current.kid])
      expect(ring.current.kid).toMatch(/^env-[A-Za-z0-9_-]{22}$/)
      expect(ring.current.kid).not.toContain(Redacted.value(secret).slice(0, 8))
      // every process given the same secret names the key the same way
      const again = keysOf(yield* Layer.build(h.storage(h.newDatabase("env2"), { jwtSecret: secret })))
      expect((yield* again.ring).current.kid).toBe(ring.current.kid)
      const other = keysOf(
        yield* Layer.build(
          h.storage(h.newDatabase("env3"), { jwtSecret: Redacted.make(`${Redacted.value(secret)}!`) })
        )
      )
      expect((yield* other.ring).current.kid).not.toBe(ring.current.kid)
    }))

  it.effect("a secret shorter than 32 bytes is refused when the layer starts", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(h.storage(h.newDatabase("short"), { jwtSecret: Redacted.make("x".repeat(31)) })))
      )
      expect(error._tag).toBe("StorageUnavailable")
      expect(error.message).toContain("at least 32 bytes")
      expect(error.message).not.toContain("x".repeat(31))
    }))

  it.scoped("rotate is refused: the key changes only with the variable", () =>
    Effect.gen(function*() {
      const keys = keysOf(yield* Layer.build(h.storage(h.newDatabase("env-rotate"), { jwtSecret: secret })))
      const error = yield* Effect.flip(keys.rotate)
      expect(error.message).toContain("RIDEQUOTE_JWT_SECRET")
    }))
})

describe(`SigningKeys encrypted at rest on ${h.name}`, () => {
  const kek = (fill: number): KeyEncryption["current"] => Redacted.make(new Uint8Array(KEK_BYTES).fill(fill))
  const storedSecrets = (db: DatabaseRef) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ kid: string; secret: string }>`SELECT kid, secret FROM signing_keys ORDER BY kid`
    }).pipe(Effect.provide(h.client(db)))

  it.scoped("with a key-encryption key, no stored secret is readable; the ring still signs and verifies alike", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("sealed")
      const encryption: KeyEncryption = { current: kek(1), previous: [] }
      // the first migration's key was written plain: the first process with a KEK seals it
      const a = keysOf(yield* Layer.build(h.storage(db, { keyEncryption: encryption })))
      const rotated = yield* a.rotate
      const stored = yield* storedSecrets(db)
      expect(stored).toHaveLength(2)
      for (const row of stored) {
        expect(isSealed(row.secret)).toBe(true)
        expect(row.secret).toContain(kekId(encryption.current))
      }
      const ring = yield* a.ring
      for (const key of ring.verifying.values()) {
        const raw = secretBytes(key).toString("base64url")
        expect(stored.some((row) => row.secret.includes(raw))).toBe(false)
      }
      // another process with the same KEK reads the same keys
      const b = keysOf(yield* Layer.build(h.storage(db, { keyEncryption: encryption })))
      expect(secretBytes((yield* b.ring).current).equals(secretBytes(rotated))).toBe(true)
    }))

  it.scoped("a process without the KEK, or with another, refuses to start and says which key is missing", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("sealed-missing")
      yield* Effect.scoped(Layer.build(h.storage(db, { keyEncryption: { current: kek(2), previous: [] } })))
      for (const settings of [{}, { keyEncryption: { current: kek(3), previous: [] } }]) {
        const error = yield* Effect.flip(Effect.scoped(Layer.build(h.storage(db, settings))))
        expect(error._tag).toBe("StorageUnavailable")
        expect(error.message).toContain(kekId(kek(2)))
        expect(error.message).toContain("RIDEQUOTE_KEY_ENCRYPTION_KEY")
      }
    }))

  it.scoped("KEK rotation: with the old KEK as previous, keys open, and rotate re-seals all under the new one", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("rekey")
      const before = yield* Effect.scoped(Effect.gen(function*() {
        const keys = keysOf(yield* Layer.build(h.storage(db, { keyEncryption: { current: kek(4), previous: [] } })))
        return (yield* keys.ring).current
      }))
      const keys = keysOf(
        yield* Layer.build(h.storage(db, { keyEncryption: { current: kek(5), previous: [kek(4)] } }))
      )
      expect(secretBytes((yield* keys.ring).current).equals(secretBytes(before))).toBe(true)
      yield* keys.rotate
      const stored = yield* storedSecrets(db)
      expect(stored.every((row) => row.secret.includes(kekId(kek(5))))).toBe(true)
      // the old KEK is no longer needed
      const after = keysOf(yield* Layer.build(h.storage(db, { keyEncryption: { current: kek(5), previous: [] } })))
      expect((yield* after.ring).verifying.has(before.kid)).toBe(true)
    }))

  it.scoped("a sealed secret moved onto another key's row does not open", () =>
    Effect.gen(function*() {
      const db = h.newDatabase("sealed-swap")
      const encryption: KeyEncryption = { current: kek(6), previous: [] }
      const keys = keysOf(yield* Layer.build(h.storage(db, { keyEncryption: encryption })))
      yield* keys.rotate
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ kid: string; secret: string }>`SELECT kid, secret FROM signing_keys ORDER BY kid`
        const [first, second] = rows
        if (first === undefined || second === undefined) return yield* Effect.die("two keys expected")
        yield* sql`UPDATE signing_keys SET secret = ${second.secret} WHERE kid = ${first.kid}`
      }).pipe(Effect.provide(h.client(db)))
      const error = yield* Effect.flip(Effect.scoped(Layer.build(h.storage(db, { keyEncryption: encryption }))))
      expect(error.message).toContain("does not decrypt")
    }))
})
}
