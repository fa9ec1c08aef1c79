/**
 * Randomness as a service, so tests can make ids and secrets reproducible. The default draws
 * from the operating system's CSPRNG (node:crypto), which secrets and token ids require.
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"

export interface Randomness {
  readonly bytes: (n: number) => Effect.Effect<Uint8Array>
  /** RFC 9562 version 4 UUID, lower case. */
  readonly uuidV4: Effect.Effect<string>
}

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

export const makeRandomness = (bytes: (n: number) => Uint8Array): Randomness => ({
  bytes: (n) => Effect.sync(() => bytes(n)),
  uuidV4: Effect.sync(() => uuidV4FromBytes(bytes(16)))
})

/** Cryptographically secure randomness from the OS. */
export const RandomnessLive: Layer.Layer<Randomness> = Layer.succeed(Randomness, makeRandomness((n) => new Uint8Array(randomBytes(n))))

/**
 * Deterministic randomness from a seed (xorshift128+), for tests and reproducible examples.
 * Never use it for real credentials.
 */
export const seededRandomness = (seed: number): Randomness => {
  let s0 = (seed >>> 0) || 0x9e3779b9
  let s1 = 0x6c078965 ^ s0
  const next = (): number => {
    let x = s0
    const y = s1
    s0 = y
    x ^= x << 23
    x ^= x >>> 17
    x ^= y ^ (y >>> 26)
    s1 = x
    return (s0 + s1) >>> 0
  }
  return makeRandomness((n) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = next() & 0xff
    return out
  })
}

export const RandomnessSeeded = (seed: number): Layer.Layer<Randomness> => Layer.sync(Randomness, () => seededRandomness(seed))
