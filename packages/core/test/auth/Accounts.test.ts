import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Redacted } from "effect"
import { Accounts } from "../../src/auth/Accounts.js"
import { Credentials } from "../../src/auth/Credentials.js"
import { Tokens } from "../../src/auth/Tokens.js"
import { AccountId } from "../../src/Ids.js"
import { AccountStore } from "../../src/ports/AccountStore.js"
import { accountWithToken, createAccount, T0, withEngine } from "./fixtures.js"

const unknownId = AccountId.make("00000000-0000-4000-8000-0000000000aa")

describe("accounts", () => {
  it.effect("create: defaults are Active, 86400 s, market-median, nothing else enabled", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret } = yield* createAccount({ name: "  Acme Rides  " })
      expect(account).toMatchObject({
        name: "Acme Rides",
        status: "Active",
        tokenTtlSeconds: 86_400,
        pricing: { defaultBehavior: "market-median", enabledBehaviors: [] }
      })
      expect(DateTime.toEpochMillis(account.createdAt)).toBe(T0)
      expect(account.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(apiKey).toMatch(/^rqk_[A-Za-z0-9_-]{24}$/)
      expect(Redacted.value(apiSecret)).toMatch(/^rqs_[A-Za-z0-9_-]{43}$/)
    })))

  it.effect("create: only the secret's hash is stored", () =>
    withEngine(Effect.gen(function*() {
      const { apiKey, apiSecret } = yield* createAccount()
      const stored = yield* (yield* AccountStore).findByApiKey(apiKey)
      expect(stored._tag).toBe("Some")
      if (stored._tag === "Some") {
        expect(stored.value.secretHash).toBe((yield* Credentials).hash(apiSecret))
        expect(JSON.stringify(stored.value)).not.toContain(Redacted.value(apiSecret).slice(4))
      }
    })))

  it.effect("create: status, ttl and behavior can be chosen", () =>
    withEngine(Effect.gen(function*() {
      const { account } = yield* createAccount({ status: "Pending", tokenTtlSeconds: 60, defaultBehavior: "premium" })
      expect(account).toMatchObject({ status: "Pending", tokenTtlSeconds: 60, pricing: { defaultBehavior: "premium" } })
    })))

  it.effect("create: the name must not be empty or blank", () =>
    withEngine(Effect.gen(function*() {
      for (const name of ["", "   ", "x".repeat(201)]) {
        const error = yield* Effect.flip(createAccount({ name }))
        expect(error._tag).toBe("InvalidRequest")
        expect(error.code).toBe("result:invalid-request")
        expect(error._tag === "InvalidRequest" && error.details?.[0]?.path).toEqual(["name"])
      }
    })))

  it.effect("create: token ttl must be an integer within 60 s .. 366 days", () =>
    withEngine(Effect.gen(function*() {
      for (const tokenTtlSeconds of [59, 31_622_401, 90.5, 0, -60]) {
        const error = yield* Effect.flip(createAccount({ tokenTtlSeconds }))
        expect(error._tag).toBe("InvalidRequest")
      }
      for (const tokenTtlSeconds of [60, 31_622_400]) {
        expect((yield* createAccount({ tokenTtlSeconds })).account.tokenTtlSeconds).toBe(tokenTtlSeconds)
      }
    })))

  it.effect("create: an unknown behavior is refused", () =>
    withEngine(Effect.gen(function*() {
      const error = yield* Effect.flip(createAccount({ defaultBehavior: "surge-everything" }))
      expect(error._tag).toBe("BehaviorNotFound")
    })))

  it.effect("get and list: by id, oldest first; an unknown id is AccountNotFound", () =>
    withEngine(Effect.gen(function*() {
      const accounts = yield* Accounts
      const first = yield* createAccount({ name: "First" })
      const second = yield* createAccount({ name: "Second" })
      expect(yield* accounts.get(second.account.id)).toEqual(second.account)
      expect((yield* accounts.list).map((a) => a.name)).toEqual(["First", "Second"])
      const error = yield* Effect.flip(accounts.get(unknownId))
      expect(error._tag).toBe("AccountNotFound")
      expect(error.code).toBe("result:not-found")
      expect(first.account.id).not.toBe(second.account.id)
    })))

  it.effect("every operation on an unknown account is AccountNotFound", () =>
    withEngine(Effect.gen(function*() {
      const accounts = yield* Accounts
      const attempts: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>> = [
        accounts.setStatus(unknownId, "Blocked"),
        accounts.setTokenTtl(unknownId, 600),
        accounts.enableBehavior(unknownId, "undercut"),
        accounts.setDefaultBehavior(unknownId, "undercut"),
        accounts.rotateSecret(unknownId)
      ]
      for (const attempt of attempts) expect((yield* Effect.flip(attempt))._tag).toBe("AccountNotFound")
    })))

  it.effect("set-status: a Blocked account cannot issue tokens; its existing tokens stay valid without revoke", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      const result = yield* (yield* Accounts).setStatus(account.id, "Blocked")
      expect(result).toMatchObject({ account: { status: "Blocked" }, revoked: 0 })
      expect((yield* Effect.flip(tokens.issue(apiKey, apiSecret)))._tag).toBe("AccountBlocked")
      yield* tokens.verify(issued.token)
    })))

  it.effect("set-status with revoke-tokens: an immediate block", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      const second = yield* tokens.issue(apiKey, apiSecret)
      const result = yield* (yield* Accounts).setStatus(account.id, "Pending", { revokeTokens: true })
      expect(result.revoked).toBe(2)
      for (const t of [issued, second]) expect((yield* Effect.flip(tokens.verify(t.token)))._tag).toBe("TokenRevoked")
    })))

  it.effect("set-status back to Active lets the account issue tokens again", () =>
    withEngine(Effect.gen(function*() {
      const { account, apiKey, apiSecret } = yield* createAccount({ status: "Pending" })
      yield* (yield* Accounts).setStatus(account.id, "Active")
      yield* (yield* Tokens).issue(apiKey, apiSecret)
    })))

  it.effect("set-token-ttl: validated, and stored", () =>
    withEngine(Effect.gen(function*() {
      const { account } = yield* createAccount()
      const accounts = yield* Accounts
      expect((yield* Effect.flip(accounts.setTokenTtl(account.id, 31_622_401)))._tag).toBe("InvalidRequest")
      expect((yield* accounts.setTokenTtl(account.id, 900)).tokenTtlSeconds).toBe(900)
      expect((yield* accounts.get(account.id)).tokenTtlSeconds).toBe(900)
    })))

  it.effect("enable-behavior: idempotent, known behaviors only, the default never listed", () =>
    withEngine(Effect.gen(function*() {
      const { account } = yield* createAccount()
      const accounts = yield* Accounts
      yield* accounts.enableBehavior(account.id, "undercut")
      const twice = yield* accounts.enableBehavior(account.id, "undercut")
      expect(twice.pricing.enabledBehaviors).toEqual(["undercut"])
      const withDefault = yield* accounts.enableBehavior(account.id, "market-median")
      expect(withDefault.pricing.enabledBehaviors).toEqual(["undercut"])
      expect((yield* Effect.flip(accounts.enableBehavior(account.id, "nope")))._tag).toBe("BehaviorNotFound")
    })))

  it.effect("set-default-behavior: known behaviors only; the new default leaves the enabled list", () =>
    withEngine(Effect.gen(function*() {
      const { account } = yield* createAccount()
      const accounts = yield* Accounts
      yield* accounts.enableBehavior(account.id, "undercut")
      yield* accounts.enableBehavior(account.id, "premium")
      const changed = yield* accounts.setDefaultBehavior(account.id, "undercut")
      expect(changed.pricing).toEqual({ defaultBehavior: "undercut", enabledBehaviors: ["premium"] })
      expect((yield* Effect.flip(accounts.setDefaultBehavior(account.id, "nope")))._tag).toBe("BehaviorNotFound")
    })))

  it.effect("changes are seen by this instance's token verification at once", () =>
    withEngine(Effect.gen(function*() {
      const { account, issued } = yield* accountWithToken()
      const tokens = yield* Tokens
      const accounts = yield* Accounts
      yield* tokens.verify(issued.token) // cached
      yield* accounts.setTokenTtl(account.id, 120)
      yield* accounts.enableBehavior(account.id, "premium")
      const caller = yield* tokens.verify(issued.token)
      expect(caller.account.tokenTtlSeconds).toBe(120)
      expect(caller.account.pricing.enabledBehaviors).toEqual(["premium"])
    })))
})
