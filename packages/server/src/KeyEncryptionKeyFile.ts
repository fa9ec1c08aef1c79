/**
 * The key-encryption key (KEK) kept in a file, so that signing keys are sealed by default:
 * a copy of the database alone (a backup, a `pg_dump`, a read-only SQL account) holds only
 * sealed keys and mints nothing (docs/security.md, "Signing keys at rest").
 *
 * `RIDEQUOTE_KEY_ENCRYPTION_KEY` (the environment or a secret store) takes precedence; without
 * it the KEK is read from `RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE`, by default `key-encryption-key`
 * beside the SQLite database (`./data/key-encryption-key` for a PostgreSQL URL). The first
 * command that opens the database creates the file: 32 random bytes in base64, owner-only
 * (0600). A file that group or others may read is refused, as ssh refuses such a private key.
 */
import { randomBytes } from "node:crypto"
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs"
import { dirname, join } from "node:path"
import { Effect, Redacted } from "effect"
import type { DatabaseLocation } from "./Settings.js"
import { decodeKek, DEFAULT_DATABASE, SettingInvalid } from "./Settings.js"

export const KEY_FILE_NAME = "key-encryption-key"

/** Where the KEK file is when `RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE` does not say: beside the SQLite file. */
export const defaultKeyFile = (location: DatabaseLocation): string =>
  join(dirname(location._tag === "Sqlite" ? location.filename : DEFAULT_DATABASE), KEY_FILE_NAME)

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
    writeSync(fd, `${randomBytes(32).toString("base64")}\n`)
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

/** The KEK in `path`, creating the file on first use; refused when others may read it. */
export const keyEncryptionKeyFromFile = (path: string): Effect.Effect<Redacted.Redacted<Uint8Array>, SettingInvalid> =>
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
          throw new SettingInvalid({
            message: `the key-encryption key file ${path} may be read by others (mode ${
              mode.toString(8).padStart(3, "0")
            }): run \`chmod 600 ${path}\``
          })
        }
        return readFileSync(path, "utf8")
      },
      catch: (e) =>
        e instanceof SettingInvalid
          ? e
          : new SettingInvalid({
            message: `the key-encryption key file ${path} cannot be read or created (${errnoOf(e) ?? String(e)}); ` +
              "set RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE to a writable place or RIDEQUOTE_KEY_ENCRYPTION_KEY"
          })
    })
    const kek = yield* decodeKek(`the key-encryption key file ${path}`)(Redacted.make(text))
    if (created) {
      yield* Effect.logWarning(
        `created the key-encryption key file ${path}: the signing keys are sealed under it. ` +
          "Back it up apart from the database (docs/security.md, \"Signing keys at rest\")"
      )
    }
    return kek
  })
