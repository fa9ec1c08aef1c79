/**
 * Randomness as a service, so tests can make ids and secrets reproducible. The default draws
 * from the operating system's CSPRNG (node:crypto), which secrets and token ids require.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { Context, Effect, Layer } from "effect"

/** A source of random bytes and UUIDs (ids, secrets, signing keys). */
export interface Randomness {
  readonly bytes: (n: number) => Effect.Effect<Uint8Array>
  /** RFC 9562 version 4 UUID, lower case. */
  readonly uuidV4: Effect.Effect<string>
  /** The same as `uuidV4`, outside any fiber: for adapters that answer without one (request ids). */
  readonly unsafeUuidV4: () => string
}

/** The Randomness service's tag. */
export const Randomness = Context.GenericTag<Randomness>("@ridequote/core/Randomness")

/** Formats 16 random bytes as a version 4 UUID (sets the version and variant bits). */
export const uuidV4FromBytes = (b: Uint8Array): string => {
  const x = Uint8Array.from(b.subarray(0, 16))
  x[6] = (x[6]! & 0x0f) | 0x40
  x[8] = (x[8]! & 0x3f) | 0x80
  let h = ""
  for (const byte of x) h += byte.toString(16).padStart(2, "0")
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Randomness from a byte source; `uuid`, when given, makes UUIDs faster than 16 bytes each would. */
export const makeRandomness = (bytes: (n: number) => Uint8Array, uuid?: () => string): Randomness => {
  const unsafeUuidV4 = uuid ?? (() => uuidV4FromBytes(bytes(16)))
  return { bytes: (n) => Effect.sync(() => bytes(n)), uuidV4: Effect.sync(unsafeUuidV4), unsafeUuidV4 }
}

/**
 * Cryptographically secure randomness from the OS. UUIDs come from `randomUUID`, which draws
 * from a cached CSPRNG buffer: a request id per request made `randomBytes(16)` ~3 % of a quote.
 */
export const RandomnessLive: Layer.Layer<Randomness> = Layer.succeed(
  Randomness,
  makeRandomness((n) => new Uint8Array(randomBytes(n)), randomUUID)
)

/**
 * Deterministic randomness from a seed, for tests and reproducible examples: SHA-256 in
 * counter mode (block i = SHA-256(seed ‖ i)), so the stream never cycles in practice and
 * different seeds give unrelated streams. Never use it for real credentials.
 */
export const seededRandomness = (seed: number): Randomness => {
  let counter = 0
  let block = new Uint8Array(0)
  let offset = 0
  const nextByte = (): number => {
    if (offset >= block.length) {
      block = new Uint8Array(createHash("sha256").update(`${seed}:${counter++}`).digest())
      offset = 0
    }
    return block[offset++] ?? 0
  }
  return makeRandomness((n) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = nextByte()
    return out
  })
}

/** Reproducible randomness from a seed, for tests: never for secrets in production. */
export const RandomnessSeeded = (seed: number): Layer.Layer<Randomness> => Layer.sync(Randomness, () => seededRandomness(seed))
