/**
 * Signing keys at rest. Without a key-encryption key (KEK) a signing key is stored as base64url,
 * and anyone who can read the database can mint tokens. With one (from the environment, never
 * the database) each key is sealed with AES-256-GCM:
 *
 *   aes256gcm:<kek id>:<iv>:<ciphertext>:<tag>      (all base64url)
 *
 * The kid is the additional authenticated data, so a sealed secret copied onto another key's row
 * does not open. The KEK id (a hash of the KEK) names which KEK sealed a row, so a wrong or
 * missing KEK is reported as such rather than as a failed decryption.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { Either, Redacted } from "effect"

/** Length of a key-encryption key: 32 bytes, an AES-256 key. */
export const KEK_BYTES = 32
const IV_BYTES = 12
const PREFIX = "aes256gcm"

/**
 * The key-encryption keys that seal signing keys at rest (RIDEQUOTE_KEY_ENCRYPTION_KEY and
 * …_PREVIOUS). They come from the environment, never the database, so a copy of the database
 * alone cannot mint tokens.
 */
export interface KeyEncryption {
  /** Seals every key written from now on (and, at load and rotation, every key not yet under it). */
  readonly current: Redacted.Redacted<Uint8Array>
  /** Still opens keys sealed before a KEK rotation, until `keys rotate` has re-sealed them. */
  readonly previous: ReadonlyArray<Redacted.Redacted<Uint8Array>>
}

/**
 * A short public name for a KEK (11 base64url characters of a domain-separated SHA-256), written
 * into every sealed key so a missing or wrong KEK is named in the error, not reported as a
 * failed decryption. Reveals nothing usable about the KEK.
 */
export const kekId = (kek: Redacted.Redacted<Uint8Array>): string =>
  createHash("sha256").update("ridequote key-encryption key id\0").update(Redacted.value(kek)).digest("base64url")
    .slice(0, 11)

/** Whether a stored signing-key secret is sealed under a KEK (`aes256gcm:` form) rather than plain base64url. */
export const isSealed = (stored: string): boolean => stored.startsWith(`${PREFIX}:`)

/** The stored form of `secret` (raw key bytes) for the key `kid`. */
export const seal = (secret: Uint8Array, kid: string, kek: Redacted.Redacted<Uint8Array>): string => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", Redacted.value(kek), iv)
  cipher.setAAD(Buffer.from(kid, "utf8"))
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()])
  return [PREFIX, kekId(kek), iv.toString("base64url"), ciphertext.toString("base64url"), cipher.getAuthTag().toString("base64url")]
    .join(":")
}

/** Raw key bytes from a stored secret, sealed or plain; Left is a message for the operator. */
export const open = (
  stored: string,
  kid: string,
  encryption: KeyEncryption | undefined
): Either.Either<Uint8Array, string> => {
  if (!isSealed(stored)) return Either.right(new Uint8Array(Buffer.from(stored, "base64url")))
  const [, id, iv, ciphertext, tag] = stored.split(":")
  if (id === undefined || iv === undefined || ciphertext === undefined || tag === undefined) {
    return Either.left(`signing key ${kid} is stored in an unreadable form`)
  }
  const keks = encryption === undefined ? [] : [encryption.current, ...encryption.previous]
  const kek = keks.find((k) => kekId(k) === id)
  if (kek === undefined) {
    return Either.left(
      `signing key ${kid} is encrypted under key-encryption key ${id}, which is neither ` +
        "RIDEQUOTE_KEY_ENCRYPTION_KEY nor RIDEQUOTE_KEY_ENCRYPTION_KEY_PREVIOUS nor the key file " +
        "(RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE, by default key-encryption-key beside the SQLite database): " +
        "give every process that opens this database the same key-encryption key"
    )
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", Redacted.value(kek), Buffer.from(iv, "base64url"))
    decipher.setAAD(Buffer.from(kid, "utf8"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Either.right(new Uint8Array(Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()])))
  } catch {
    return Either.left(`signing key ${kid} does not decrypt: its row was altered`)
  }
}

/** Whether a stored secret should be re-sealed under the current KEK (plain, or under a previous KEK). */
export const needsResealing = (stored: string, encryption: KeyEncryption | undefined): boolean =>
  encryption !== undefined && (!isSealed(stored) || stored.split(":")[1] !== kekId(encryption.current))
