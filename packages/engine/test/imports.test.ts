/**
 * A memory-only user does not need the database adapters installed: running the in-memory
 * walkthrough in its own process, with a resolve hook recording every import (dynamic ones
 * included), no storage adapter, SQLite driver or PostgreSQL client is ever resolved. The same
 * run on a SQLite file does resolve the SQLite adapter, so the recording is not blind.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

const SUPPORT = join(import.meta.dirname, "support")

const WALKTHROUGH = join(SUPPORT, "walkthrough.mjs")

/** Every module the walkthrough imports, on `storage` ("memory" or "sqlite"). */
const importsOf = async (storage: "memory" | "sqlite"): Promise<ReadonlyArray<string>> => {
  const dir = mkdtempSync(join(tmpdir(), "ridequote-imports-"))
  try {
    const log = join(dir, "imports.log")
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--import", join(SUPPORT, "import-recorder.mjs"), WALKTHROUGH],
      { cwd: join(import.meta.dirname, ".."), env: { ...process.env, IMPORT_LOG: log, RQ_TMP: dir, RQ_STORAGE: storage }, timeout: 60_000 }
    )
    expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({ audited: 1 })
    return readFileSync(log, "utf8").split("\n").filter((line) => line !== "")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// The recorder sees ESM imports only; the SQLite driver (libsql) is loaded with require by the
// SQLite adapter, so the adapter's absence is what shows the driver's.
const DATABASE_PACKAGES = /^(@ridequote\/storage-|libsql|@libsql\/|@effect\/sql|pg$|pg\/)/

describe("what an in-memory engine loads", () => {
  it("no storage adapter, SQLite driver or PostgreSQL client", async () => {
    const imports = await importsOf("memory")
    expect(imports).toContain("@ridequote/engine")
    expect(imports.filter((s) => DATABASE_PACKAGES.test(s))).toEqual([])
  })

  it("while the same walkthrough on a SQLite file does load the SQLite adapter", async () => {
    const imports = await importsOf("sqlite")
    expect(imports).toContain("@ridequote/storage-sqlite")
    expect(imports.filter((s) => s.startsWith("@ridequote/storage-postgres"))).toEqual([])
  })
})
