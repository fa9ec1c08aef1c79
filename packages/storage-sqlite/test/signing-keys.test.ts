import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import type { SigningKey } from "@ridequote/core"
import { SigningKeys } from "@ridequote/core"
import { RETIRED_KEY_GRACE_MS } from "@ridequote/storage-sql"
import { Context, Duration, Effect, Layer, Option, Redacted, TestClock } from "effect"
import { SqliteStorageLive } from "../src/index.js"
import { storageWithClient, tempDirectory } from "./fixtures.js"

const dir = tempDirectory()

const keysOf = (context: Context.Context<SigningKeys>) => Context.get(context, SigningKeys)
const kids = (keys: SigningKeys) => Effect.map(keys.ring, (ring) => [...ring.verifying.keys()].sort())
const lookup = (keys: SigningKeys, kid: string) =>
  keys.verifyingKey === undefined ? Effect.die("verifyingKey not implemented") : keys.verifyingKey(kid)
const secretBytes = (key: SigningKey) => Buffer.from(Redacted.value(key.secret))

describe("SigningKeys stored in the database", () => {
  it.scoped("the first migration's key signs, with 256 random bits, and is the one stored", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(storageWithClient(dir.file("first")))
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
      const keys = keysOf(yield* Layer.build(SqliteStorageLive({ filename: dir.file("rotate") })))
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
      const filename = dir.file("grace")
      const ringAt = Effect.scoped(Effect.flatMap(Layer.build(SqliteStorageLive({ filename })), (c) => keysOf(c).ring))
      const { old, rotated } = yield* Effect.scoped(Effect.gen(function*() {
        const keys = keysOf(yield* Layer.build(SqliteStorageLive({ filename })))
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
      const filename = dir.file("periodic")
      const a = keysOf(yield* Layer.build(SqliteStorageLive({ filename })))
      const b = keysOf(yield* Layer.build(SqliteStorageLive({ filename })))
      const rotated = yield* a.rotate
      expect((yield* b.ring).current.kid).not.toBe(rotated.kid)
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* b.ring).current.kid).toBe(rotated.kid)
    }))

  it.scoped("another process's rotation is picked up when its kid is first seen, at most once a second", () =>
    Effect.gen(function*() {
      const filename = dir.file("shared")
      const a = keysOf(yield* Layer.build(SqliteStorageLive({ filename })))
      const b = keysOf(yield* Layer.build(SqliteStorageLive({ filename })))
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
      const keys = keysOf(yield* Layer.build(SqliteStorageLive({ filename: dir.file("unknown") })))
      expect(yield* lookup(keys, "no-such-kid")).toEqual(Option.none())
    }))
})

describe("SigningKeys from RIDEQUOTE_JWT_SECRET", () => {
  const secret = Redacted.make("a-long-enough-shared-secret-for-hs256-0123456789")

  it.scoped("one key: the secret's bytes, under a kid derived by hashing that does not reveal it", () =>
    Effect.gen(function*() {
      const keys = keysOf(yield* Layer.build(SqliteStorageLive({ filename: dir.file("env"), jwtSecret: secret })))
      const ring = yield* keys.ring
      expect(secretBytes(ring.current).toString("utf8")).toBe(Redacted.value(secret))
      expect([...ring.verifying.keys()]).toEqual([ring.current.kid])
      expect(ring.current.kid).toMatch(/^env-[A-Za-z0-9_-]{22}$/)
      expect(ring.current.kid).not.toContain(Redacted.value(secret).slice(0, 8))
      // every process given the same secret names the key the same way
      const again = keysOf(yield* Layer.build(SqliteStorageLive({ filename: dir.file("env2"), jwtSecret: secret })))
      expect((yield* again.ring).current.kid).toBe(ring.current.kid)
      const other = keysOf(
        yield* Layer.build(
          SqliteStorageLive({ filename: dir.file("env3"), jwtSecret: Redacted.make(`${Redacted.value(secret)}!`) })
        )
      )
      expect((yield* other.ring).current.kid).not.toBe(ring.current.kid)
    }))

  it.effect("a secret shorter than 32 bytes is refused when the layer starts", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(SqliteStorageLive({ filename: dir.file("short"), jwtSecret: Redacted.make("x".repeat(31)) })))
      )
      expect(error._tag).toBe("StorageUnavailable")
      expect(error.message).toContain("at least 32 bytes")
      expect(error.message).not.toContain("x".repeat(31))
    }))

  it.scoped("rotate is refused: the key changes only with the variable", () =>
    Effect.gen(function*() {
      const keys = keysOf(yield* Layer.build(SqliteStorageLive({ filename: dir.file("env-rotate"), jwtSecret: secret })))
      const error = yield* Effect.flip(keys.rotate)
      expect(error.message).toContain("RIDEQUOTE_JWT_SECRET")
    }))
})
