/**
 * API credentials: a non-secret key and a 256-bit secret. Only a hash of the secret is kept;
 * comparison is constant-time. SHA-256 (not a slow KDF) is enough because the secret is 256
 * random bits, not a password: there is nothing to brute-force, and a KDF would cap token
 * issue at ~25/s on this hardware (see docs/security.md).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer, Redacted } from "effect"
import { ApiKey } from "../Ids.js"
import type { SecretHash } from "../ports/AccountStore.js"
import { Randomness } from "../Randomness.js"

/** A fresh key and secret pair, as handed to a new account. */
export interface GeneratedCredentials {
  readonly apiKey: ApiKey
  /** `rqs_` + 43 base64url characters (256 bits). Shown once, never stored. */
  readonly apiSecret: Redacted.Redacted<string>
}

/** Making, hashing and checking API credentials. */
export interface Credentials {
  readonly generate: Effect.Effect<GeneratedCredentials>
  readonly generateSecret: Effect.Effect<Redacted.Redacted<string>>
  readonly hash: (secret: Redacted.Redacted<string>) => SecretHash
  /** Constant-time comparison of the secret's hash with the stored one. */
  readonly verify: (secret: Redacted.Redacted<string>, stored: SecretHash) => boolean
}

/** The Credentials service's tag. */
export const Credentials = Context.GenericTag<Credentials>("@ridequote/core/Credentials")

/** 18 random bytes are exactly 24 base64url characters (144 bits): enough to be unguessable, not a secret. */
const API_KEY_BYTES = 18
/** 32 random bytes = 256 bits, 43 base64url characters. */
const SECRET_BYTES = 32

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")

/** Hex SHA-256 of a secret: what storage keeps instead of the secret. */
export const hashSecret = (secret: Redacted.Redacted<string>): SecretHash =>
  createHash("sha256").update(Redacted.value(secret), "utf8").digest("hex") as SecretHash

/**
 * Compares in constant time. Both sides are 64 hex characters when the stored hash is well
 * formed; a malformed stored hash still costs one comparison (against itself) so the time
 * taken does not depend on where the inputs differ.
 */
export const verifySecret = (secret: Redacted.Redacted<string>, stored: SecretHash): boolean => {
  const actual = Buffer.from(hashSecret(secret), "utf8")
  const expected = Buffer.from(stored, "utf8")
  if (actual.length !== expected.length) {
    timingSafeEqual(actual, actual)
    return false
  }
  return timingSafeEqual(actual, expected)
}

/** Builds the Credentials service on a Randomness source. */
export const makeCredentials = Effect.gen(function*() {
  const randomness = yield* Randomness
  const generateSecret = Effect.map(
    randomness.bytes(SECRET_BYTES),
    (bytes) => Redacted.make(`rqs_${base64url(bytes)}`)
  )
  const generateApiKey = Effect.map(randomness.bytes(API_KEY_BYTES), (bytes) => ApiKey.make(`rqk_${base64url(bytes)}`))
  return Credentials.of({
    generate: Effect.all({ apiKey: generateApiKey, apiSecret: generateSecret }),
    generateSecret,
    hash: hashSecret,
    verify: verifySecret
  })
})

/** Credentials whose randomness comes from the `Randomness` service (the OS CSPRNG in production). */
export const CredentialsLive: Layer.Layer<Credentials, never, Randomness> = Layer.effect(Credentials, makeCredentials)
