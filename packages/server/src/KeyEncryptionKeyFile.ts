/**
 * Where `ridequote` keeps its key-encryption key (KEK) when the environment has none: the file
 * named by `RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE`, by default `key-encryption-key` beside the SQLite
 * database (`./data/key-encryption-key` for a PostgreSQL URL). Reading, creating (0600) and
 * refusing a file others may read is `@ridequote/storage-sql`'s `keyEncryptionKeyFromFile`, which
 * `@ridequote/compose` (and so the engine) uses too (docs/security.md, "Signing keys at rest").
 */
import { dirname, join } from "node:path"
import { KEY_ENCRYPTION_KEY_FILE_NAME, keyEncryptionKeyFromFile as readKeyFile } from "@ridequote/storage-sql"
import { Effect } from "effect"
import type { Redacted } from "effect"
import type { DatabaseLocation } from "./Settings.js"
import { DEFAULT_DATABASE, SettingInvalid } from "./Settings.js"

export const KEY_FILE_NAME = KEY_ENCRYPTION_KEY_FILE_NAME

/** Where the KEK file is when `RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE` does not say: beside the SQLite file. */
export const defaultKeyFile = (location: DatabaseLocation): string =>
  join(dirname(location._tag === "Sqlite" ? location.filename : DEFAULT_DATABASE), KEY_FILE_NAME)

/** The KEK in `path`, creating the file on first use; refused (as a setting) when others may read it. */
export const keyEncryptionKeyFromFile = (path: string): Effect.Effect<Redacted.Redacted<Uint8Array>, SettingInvalid> =>
  readKeyFile(path).pipe(Effect.mapError((e) => new SettingInvalid({ message: e.message })))
