/**
 * `ridequote keys retire KID` (docs/security.md, "Signing keys and rotation"): a key that may
 * have leaked stops verifying at once — on a running instance at its next feed read, on any
 * instance started afterwards at once — and an instance whose current key was retired signs
 * with the new one. On SQLite and PostgreSQL.
 */
import { ConfigProvider, Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { AccessSnapshot, Accounts, Tokens } from "@ridequote/core"
import { OperatorLive, withOperator } from "../src/Operator.js"
import { parseDatabaseLocation } from "../src/Settings.js"
import { StorageLive } from "../src/Storage.js"
import { runInProcess as run } from "./support/InProcessCli.js"
import { createTestDatabase, postgresAvailable } from "./support/Postgres.js"
import { tempDir } from "./support/Processes.js"

const dir = tempDir("retire")
afterAll(() => dir.remove())
const noSettings = ConfigProvider.fromMap(new Map())


const kidOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")).kid

/** A running instance: the operator services and the access snapshot on their own storage. */
const startInstance = async (database: string) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.gen(function*() {
    const location = yield* parseDatabaseLocation(database)
    return yield* Layer.buildWithScope(OperatorLive.pipe(Layer.provide(StorageLive(location, Option.none()))), scope)
  }).pipe(Effect.withConfigProvider(noSettings), Effect.runPromise)
  const use = <A, E>(effect: Effect.Effect<A, E, Accounts | Tokens | AccessSnapshot>) =>
    Effect.runPromise(Effect.either(Effect.provide(effect, context as Context.Context<Accounts | Tokens | AccessSnapshot>)))
  return { use, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const verdict = (outcome: { readonly _tag: "Left"; readonly left: { readonly _tag: string; readonly message?: string } } | { readonly _tag: "Right" }) =>
  outcome._tag === "Right" ? "ok" : `${outcome.left._tag}: ${outcome.left.message ?? ""}`

const retireSuite = (name: string, database: () => Promise<{ readonly url: string; readonly drop: () => Promise<void> }>) =>
  it(`${name}: a retired key's tokens are refused by a running instance after its feed read and by a new one at once`, async () => {
    const db = await database()
    const instance = await startInstance(db.url)
    try {
      const created = await instance.use(Effect.flatMap(Accounts, (a) => a.create({ name: "Leaky", status: "Active" })))
      if (created._tag === "Left") throw new Error("create failed")
      const issue = Effect.flatMap(Tokens, (t) => t.issue(created.right.apiKey, created.right.apiSecret))
      const before = await instance.use(issue)
      if (before._tag === "Left") throw new Error("issue failed")
      const token = before.right.token
      const leaked = kidOf(token)
      const verify = (t: string) => instance.use(Effect.flatMap(Tokens, (tokens) => tokens.verify(t)))
      expect(verdict(await verify(token))).toBe("ok")

      // Options first, the kid last (after --): a kid from before the "k" prefix may begin with "-".
      const retired = await run(["keys", "retire", "--json", "--database", db.url, "--", leaked])
      expect(retired.ok, retired.stderr).toBe(true)
      const report = JSON.parse(retired.stdout) as { retired: string; current: string }
      expect(report.retired).toBe(leaked)
      expect(report.current).not.toBe(leaked)

      // The running instance: refused once it has read the feed (the refresh it runs every interval).
      await instance.use(Effect.flatMap(AccessSnapshot, (s) => s.refresh))
      expect(verdict(await verify(token))).toBe("TokenInvalid: the token's signing key has been retired")
      // ...and it signs new tokens with the key that replaced the retired one.
      const after = await instance.use(issue)
      if (after._tag === "Left") throw new Error(`issue after retire failed: ${after.left._tag}`)
      expect(kidOf(after.right.token)).toBe(report.current)
      expect(verdict(await verify(after.right.token))).toBe("ok")

      // An instance started afterwards never loads the key.
      const fresh = await withOperator(db.url, Effect.flatMap(Tokens, (t) => t.verify(token))).pipe(
        Effect.either,
        Effect.withConfigProvider(noSettings),
        Effect.runPromise
      )
      expect(fresh._tag === "Left" ? fresh.left._tag : "accepted").toBe("TokenInvalid")

      const unknown = await run(["keys", "retire", "no-such-kid", "--database", db.url])
      expect(unknown.ok).toBe(false)
      expect(unknown.stderr).toContain("no signing key no-such-kid")
    } finally {
      await instance.close()
      await db.drop()
    }
  }, 60_000)

describe("keys retire", () => {
  retireSuite("SQLite", async () => ({ url: dir.file(`retire-${Date.now()}.db`), drop: async () => {} }))
})

describe.runIf(postgresAvailable)("keys retire on PostgreSQL", () => {
  retireSuite("PostgreSQL", () => createTestDatabase("retire"))
})
