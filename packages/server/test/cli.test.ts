/**
 * The operator commands (docs/operations.md, "Commands"), run in-process against a temporary SQLite file with a
 * captured console: what reaches stdout and stderr, and whether the command failed. The same
 * program runs as a real process in cli-process.test.ts (exit codes) and in the end-to-end
 * tests.
 */
import { Effect, Redacted } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Tokens } from "@ridequote/core"
import { withOperator } from "../src/Operator.js"
import { field } from "./support/Api.js"
import { runInProcess as run } from "./support/InProcessCli.js"
import { tempDir } from "./support/Processes.js"

const dir = tempDir("cli")
afterAll(() => dir.remove())


const json = (out: string): unknown => {
  const lines = out.trim().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0] ?? "")
}

interface Created {
  readonly id: string
  readonly apiKey: string
  readonly apiSecret: string
}

const create = async (database: string, ...extra: ReadonlyArray<string>): Promise<Created> => {
  const r = await run(["accounts", "create", "--name", "Acme Rides", "--json", "--database", database, ...extra])
  expect(r.ok, r.stderr).toBe(true)
  const body = json(r.stdout)
  const id = field(body, "id"), apiKey = field(body, "apiKey"), apiSecret = field(body, "apiSecret")
  if (typeof id !== "string" || typeof apiKey !== "string" || typeof apiSecret !== "string") {
    throw new Error(`unexpected output ${r.stdout}`)
  }
  return { id, apiKey, apiSecret }
}

/** Issues a token in-process, as `POST /v1/auth/token` would. */
const issue = (database: string, apiKey: string, apiSecret: string) =>
  withOperator(database, Effect.flatMap(Tokens, (t) => t.issue(apiKey, Redacted.make(apiSecret)))).pipe(
    Effect.either,
    Effect.runPromise
  )

const verify = (database: string, token: string) =>
  withOperator(database, Effect.flatMap(Tokens, (t) => t.verify(token))).pipe(Effect.either, Effect.runPromise)

describe("accounts create", () => {
  it("--json prints exactly one JSON object on stdout with id, apiKey and apiSecret", async () => {
    const database = dir.file("create.db")
    const r = await run(["accounts", "create", "--name", "Acme Rides", "--json", "--database", database])
    expect(r.ok, r.stderr).toBe(true)
    const body = json(r.stdout)
    expect(field(body, "id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(field(body, "apiKey")).toMatch(/^rqk_[A-Za-z0-9_-]{24}$/)
    expect(field(body, "apiSecret")).toMatch(/^rqs_[A-Za-z0-9_-]{43}$/)
    expect(field(body, "name")).toBe("Acme Rides")
    expect(field(body, "status")).toBe("Active")
    expect(field(body, "tokenTtlSeconds")).toBe(86_400)
    expect(r.stderr).not.toContain(String(field(body, "apiSecret")))
  })

  it("takes --status, --token-ttl and --behavior", async () => {
    const database = dir.file("create-options.db")
    const r = await run([
      "accounts", "create", "--name", "Night Owl", "--status", "Pending", "--token-ttl", "3600",
      "--behavior", "undercut", "--json", "--database", database
    ])
    expect(r.ok, r.stderr).toBe(true)
    const body = json(r.stdout)
    expect(field(body, "status")).toBe("Pending")
    expect(field(body, "tokenTtlSeconds")).toBe(3600)
    expect(field(field(body, "pricing"), "defaultBehavior")).toBe("undercut")
  })

  it("human output shows the id, the key and the secret once, with a warning to store it", async () => {
    const database = dir.file("create-human.db")
    const r = await run(["accounts", "create", "--name", "Acme Rides", "--database", database])
    expect(r.ok, r.stderr).toBe(true)
    const secret = /API secret: (rqs_\S+)/.exec(r.stdout)?.[1]
    expect(secret).toBeDefined()
    expect(r.stdout.split(secret ?? "").length - 1).toBe(1)
    expect(r.stdout).toMatch(/API key:\s+rqk_/)
    expect(r.stdout).toMatch(/shown once/)
  })

  it("an unknown behavior, an out-of-range TTL or an empty name fail with a message on stderr", async () => {
    const database = dir.file("create-bad.db")
    for (const extra of [["--behavior", "no-such-behavior"], ["--token-ttl", "59"], ["--token-ttl", "31622401"]]) {
      const r = await run(["accounts", "create", "--name", "X", "--json", "--database", database, ...extra])
      expect(r.ok).toBe(false)
      expect(r.stdout).toBe("")
      expect(r.stderr).toMatch(/^ridequote: .+/m)
    }
    const blank = await run(["accounts", "create", "--name", "  ", "--database", database])
    expect(blank.ok).toBe(false)
    expect(blank.stderr).toMatch(/^ridequote: .+/m)
    // Nothing was created by the failed attempts.
    const list = await run(["accounts", "list", "--json", "--database", database])
    expect(field(json(list.stdout), "accounts")).toEqual([])
  })
})

describe("accounts list / show", () => {
  it("never print the secret (human or --json)", async () => {
    const database = dir.file("list.db")
    const a = await create(database)
    const b = await create(database)
    const outputs = [
      await run(["accounts", "list", "--database", database]),
      await run(["accounts", "list", "--json", "--database", database]),
      await run(["accounts", "show", a.id, "--database", database]),
      await run(["accounts", "show", b.id, "--json", "--database", database])
    ]
    for (const r of outputs) {
      expect(r.ok, r.stderr).toBe(true)
      for (const secret of [a.apiSecret, b.apiSecret]) {
        expect(r.stdout).not.toContain(secret)
        expect(r.stderr).not.toContain(secret)
      }
    }
    expect(outputs[0]?.stdout).toContain(a.id)
    expect(outputs[0]?.stdout).toContain(b.id)
    const listed = field(json(outputs[1]?.stdout ?? ""), "accounts")
    expect(Array.isArray(listed) ? listed.map((x) => field(x, "id")) : listed).toEqual([a.id, b.id])
    expect(outputs[2]?.stdout).toContain(`id:         ${a.id}`)
    expect(field(json(outputs[3]?.stdout ?? ""), "id")).toBe(b.id)
    expect(field(json(outputs[3]?.stdout ?? ""), "apiSecret")).toBeUndefined()
  })

  it("show of an unknown or malformed id fails with a clear message", async () => {
    const database = dir.file("show-unknown.db")
    for (const id of ["6f1c2c3e-9a44-4f7e-8a59-0b8e2f3c1d2a", "not-an-id"]) {
      const r = await run(["accounts", "show", id, "--database", database])
      expect(r.ok).toBe(false)
      expect(r.stdout).toBe("")
      expect(r.stderr).toMatch(/not found|no account/i)
    }
  })
})

describe("accounts set-status", () => {
  it("changes the status; tokens of a Blocked account stop issuing", async () => {
    const database = dir.file("status.db")
    const a = await create(database)
    const r = await run(["accounts", "set-status", a.id, "Blocked", "--json", "--database", database])
    expect(r.ok, r.stderr).toBe(true)
    expect(field(json(r.stdout), "status")).toBe("Blocked")
    const refused = await issue(database, a.apiKey, a.apiSecret)
    expect(refused._tag === "Left" ? refused.left._tag : "issued").toBe("AccountBlocked")

    const back = await run(["accounts", "set-status", a.id, "active", "--database", database])
    expect(back.ok, back.stderr).toBe(true)
    expect(back.stdout).toContain("is now Active")
    expect((await issue(database, a.apiKey, a.apiSecret))._tag).toBe("Right")
  })

  it("--revoke-tokens also revokes every token the account holds", async () => {
    const database = dir.file("status-revoke.db")
    const a = await create(database)
    const issued = await issue(database, a.apiKey, a.apiSecret)
    if (issued._tag === "Left") throw new Error(issued.left.message)
    expect((await verify(database, issued.right.token))._tag).toBe("Right")

    const r = await run(["accounts", "set-status", a.id, "Pending", "--revoke-tokens", "--json", "--database", database])
    expect(r.ok, r.stderr).toBe(true)
    expect(field(json(r.stdout), "revoked")).toBe(1)
    const after = await verify(database, issued.right.token)
    expect(after._tag === "Left" ? after.left._tag : "valid").toBe("TokenRevoked")
  })

  it("a status other than Active, Pending or Blocked is refused", async () => {
    const database = dir.file("status-bad.db")
    const a = await create(database)
    const r = await run(["accounts", "set-status", a.id, "Suspended", "--database", database])
    expect(r.ok).toBe(false)
    expect(r.stderr).toMatch(/Active/)
    const show = await run(["accounts", "show", a.id, "--json", "--database", database])
    expect(field(json(show.stdout), "status")).toBe("Active")
  })

  it("an unknown account id is refused", async () => {
    const database = dir.file("status-unknown.db")
    const r = await run(["accounts", "set-status", "6f1c2c3e-9a44-4f7e-8a59-0b8e2f3c1d2a", "Blocked", "--database", database])
    expect(r.ok).toBe(false)
    expect(r.stderr).toMatch(/not found|no account/i)
  })
})

describe("accounts set-token-ttl", () => {
  it("accepts 60..31622400 seconds and refuses values outside", async () => {
    const database = dir.file("ttl.db")
    const a = await create(database)
    for (const ttl of [60, 31_622_400, 3600]) {
      const r = await run(["accounts", "set-token-ttl", a.id, String(ttl), "--json", "--database", database])
      expect(r.ok, r.stderr).toBe(true)
      expect(field(json(r.stdout), "tokenTtlSeconds")).toBe(ttl)
    }
    for (const ttl of ["59", "31622401", "0"]) {
      const r = await run(["accounts", "set-token-ttl", a.id, ttl, "--database", database])
      expect(r.ok).toBe(false)
      expect(r.stdout).toBe("")
      expect(r.stderr).toMatch(/^ridequote: .*(60|31622400)/m)
    }
    const show = await run(["accounts", "show", a.id, "--json", "--database", database])
    expect(field(json(show.stdout), "tokenTtlSeconds")).toBe(3600)
    // The next token lives that long.
    const issued = await issue(database, a.apiKey, a.apiSecret)
    expect(issued._tag === "Right" ? issued.right.ttlSeconds : issued.left.message).toBe(3600)
  })

  it("a TTL that is not a whole number is a usage error", async () => {
    const database = dir.file("ttl-nan.db")
    const a = await create(database)
    const r = await run(["accounts", "set-token-ttl", a.id, "1.5h", "--database", database])
    expect(r.ok).toBe(false)
    expect(r.stderr).not.toBe("")
  })
})

describe("accounts enable-behavior", () => {
  it("enables a known behavior (idempotently) and refuses an unknown one", async () => {
    const database = dir.file("behavior.db")
    const a = await create(database)
    for (let i = 0; i < 2; i++) {
      const r = await run(["accounts", "enable-behavior", a.id, "premium", "--json", "--database", database])
      expect(r.ok, r.stderr).toBe(true)
      const enabled = field(field(json(r.stdout), "pricing"), "enabledBehaviors")
      expect(enabled).toEqual(["premium"])
    }
    const bad = await run(["accounts", "enable-behavior", a.id, "surge-everything", "--database", database])
    expect(bad.ok).toBe(false)
    expect(bad.stderr).toMatch(/^ridequote: .*surge-everything/m)
  })
})

describe("accounts rotate-secret", () => {
  it("prints a new secret once; the old secret stops working and the new one works", async () => {
    const database = dir.file("rotate.db")
    const a = await create(database)
    const r = await run(["accounts", "rotate-secret", a.id, "--json", "--database", database])
    expect(r.ok, r.stderr).toBe(true)
    const body = json(r.stdout)
    expect(field(body, "apiKey")).toBe(a.apiKey)
    const newSecret = field(body, "apiSecret")
    expect(typeof newSecret === "string" && newSecret !== a.apiSecret).toBe(true)

    const old = await issue(database, a.apiKey, a.apiSecret)
    expect(old._tag === "Left" ? old.left._tag : "issued").toBe("InvalidCredentials")
    expect((await issue(database, a.apiKey, String(newSecret)))._tag).toBe("Right")

    const show = await run(["accounts", "show", a.id, "--database", database])
    expect(show.stdout).not.toContain(String(newSecret))
  })
})

describe("the words of the account commands", () => {
  it("an account id is the positional ACCOUNT_ID everywhere; a status is listed once and taken in any case", async () => {
    for (const [command, usage] of [
      [["accounts", "show"], /ridequote accounts show .*<ACCOUNT_ID>/s],
      [["accounts", "set-status"], /ridequote accounts set-status .*<ACCOUNT_ID> <STATUS>\n/s],
      [["tokens", "revoke"], /ridequote tokens revoke .*<ACCOUNT_ID>/s]
    ] as const) {
      const help = await run([...command, "--help"])
      expect(help.stdout).toMatch(usage)
      expect(help.stdout).not.toContain("--account")
    }
    const setStatus = (await run(["accounts", "set-status", "--help"])).stdout
    expect(setStatus.match(/Pending/g)).toHaveLength(1)
    expect(setStatus).toContain("Active, Pending or Blocked (any case)")

    const database = dir.file("words.db")
    const a = await create(database)
    const blocked = await run(["accounts", "set-status", a.id, "BLOCKED", "--database", database])
    expect(blocked.stdout, blocked.stderr).toContain("is now Blocked")
    const bad = await run(["accounts", "set-status", a.id, "Frozen", "--database", database])
    expect(bad.ok).toBe(false)
    expect(bad.stderr).toContain('STATUS must be Active, Pending or Blocked, not "Frozen"')
  })

  it("counts are written with the noun's right number: 1 token, 0 tokens", async () => {
    const database = dir.file("plural.db")
    const a = await create(database)
    const issued = await issue(database, a.apiKey, a.apiSecret)
    if (issued._tag === "Left") throw new Error(issued.left.message)
    const one = await run(["tokens", "revoke", a.id, "--all", "--database", database])
    expect(one.stdout).toContain(`Revoked 1 token of account ${a.id}`)
    const none = await run(["accounts", "set-status", a.id, "Blocked", "--revoke-tokens", "--database", database])
    expect(none.stdout).toContain("; 0 tokens revoked")
  })
})

describe("tokens revoke", () => {
  it("--jti revokes that token only; --all revokes the rest", async () => {
    const database = dir.file("tokens.db")
    const a = await create(database)
    const [t1, t2, t3] = await Promise.all([1, 2, 3].map(() => issue(database, a.apiKey, a.apiSecret)))
    if (t1?._tag !== "Right" || t2?._tag !== "Right" || t3?._tag !== "Right") throw new Error("issue failed")

    const one = await run(["tokens", "revoke", a.id, "--jti", t1.right.jti, "--json", "--database", database])
    expect(one.ok, one.stderr).toBe(true)
    expect(json(one.stdout)).toEqual({ accountId: a.id, revoked: 1 })
    expect((await verify(database, t1.right.token))._tag).toBe("Left")
    expect((await verify(database, t2.right.token))._tag).toBe("Right")

    const again = await run(["tokens", "revoke", a.id, "--jti", t1.right.jti, "--json", "--database", database])
    expect(json(again.stdout)).toEqual({ accountId: a.id, revoked: 0 })

    const all = await run(["tokens", "revoke", a.id, "--all", "--json", "--database", database])
    expect(json(all.stdout)).toEqual({ accountId: a.id, revoked: 2 })
    expect((await verify(database, t3.right.token))._tag).toBe("Left")
  })

  it("needs exactly one of --jti and --all, a known account and a jti of that account", async () => {
    const database = dir.file("tokens-bad.db")
    const a = await create(database)
    const b = await create(database)
    const tb = await issue(database, b.apiKey, b.apiSecret)
    if (tb._tag !== "Right") throw new Error("issue failed")
    const cases: ReadonlyArray<[ReadonlyArray<string>, RegExp]> = [
      [[a.id], /--jti .* --all/],
      [[a.id, "--all", "--jti", tb.right.jti], /not both/],
      [["6f1c2c3e-9a44-4f7e-8a59-0b8e2f3c1d2a", "--all"], /not found|no account/i],
      // Another account's token is not found, as through the API (tenant isolation).
      [[a.id, "--jti", tb.right.jti], /not found|no token/i]
    ]
    for (const [args, message] of cases) {
      const r = await run(["tokens", "revoke", ...args, "--database", database])
      expect(r.ok).toBe(false)
      expect(r.stderr).toMatch(message)
    }
    expect((await verify(database, tb.right.token))._tag).toBe("Right")
  })
})

describe("keys rotate with a key-encryption key", () => {
  const kek = Buffer.alloc(32, 7).toString("base64")
  const nextKek = Buffer.alloc(32, 8).toString("base64")

  it("seals the stored keys: without the KEK the database is refused, with it (or as previous) it works", async () => {
    const database = dir.file("sealed.db")
    const rotated = await run(["keys", "rotate", "--json", "--database", database], { RIDEQUOTE_KEY_ENCRYPTION_KEY: kek })
    expect(rotated.ok, rotated.stderr).toBe(true)
    expect(field(json(rotated.stdout), "kid")).toEqual(expect.any(String))

    const without = await run(["accounts", "list", "--database", database])
    expect(without.ok).toBe(false)
    expect(without.stderr).toMatch(/encrypted under key-encryption key .*RIDEQUOTE_KEY_ENCRYPTION_KEY/)
    expect((await run(["accounts", "list", "--database", database], { RIDEQUOTE_KEY_ENCRYPTION_KEY: kek })).ok).toBe(true)

    // KEK rotation: new key current, old one previous, then `keys rotate` re-seals everything
    const rekeyed = await run(["keys", "rotate", "--database", database], {
      RIDEQUOTE_KEY_ENCRYPTION_KEY: nextKek,
      RIDEQUOTE_KEY_ENCRYPTION_KEY_PREVIOUS: kek
    })
    expect(rekeyed.ok, rekeyed.stderr).toBe(true)
    expect((await run(["accounts", "list", "--database", database], { RIDEQUOTE_KEY_ENCRYPTION_KEY: nextKek })).ok).toBe(
      true
    )
    expect((await run(["accounts", "list", "--database", database], { RIDEQUOTE_KEY_ENCRYPTION_KEY: kek })).ok).toBe(false)
  })
})

describe("migrate and settings", () => {
  it("migrate creates the database and is idempotent", async () => {
    const database = dir.file("nested/folder/migrate.db")
    for (let i = 0; i < 2; i++) {
      const r = await run(["migrate", "--database", database])
      expect(r.ok, r.stderr).toBe(true)
      expect(r.stdout).toContain("up to date")
    }
    expect((await run(["accounts", "list", "--json", "--database", database])).ok).toBe(true)
  })

  it("RIDEQUOTE_DATABASE is used when --database is absent", async () => {
    const database = dir.file("from-env.db")
    const created = await run(["accounts", "create", "--name", "Env", "--json"], { RIDEQUOTE_DATABASE: database })
    expect(created.ok, created.stderr).toBe(true)
    const listed = await run(["accounts", "list", "--json", "--database", database])
    expect(JSON.stringify(json(listed.stdout))).toContain(String(field(json(created.stdout), "id")))
  })

  it("an unreachable postgres:// database fails every command with a message that keeps the password out", async () => {
    // port 1: nothing listens there, so the connection is refused at once
    for (const args of [["migrate"], ["accounts", "list"]]) {
      const r = await run([...args, "--database", "postgres://user:pw@127.0.0.1:1/ridequote"])
      expect(r.ok).toBe(false)
      expect(r.stderr).toMatch(/PostgreSQL/)
      expect(r.stderr).not.toContain("pw@")
    }
  })

  it("a malformed RIDEQUOTE_KEY_ENCRYPTION_KEY is refused, naming the variable and the expected form", async () => {
    const r = await run(["accounts", "list", "--database", dir.file("kek.db")], { RIDEQUOTE_KEY_ENCRYPTION_KEY: "short" })
    expect(r.ok).toBe(false)
    expect(r.stderr).toMatch(/RIDEQUOTE_KEY_ENCRYPTION_KEY must be 32 random bytes in base64/)
    expect(r.stderr).not.toContain("short")
  })

  it("serve refuses a refresh interval over 60 s, a negative rate limit, request timeout or connection cap, and a bad port before starting", async () => {
    const database = dir.file("serve-settings.db")
    const cases: ReadonlyArray<[Record<string, string>, RegExp]> = [
      [{ RIDEQUOTE_REFRESH_INTERVAL: "61" }, /RIDEQUOTE_REFRESH_INTERVAL .*1\.\.60/],
      [{ RIDEQUOTE_REFRESH_INTERVAL: "0" }, /RIDEQUOTE_REFRESH_INTERVAL/],
      [{ RIDEQUOTE_RATE_LIMIT: "-1" }, /RIDEQUOTE_RATE_LIMIT/],
      [{ RIDEQUOTE_REQUEST_TIMEOUT: "-5" }, /--request-timeout \/ RIDEQUOTE_REQUEST_TIMEOUT must be a whole number/],
      [{ RIDEQUOTE_MAX_CONNECTIONS: "-1" }, /--max-connections \/ RIDEQUOTE_MAX_CONNECTIONS must be a whole number/],
      [{ RIDEQUOTE_PORT: "70000" }, /RIDEQUOTE_PORT/]
    ]
    for (const [env, message] of cases) {
      const r = await run(["serve", "--database", database], env)
      expect(r.ok).toBe(false)
      expect(r.stderr).toMatch(message)
    }
  })

  it("an unknown RIDEQUOTE_LOG_LEVEL is refused", async () => {
    const r = await run(["migrate", "--database", dir.file("loglevel.db")], { RIDEQUOTE_LOG_LEVEL: "loud" })
    expect(r.ok).toBe(false)
    expect(r.stderr).toMatch(/^ridequote: RIDEQUOTE_LOG_LEVEL must be one of all, trace, debug, info, warn, error, fatal, none, got "loud"/m)
  })
})
