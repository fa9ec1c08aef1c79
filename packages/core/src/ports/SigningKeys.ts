/** Port: HS256 signing keys, shared by every instance on one storage, with rotation. */
import type { Effect, Option, Redacted } from "effect"
import { Context, Schema } from "effect"
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
  /**
   * Retires key `kid` at once, for a key that may have leaked: it stops verifying (a current key
   * is first replaced by a new one), and the retirement is written to the access feed, so every
   * instance refuses its tokens within its refresh (at once on a push feed). Optional: adapters
   * with a fixed key leave it out. Succeeds with the key now current.
   */
  readonly retire?: (kid: KeyId) => Effect.Effect<SigningKey, StorageUnavailable | SigningKeyNotFound>
  /** Re-reads the ring from storage now (an instance whose current key was retired elsewhere). */
  readonly reload?: Effect.Effect<void, StorageUnavailable>
}

/** `retire` of a kid the storage does not hold. */
export class SigningKeyNotFound extends Schema.TaggedError<SigningKeyNotFound>()("SigningKeyNotFound", {
  message: Schema.String
}) {}

/** The SigningKeys port's tag. */
export const SigningKeys = Context.GenericTag<SigningKeys>("@ridequote/core/SigningKeys")
