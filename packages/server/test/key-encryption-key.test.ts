/**
 * Signing keys are sealed by default (docs/security.md, "Signing keys at rest"): without
 * RIDEQUOTE_KEY_ENCRYPTION_KEY the key-encryption key lives in a file created on first use,
 * owner-only, beside the SQLite database (or where RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE says), and
 * `migrate` seals a key an older version stored in plain. What the database holds then mints
 * nothing without that file.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Redacted } from "effect"
import { chmodSync, existsSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { migrateSqlite, SqliteClientLive } from "@ridequote/storage-sqlite"
import { migratePostgres } from "@ridequote/storage-postgres"
import { createTestDatabase, postgresAvailable, queryTestDatabase } from "./support/Postgres.js"
import { runInProcess as run } from "./support/InProcessCli.js"
import { tempDir } from "./support/Processes.js"

const dir = tempDir("kek")
afterAll(() => dir.remove())


/** The stored form of every signing key, as a copy of the database shows it. */
const storedKeys = (filename: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ secret: string }>`SELECT secret FROM signing_keys`).pipe(
    Effect.map((rows) => rows.map((row) => row.secret)),
    Effect.provide(SqliteClientLive(filename)),
    Effect.runPromise
  )

describe("the key-encryption key file", () => {
  it("first use creates it beside the database, 0600, and the stored signing key is sealed", async () => {
    const folder = dir.file("fresh")
    const database = join(folder, "ridequote.db")
    const r = await run(["accounts", "create", "--name", "A", "--json", "--database", database])
    expect(r.ok, r.stderr).toBe(true)
    const kekFile = join(folder, "key-encryption-key")
    expect(statSync(kekFile).mode & 0o777).toBe(0o600)
    const keys = await storedKeys(database)
    expect(keys.length).toBe(1)
    expect(keys.every((secret) => secret.startsWith("aes256gcm:"))).toBe(true)

    // The same file keeps working; a database copied without it mints nothing: refused at start.
    expect((await run(["accounts", "list", "--database", database])).ok).toBe(true)
    rmSync(kekFile)
    const without = await run(["accounts", "list", "--database", database])
    expect(without.ok).toBe(false)
    expect(without.stderr).toMatch(/encrypted under key-encryption key/)
  })

  it("migrate seals a signing key an earlier version stored in plain (upgrade)", async () => {
    const database = dir.file("upgrade/ridequote.db")
    // What releases before sealing by default left behind: the first migration's key, plain.
    await Effect.runPromise(migrateSqlite(database))
    const before = await storedKeys(database)
    expect(before.length).toBe(1)
    expect(before[0]).not.toMatch(/^aes256gcm:/)
    const migrated = await run(["migrate", "--database", database])
    expect(migrated.ok, migrated.stderr).toBe(true)
    const after = await storedKeys(database)
    expect(after.length).toBe(1)
    expect(after[0]).toMatch(/^aes256gcm:/)
    expect(existsSync(dir.file("upgrade/key-encryption-key"))).toBe(true)
  })

  it("RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE puts it elsewhere; a file others may read is refused", async () => {
    const database = dir.file("elsewhere/ridequote.db")
    const kekFile = dir.file("secrets/ridequote.kek")
    const env = { RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE: kekFile }
    expect((await run(["migrate", "--database", database], env)).ok).toBe(true)
    expect(statSync(kekFile).mode & 0o777).toBe(0o600)
    expect(existsSync(dir.file("elsewhere/key-encryption-key"))).toBe(false)
    chmodSync(kekFile, 0o644)
    const loose = await run(["accounts", "list", "--database", database], env)
    expect(loose.ok).toBe(false)
    expect(loose.stderr).toContain(`chmod 600 ${kekFile}`)
  })

  it("RIDEQUOTE_KEY_ENCRYPTION_KEY wins over the file, and no file is made", async () => {
    const database = dir.file("from-env/ridequote.db")
    const env = { RIDEQUOTE_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64") }
    expect((await run(["migrate", "--database", database], env)).ok).toBe(true)
    expect(existsSync(dir.file("from-env/key-encryption-key"))).toBe(false)
    expect((await storedKeys(database))[0]).toMatch(/^aes256gcm:/)
  })
})

describe.runIf(postgresAvailable)("the key-encryption key file on PostgreSQL", () => {
  it("migrate seals the plain key an earlier version stored; the table alone then holds sealed keys only", async () => {
    const db = await createTestDatabase("kek_upgrade")
    try {
      await Effect.runPromise(migratePostgres({ url: Redacted.make(db.url) }))
      const plain = await queryTestDatabase<{ secret: string }>(db, "SELECT secret FROM signing_keys")
      expect(plain.map((row) => row.secret.startsWith("aes256gcm:"))).toEqual([false])
      const kekFile = dir.file("pg/key-encryption-key")
      const migrated = await run(["migrate", "--database", db.url], { RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE: kekFile })
      expect(migrated.ok, migrated.stderr).toBe(true)
      expect(statSync(kekFile).mode & 0o777).toBe(0o600)
      const sealed = await queryTestDatabase<{ secret: string }>(db, "SELECT secret FROM signing_keys")
      expect(sealed.map((row) => row.secret.startsWith("aes256gcm:"))).toEqual([true])
    } finally {
      await db.drop()
    }
  })
})
