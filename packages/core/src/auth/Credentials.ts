/**
 * API credentials: a non-secret key and a 256-bit secret. Only a hash of the secret is kept;
 * comparison is constant-time. SHA-256 (not a slow KDF) is enough because the secret is 256
 * random bits, not a password: there is nothing to brute-force, and a KDF would cap token
 * issue at ~25/s on this hardware (see docs/security.md).
 */
import { Context } from "effect"
import type { Effect, Redacted } from "effect"
import type { ApiKey } from "../Ids.js"
import type { SecretHash } from "../ports/AccountStore.js"

export interface GeneratedCredentials {
  readonly apiKey: ApiKey
  /** `rqs_` + 43 base64url characters (256 bits). Shown once, never stored. */
  readonly apiSecret: Redacted.Redacted<string>
}

export interface Credentials {
  readonly generate: Effect.Effect<GeneratedCredentials>
  readonly generateSecret: Effect.Effect<Redacted.Redacted<string>>
  readonly hash: (secret: Redacted.Redacted<string>) => SecretHash
  /** Constant-time comparison of the secret's hash with the stored one. */
  readonly verify: (secret: Redacted.Redacted<string>, stored: SecretHash) => boolean
}

export const Credentials = Context.GenericTag<Credentials>("@ridequote/core/Credentials")
