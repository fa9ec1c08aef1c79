/**
 * Test wiring for the auth services: one "instance" (its own AccessSnapshot, Tokens, Accounts)
 * over an in-memory storage that several instances can share, seeded randomness, and a small
 * behavior registry of our own (the real one belongs to pricing; Accounts only asks whether a
 * behavior exists).
 */
import { Context, Effect, Layer, Redacted, TestClock } from "effect"
import type { AccessSnapshotConfig } from "../../src/auth/AccessSnapshot.js"
import { AccessSnapshotLive } from "../../src/auth/AccessSnapshot.js"
import { Accounts, AccountsLive } from "../../src/auth/Accounts.js"
import type { NewAccount } from "../../src/auth/Accounts.js"
import { CredentialsLive } from "../../src/auth/Credentials.js"
import type { Credentials } from "../../src/auth/Credentials.js"
import { Tokens, TokensLive } from "../../src/auth/Tokens.js"
import { BehaviorNotFound } from "../../src/Errors.js"
import { BehaviorId } from "../../src/Ids.js"
import { toMinor } from "../../src/Money.js"
import type { PricingBehavior } from "../../src/pricing/Behaviors.js"
import { Behaviors } from "../../src/pricing/Behaviors.js"
import { Randomness, seededRandomness } from "../../src/Randomness.js"
import { makeInMemoryStorage } from "../../src/testing/auth.js"
import type { InMemoryStorage } from "../../src/testing/auth.js"

/** 2026-11-22T10:15:30.123Z: a start time with a millisecond fraction, so rounding shows. */
export const T0 = Date.UTC(2026, 10, 22, 10, 15, 30, 123)

const testBehavior = (id: string): PricingBehavior => ({
  id: BehaviorId.make(id),
  description: `test behavior ${id}: every point at the first offer's median`,
  recommend: (input) => {
    const median = toMinor(input.offers[0]?.distribution.quantile(0.5) ?? 0, input.currency)
    return { saver: median, balanced: median, priority: median }
  }
})

export const TEST_BEHAVIORS = ["market-median", "undercut", "premium"] as const

const registry = new Map(TEST_BEHAVIORS.map((id) => [id as string, testBehavior(id)]))

export const TestBehaviorsLive = Layer.succeed(
  Behaviors,
  Behaviors.of({
    get: (id) => {
      const behavior = registry.get(id)
      return behavior === undefined
        ? Effect.fail(new BehaviorNotFound({ message: `unknown pricing behavior ${id}` }))
        : Effect.succeed(behavior)
    },
    all: [...registry.values()]
  })
)

/** One server instance over `storage`: its own snapshot, Tokens and Accounts. */
export const instance = (
  storage: Context.Context<InMemoryStorage>,
  randomness: Randomness,
  config?: AccessSnapshotConfig,
  credentials: Layer.Layer<Credentials, never, Randomness> = CredentialsLive
) =>
  Layer.mergeAll(TokensLive, AccountsLive).pipe(
    Layer.provideMerge(AccessSnapshotLive(config)),
    Layer.provideMerge(credentials),
    Layer.provideMerge(TestBehaviorsLive),
    Layer.provideMerge(Layer.succeedContext(storage)),
    Layer.provideMerge(Layer.succeed(Randomness, randomness))
  )

/** A fresh storage (with its own seeded randomness) and one instance on it. */
export const engine = (seed = 1, config?: AccessSnapshotConfig) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const randomness = seededRandomness(seed)
      const storage = yield* Effect.provideService(makeInMemoryStorage, Randomness, randomness)
      return instance(storage, randomness, config)
    })
  )

/** Runs `body` on a fresh single-instance engine, the test clock set to T0 first. */
export const withEngine = <A, E, R>(body: Effect.Effect<A, E, R>, seed = 1, config?: AccessSnapshotConfig) =>
  TestClock.setTime(T0).pipe(Effect.zipRight(Effect.provide(body, engine(seed, config))))

/** Creates an account and returns it with its credentials. */
export const createAccount = (input: Partial<NewAccount> = {}) =>
  Effect.flatMap(Accounts, (accounts) => accounts.create({ name: "Acme Rides", ...input }))

/** Creates an Active account and issues one token for it. */
export const accountWithToken = (input: Partial<NewAccount> = {}) =>
  Effect.gen(function*() {
    const created = yield* createAccount(input)
    const tokens = yield* Tokens
    const issued = yield* tokens.issue(created.apiKey, created.apiSecret)
    return { ...created, issued }
  })

/** The decoded JSON of a token's header or payload segment. */
export const segment = (token: string, index: 0 | 1): unknown =>
  JSON.parse(Buffer.from(token.split(".")[index] ?? "", "base64url").toString("utf8"))

export const wrongSecret = Redacted.make("rqs_" + "A".repeat(43))
