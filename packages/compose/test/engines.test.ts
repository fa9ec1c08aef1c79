/**
 * The one-call engines as Effect layers: in memory, and on a SQLite file in a temporary
 * folder (state kept across a restart). Also: the storage adapters are never imported
 * statically (a memory-only user installs neither), and a missing one is named.
 */
import { describe, expect, it } from "@effect/vitest"
import { Accounts, AuditLog, Quotes, RandomnessSeeded, RequestId, Tokens } from "@ridequote/core"
import { MemoryEngineLive, SqliteEngineLive, StorageAdapterMissing } from "@ridequote/compose"
import { DateTime, Effect, Exit, Layer } from "effect"
import { createRequire } from "node:module"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadAdapter, missingPackage } from "../src/Storage.js"

/** An import the compiler does not resolve (the specifier is a variable). */
const importAny = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier)

const timesSquareToJfk = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
}

/** Account, token, verify, quote, audit: what an Effect embedder does with any engine. */
const walkthrough = Effect.gen(function*() {
  const accounts = yield* Accounts
  const tokens = yield* Tokens
  const quotes = yield* Quotes
  const audit = yield* AuditLog
  const created = yield* accounts.create({ name: "Acme Rides" })
  const issued = yield* tokens.issue(created.apiKey, created.apiSecret)
  const caller = yield* tokens.verify(issued.token)
  const requestId = RequestId.make("2b0d8c2e-5a57-4c41-9d8e-0c1f3e6a7b90")
  const quote = yield* quotes.quote(caller.account, timesSquareToJfk, { requestId, receivedAt: yield* DateTime.now })
  const page = yield* audit.page({ accountId: caller.account.id, limit: 10 })
  return { created, issued, quote, page }
})

describe("MemoryEngineLive", () => {
  it.effect("prices on the shipped markets with the offline resolver, in one call", () =>
    Effect.gen(function*() {
      const { page, quote } = yield* walkthrough
      expect(quote.distanceKm).toBeGreaterThan(15)
      expect(page.entries.map((e) => e.decision)).toMatchObject([{ outcome: "quoted", market: "nyc", route: { source: "resolved" } }])
    }).pipe(Effect.provide(MemoryEngineLive())))

  it.effect("takes its markets and randomness from the options", () =>
    Effect.gen(function*() {
      const { created, page } = yield* walkthrough
      expect(page.entries[0]?.decision).toMatchObject({ market: "global-sample" })
      // Seeded randomness: the same account id every run.
      expect(created.account.id).toBe(
        (yield* Effect.provide(Effect.flatMap(Accounts, (a) => a.create({ name: "again" })), MemoryEngineLive({
          markets: "sample",
          randomness: RandomnessSeeded(7)
        }))).account.id
      )
    }).pipe(Effect.provide(MemoryEngineLive({ markets: "sample", randomness: RandomnessSeeded(7) }))))

  it.effect("refuses a folder of models that does not exist, at start", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Layer.build(MemoryEngineLive({ markets: { models: "/nonexistent/models" } })))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).toContain("MarketModelInvalid")
    }).pipe(Effect.scoped))
})

describe("SqliteEngineLive", () => {
  it.effect("keeps accounts, signing keys and the audit in the file across a restart", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "ridequote-engine-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const engine = SqliteEngineLive({ filename: join(dir, "nested", "ridequote.db") })
      const first = yield* Effect.provide(walkthrough, engine)
      expect(readdirSync(join(dir, "nested"))).toContain("ridequote.db")

      // A second engine on the same file: the token verifies, the secret works, the quote is audited.
      const again = yield* Effect.provide(
        Effect.gen(function*() {
          const tokens = yield* Tokens
          const caller = yield* tokens.verify(first.issued.token)
          const reissued = yield* tokens.issue(first.created.apiKey, first.created.apiSecret)
          const page = yield* (yield* AuditLog).page({ accountId: caller.account.id, limit: 10 })
          return { caller, reissued, page }
        }),
        engine
      )
      expect(again.caller.account.id).toBe(first.created.account.id)
      expect(again.reissued.ttlSeconds).toBe(86_400)
      expect(again.page.entries.map((e) => e.requestId)).toEqual([first.quote.requestId])
    }).pipe(Effect.scoped))

  it.effect("seals the signing keys by default, under a key-encryption key in an owner-only file beside the database", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "ridequote-kek-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const filename = join(dir, "ridequote.db")
      const first = yield* Effect.provide(walkthrough, SqliteEngineLive({ filename }))
      const keyFile = join(dir, "key-encryption-key")
      expect(statSync(keyFile).mode & 0o777).toBe(0o600)
      const kek = readFileSync(keyFile, "utf8").trim()

      // The database alone does not open: under another KEK the stored key cannot be unsealed.
      const otherKek = Buffer.alloc(32, 7).toString("base64")
      const refused = yield* Effect.exit(
        Effect.provide(Tokens, SqliteEngineLive({ filename, keyEncryptionKey: otherKek }))
      )
      expect(Exit.isFailure(refused)).toBe(true)

      // Given the file's KEK from a secret store instead, it opens and the token still verifies.
      const caller = yield* Effect.provide(
        Effect.flatMap(Tokens, (tokens) => tokens.verify(first.issued.token)),
        SqliteEngineLive({ filename, keyEncryptionKey: kek, keyEncryptionKeyFile: join(dir, "unused") })
      )
      expect(caller.account.id).toBe(first.created.account.id)
      expect(readdirSync(dir)).not.toContain("unused")
    }).pipe(Effect.scoped))

  it.effect("refuses a key-encryption key file that others may read", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "ridequote-kek-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const keyFile = join(dir, "kek")
      writeFileSync(keyFile, Buffer.alloc(32, 1).toString("base64"), { mode: 0o644 })
      const exit = yield* Effect.exit(
        Effect.provide(Tokens, SqliteEngineLive({ filename: join(dir, "r.db"), keyEncryptionKeyFile: keyFile }))
      )
      expect(exit).toMatchObject({ _tag: "Failure" })
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(/may be read by others/)
    }).pipe(Effect.scoped))
})

describe("storage adapters", () => {
  it.effect("an adapter that cannot be loaded fails with StorageAdapterMissing, naming the package to install", () =>
    Effect.gen(function*() {
      const missing = "@ridequote/storage-that-is-not-installed"
      const error = yield* Effect.flip(loadAdapter(missing, () => import(/* @vite-ignore */ missing)))
      expect(error).toBeInstanceOf(StorageAdapterMissing)
      expect(error.code).toBe("result:internal")
      expect(error.message).toContain(`npm install ${missing}`)
      expect(error.adapter).toBe(missing)
    }))

  it.effect("an adapter whose driver is not installed names the driver (what @ridequote/engine, which carries the adapters, needs)", () =>
    Effect.gen(function*() {
      // Node's own failures: an ES import and a require of packages that are not installed.
      const byImport = yield* Effect.flip(loadAdapter("@ridequote/storage-postgres", () => importAny("pg-not-installed")))
      expect(byImport.adapter).toBe("pg-not-installed")
      expect(byImport.message).toContain("npm install pg-not-installed")
      const byRequire = yield* Effect.flip(
        loadAdapter("@ridequote/storage-sqlite", async () => createRequire(import.meta.url).resolve("libsql-not-installed"))
      )
      expect(byRequire.adapter).toBe("libsql-not-installed")
      expect(byRequire.message).not.toContain("Require stack")
      // A missing file is not a package to install: the adapter is named.
      const byFile = yield* Effect.flip(loadAdapter("@ridequote/storage-sqlite", () => importAny("./not-a-file.js")))
      expect(byFile.adapter).toBe("@ridequote/storage-sqlite")
      expect(missingPackage(new Error("Cannot find module '/abs/worker.cjs'"))).toBeUndefined()
      expect(missingPackage(new Error("Cannot find package '@scope/name' imported from /x.js"))).toBe("@scope/name")
    }))

  it("are imported only when chosen: no static import of @ridequote/storage-* anywhere in the package", () => {
    const src = join(import.meta.dirname, "..", "src")
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))
    for (const file of files) {
      const text = readFileSync(join(src, file), "utf8")
      const staticImports = [...text.matchAll(/^\s*(?:import|export)\s(?!type\b)[^;]*?from\s*["'](@ridequote\/storage-[^"']+)["']/gm)]
      expect(staticImports.map((m) => `${file}: ${m[1]}`)).toEqual([])
    }
    expect(readFileSync(join(src, "Storage.ts"), "utf8")).toContain('import("@ridequote/storage-sqlite")')
  })
})
