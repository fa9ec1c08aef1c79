/** Port: HS256 signing keys, shared by every instance on one storage, with rotation. */
import type { Effect, Option, Redacted } from "effect"
import { Context } from "effect"
import type { StorageUnavailable } from "../Errors.js"
import type { KeyId } from "../Ids.js"

/** One HS256 key and its id (the token header's `kid`). */
export interface SigningKey {
  readonly kid: KeyId
  /** At least 256 bits. */
  readonly secret: Redacted.Redacted<Uint8Array>
}

/** The key that signs and every key that still verifies. */
export interface SigningKeyRing {
  /** Signs new tokens. */
  readonly current: SigningKey
  /** Every key that still verifies (the current one and retired ones whose tokens may not have expired). */
  readonly verifying: ReadonlyMap<string, SigningKey>
}

/** The signing keys, which storage adapters implement (kept in the database, or one fixed secret). */
export interface SigningKeys {
  /** Called on every issue and verify: adapters must answer from memory. */
  readonly ring: Effect.Effect<SigningKeyRing, StorageUnavailable>
  /**
   * The verifying key named `kid`. Answers from memory; when the kid is unknown (another
   * process sharing the storage may have rotated) a stored-key adapter reloads first, at most
   * once per second. Optional: a ring that never changes can leave it out (use `ring`).
   */
  readonly verifyingKey?: (kid: string) => Effect.Effect<Option.Option<SigningKey>, StorageUnavailable>
  /** Makes a new current key; the previous one keeps verifying until its tokens can have expired. */
  readonly rotate: Effect.Effect<SigningKey, StorageUnavailable>
}

/** The SigningKeys port's tag. */
export const SigningKeys = Context.GenericTag<SigningKeys>("@ridequote/core/SigningKeys")
