/**
 * Where the key-encryption key (KEK) that seals the signing keys comes from, so that signing
 * keys are sealed by default: a copy of the database alone (a backup, a `pg_dump`, a read-only
 * SQL account) holds only sealed keys and mints nothing (docs/security.md, "Signing keys at
 * rest"). The `ridequote` program and `@ridequote/engine` both read it from here.
 *
 * A KEK is 32 random bytes in base64: from the environment or a secret store, or from a file
 * that the first process opening the database creates (owner-only, 0600). A file that group or
 * others may read is refused, as ssh refuses such a private key.
 */
import { randomBytes } from "node:crypto"
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs"
import { dirname } from "node:path"
import { Effect, Redacted, Schema } from "effect"
import { KEK_BYTES } from "./SigningKeyCipher.js"

/** The KEK file's name where a deployment does not name one: beside the SQLite database. */
export const KEY_ENCRYPTION_KEY_FILE_NAME = "key-encryption-key"

/** A KEK that is not 32 bytes in base64, or a KEK file that cannot be read, created or is readable by others. */
export class KeyEncryptionKeyInvalid extends Schema.TaggedError<KeyEncryptionKeyInvalid>()("KeyEncryptionKeyInvalid", {
  message: Schema.String
}) {}

/** Decodes a KEK given as base64 (or base64url) text; `source` names where it came from in the error. */
export const decodeKeyEncryptionKey = (source: string) =>
(value: Redacted.Redacted<string>): Effect.Effect<Redacted.Redacted<Uint8Array>, KeyEncryptionKeyInvalid> => {
  const text = Redacted.value(value).trim()
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text)
    ? Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64")
    : Buffer.alloc(0)
  return bytes.length === KEK_BYTES
    ? Effect.succeed(Redacted.make(new Uint8Array(bytes)))
    : Effect.fail(
      new KeyEncryptionKeyInvalid({
        message: `${source} must be ${KEK_BYTES} random bytes in base64 (e.g. the output of \`openssl rand -base64 32\`)`
      })
    )
}

const errnoOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e ? String(e.code) : undefined

/**
 * Creates the file with a new KEK unless it exists. Written to a private temporary file and
 * linked into place: `link` fails when the name exists, so of two processes starting at once
 * exactly one KEK wins, and no reader ever sees a half-written file.
 */
const createIfMissing = (path: string): boolean => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`
  const fd = openSync(temporary, "wx", 0o600)
  try {
    writeSync(fd, `${randomBytes(KEK_BYTES).toString("base64")}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    linkSync(temporary, path)
    return true
  } catch (e) {
    if (errnoOf(e) !== "EEXIST") throw e
    return false
  } finally {
    unlinkSync(temporary)
  }
}

/**
 * The KEK in the file at `path`, creating the file on first use (logged as a warning that asks
 * for a backup kept apart from the database); refused when group or others may read it.
 */
export const keyEncryptionKeyFromFile = (
  path: string
): Effect.Effect<Redacted.Redacted<Uint8Array>, KeyEncryptionKeyInvalid> =>
  Effect.gen(function*() {
    let created = false
    const text = yield* Effect.try({
      try: () => {
        try {
          statSync(path)
        } catch (e) {
          if (errnoOf(e) !== "ENOENT") throw e
          created = createIfMissing(path)
        }
        const mode = statSync(path).mode & 0o777
        if ((mode & 0o077) !== 0) {
          throw new KeyEncryptionKeyInvalid({
            message: `the key-encryption key file ${path} may be read by others (mode ${
              mode.toString(8).padStart(3, "0")
            }): run \`chmod 600 ${path}\``
          })
        }
        return readFileSync(path, "utf8")
      },
      catch: (e) =>
        e instanceof KeyEncryptionKeyInvalid
          ? e
          : new KeyEncryptionKeyInvalid({
            message: `the key-encryption key file ${path} cannot be read or created (${errnoOf(e) ?? String(e)}); ` +
              "set RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE to a writable place or RIDEQUOTE_KEY_ENCRYPTION_KEY"
          })
    })
    const kek = yield* decodeKeyEncryptionKey(`the key-encryption key file ${path}`)(Redacted.make(text))
    if (created) {
      yield* Effect.logWarning(
        `created the key-encryption key file ${path}: the signing keys are sealed under it. ` +
          "Back it up apart from the database (docs/security.md, \"Signing keys at rest\")"
      )
    }
    return kek
  })
