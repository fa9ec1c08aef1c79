/**
 * `ridequote copy`: a SQLite database moved into an empty PostgreSQL database keeps its
 * accounts, signing keys (tokens issued before still verify), revocations, revoke-all cutoffs
 * and audit; a target that is not empty is refused.
 */
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccountId, AuditLog, Tokens } from "@ridequote/core"
import { auditRecord } from "@ridequote/storage-sql/testing"
import { StorageLive } from "../src/Storage.js"
import { auditedRequestIds } from "./support/Audit.js"
import { withOperator } from "../src/Operator.js"
import { field } from "./support/Api.js"
import { runInProcess as run } from "./support/InProcessCli.js"
import { createTestDatabase, postgresAvailable, type TestDatabase } from "./support/Postgres.js"
import { tempDir } from "./support/Processes.js"


const operate = <A, E>(database: string, action: Effect.Effect<A, E, Tokens>) =>
  withOperator(database, action).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map())), Effect.either, Effect.runPromise)

describe.runIf(postgresAvailable)("ridequote copy: SQLite into PostgreSQL", { timeout: 120_000 }, () => {
  const dir = tempDir("copy")
  let target: TestDatabase
  beforeAll(async () => {
    target = await createTestDatabase("copy")
  })
  afterAll(async () => {
    await target?.drop()
    dir.remove()
  })

  it("moves accounts, keys, tokens, revocations and the audit; tokens issued before verify after", async () => {
    const source = dir.file("source.db")
    const created = await run(["accounts", "create", "--name", "Moving House", "--json", "--database", source])
    expect(created.ok, created.stderr).toBe(true)
    const account = JSON.parse(created.stdout) as Record<string, string>
    const apiKey = String(field(account, "apiKey")), apiSecret = String(field(account, "apiSecret"))
    const issue = Effect.flatMap(Tokens, (t) => t.issue(apiKey, Redacted.make(apiSecret)))
    const kept = await operate(source, issue)
    const revoked = await operate(source, issue)
    if (kept._tag !== "Right" || revoked._tag !== "Right") throw new Error("issue failed")
    await operate(source, Effect.flatMap(Tokens, (t) => t.revoke(AccountId.make(String(field(account, "id"))), { _tag: "Token", jti: revoked.right.jti })))

    const accountId = AccountId.make(String(field(account, "id")))
    const records = Array.from({ length: 1_234 }, (_, i) => auditRecord(accountId, Date.UTC(2026, 10, 22) + i))
    await Effect.flatMap(AuditLog, (log) => Effect.forEach(records, log.append, { concurrency: 50, discard: true })).pipe(
      Effect.provide(StorageLive({ _tag: "Sqlite", filename: source }, Option.none())),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map())),
      Effect.runPromise
    )

    const copy = await run(["copy", "--from", source, "--to", target.url, "--json"])
    expect(copy.ok, copy.stderr).toBe(true)
    expect(JSON.parse(copy.stdout)).toMatchObject({
      from: source,
      to: "postgres://…",
      copied: { accounts: 1, tokens: 2, signing_keys: 1, audit: records.length }
    })
    const audited = await auditedRequestIds(target.url, accountId)
    expect(audited).toEqual(new Set(records.map((r) => r.requestId)))
    expect(copy.stdout).not.toContain(target.name)

    const listed = await run(["accounts", "list", "--json", "--database", target.url])
    expect(listed.stdout).toContain(String(field(account, "id")))
    expect((await operate(target.url, Effect.flatMap(Tokens, (t) => t.verify(kept.right.token))))._tag).toBe("Right")
    const refused = await operate(target.url, Effect.flatMap(Tokens, (t) => t.verify(revoked.right.token)))
    expect(refused._tag === "Left" ? refused.left._tag : "accepted").toBe("TokenRevoked")
    // the API key and secret work on the new database too
    expect((await operate(target.url, issue))._tag).toBe("Right")
  })

  it("migrate on a postgres:// URL brings a new database up to date, idempotently", async () => {
    const fresh = await createTestDatabase("migrate")
    try {
      for (let i = 0; i < 2; i++) {
        const r = await run(["migrate", "--database", fresh.url, "--json"])
        expect(r.ok, r.stderr).toBe(true)
        expect(JSON.parse(r.stdout)).toEqual({ database: "postgres://…", upToDate: true })
      }
    } finally {
      await fresh.drop()
    }
  })

  it("refuses a target that already holds data", async () => {
    const source = dir.file("second.db")
    expect((await run(["migrate", "--database", source])).ok).toBe(true)
    const again = await run(["copy", "--from", source, "--to", target.url])
    expect(again.ok).toBe(false)
    expect(again.stderr).toMatch(/not empty/)
  })
})

