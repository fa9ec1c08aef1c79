/** SQLite under the storage contract: real files in a temporary directory (removed after the file's tests). */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { DatabaseRef, StorageUnderTest } from "@ridequote/storage-sql/testing"
import { afterAll } from "vitest"
import { SqliteClientLive, SqliteStorageLive } from "../src/index.js"

export * from "@ridequote/storage-sql/testing"

/** A fresh directory for this test file; every database of the file lives in it. */
export const tempDirectory = (): { readonly file: (name: string) => string } => {
  const dir = mkdtempSync(join(tmpdir(), "ridequote-storage-"))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  afterAll(remove)
  // also when a failing run skips the hooks after a layer's teardown
  process.once("exit", remove)
  let n = 0
  return { file: (name) => join(dir, `${name}-${++n}.db`) }
}

/** Each database is a new file in this test file's temporary directory. */
export const sqliteUnderTest = (): StorageUnderTest => {
  const dir = tempDirectory()
  return {
    name: "SQLite",
    newDatabase: (label) => dir.file(label) as DatabaseRef,
    storage: (db, settings) => SqliteStorageLive({ ...settings, filename: db }),
    client: (db) => SqliteClientLive(db)
  }
}
