/**
 * What PostgreSQL needs beyond the shared contract: a change feed read in commit order although
 * its sequence is drawn at INSERT, wake-ups over LISTEN/NOTIFY that survive a lost connection,
 * and a pool that heals after its connections are cut. Deadlines below only bound the waiting;
 * no test asserts how fast anything was.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import {
  AccessFeed,
  AccessSnapshot,
  AccessSnapshotLive,
  Accounts,
  AccountsLive,
  AccountStore,
  AuditLog,
  BehaviorsLive,
  CredentialsLive,
  RandomnessLive,
  StorageHealth,
  Tokens,
  TokensLive,
  TokenStore
} from "@ridequote/core"
import type { AccessChange, AccountId, TokenRecord } from "@ridequote/core"
import { auditPageStatement } from "@ridequote/storage-sql"
import { Clock, Context, Duration, Effect, Fiber, Layer, Option, Queue, Redacted, Schedule, Stream, TestClock } from "effect"
import * as Pg from "pg"
import { PostgresStorageLive } from "../src/index.js"
import {
  adminQuery,
  at,
  auditRecord,
  DAY,
  newAccount,
  newJti,
  newSchema,
  NOW,
  POSTGRES_URL,
  postgresAvailable,
  postgresUnderTest,
  storageWithClient,
  terminateBackends,
  url
} from "./fixtures.js"

/** Bounds every wait below; a healthy run needs a small fraction of it. */
const DEADLINE = Duration.seconds(20)

/** Polls `check` until it holds (or the deadline fails the test). */
const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  check.pipe(
    Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail("not yet" as const))),
    Effect.retry({ while: (e) => e === "not yet", schedule: Schedule.spaced(Duration.millis(20)) }),
    Effect.timeoutFail({ duration: DEADLINE, onTimeout: () => new Error("condition not reached before the deadline") })
  )

const waitingOnLocks = (schema: string) =>
  Effect.promise(() =>
    adminQuery<{ n: string }>(
      "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
      [`ridequote pool ${schema}`.slice(0, 63)]
    )
  ).pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))


/**
 * Records a token issued at `atMs`. The live tests pass the live clock's time: the storage they
 * build runs its retention on the live clock, which deletes a token that expired more than a week
 * ago — a token issued at the fixtures' fixed NOW (2026-11-23) counts as such from 2026-12-01,
 * and a retention sweep that ran after it was recorded made the revoke below find nothing.
 */
const issue = (accountId: AccountId, atMs: number) =>
  Effect.gen(function*() {
    const token: TokenRecord = { jti: newJti(), accountId, issuedAtMs: atMs, expiresAtMs: atMs + DAY }
    yield* (yield* TokenStore).record(token)
    return token
  })

describe.runIf(postgresAvailable)("the access feed on PostgreSQL", () => {
  it.live("is read in commit order: a row whose sequence was drawn first but commits last is not skipped", () =>
    Effect.gen(function*() {
      const schema = newSchema("interleaved")
      const context = yield* Layer.build(PostgresStorageLive({ url, schema }))
      const run = <A, E>(effect: Effect.Effect<A, E, AccountStore | TokenStore | AccessFeed>) =>
        Effect.provide(effect, context)
      const slow = yield* run(newAccount)
      const fast = yield* run(newAccount)
      const now = yield* Clock.currentTimeMillis
      const token = yield* run(issue(fast, now))
      const feed = Context.get(context, AccessFeed)
      const { cursor } = yield* feed.start(now)

      // Hold the slow account's row from outside: its update draws its feed sequence, then waits.
      const holder = new Pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` })
      yield* Effect.promise(() => holder.connect())
      yield* Effect.addFinalizer(() => Effect.promise(() => holder.end()))
      yield* Effect.promise(() => holder.query("BEGIN"))
      yield* Effect.promise(() => holder.query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE", [slow]))

      const slowUpdate = yield* run(Context.get(context, AccountStore).update(slow, (a) => ({ ...a, name: "Slow" })))
        .pipe(Effect.fork)
      yield* eventually(Effect.map(waitingOnLocks(schema), (n) => n >= 1))
      // A later writer: without commit ordering it would commit first, with a higher sequence.
      const fastRevoke = yield* Context.get(context, TokenStore).revoke(fast, token.jti, now).pipe(Effect.fork)
      yield* eventually(
        Effect.map(Effect.zip(waitingOnLocks(schema), fastRevoke.poll), ([n, done]) => n >= 2 || Option.isSome(done))
      )

      // A reader now must not move its cursor past the slow writer's row.
      const early = yield* feed.since(cursor)
      yield* Effect.promise(() => holder.query("ROLLBACK"))
      yield* Fiber.join(slowUpdate)
      const revoked = yield* Fiber.join(fastRevoke)
      const late = yield* feed.since(early.cursor)

      const seen: Array<AccessChange> = [...early.changes, ...late.changes]
      // On failure, say what the revoke found, what each read returned and where its cursor
      // stood (this story named the cause of the failures of 2026-12-06: the revoke found no token).
      const story = JSON.stringify({ cursor, early, late, revoked })
      expect(revoked._tag, story).toBe("Revoked")
      expect(seen, story).toContainEqual({ _tag: "AccountChanged", accountId: slow })
      expect(seen, story).toContainEqual({ _tag: "TokenRevoked", accountId: fast, jti: token.jti, expiresAtMs: token.expiresAtMs })
    }).pipe(Effect.scoped))

  it.live("wakes listeners on every change, and again after its listening connection is terminated", () =>
    Effect.gen(function*() {
      const schema = newSchema("wakeups")
      const context = yield* Layer.build(PostgresStorageLive({ url, schema }))
      const feed = Context.get(context, AccessFeed)
      const wakeups = feed.wakeups
      if (wakeups === undefined) return yield* Effect.die("PostgreSQL's feed must push wake-ups")
      const received = yield* Queue.unbounded<void>()
      yield* Stream.runForEach(wakeups, () => Queue.offer(received, undefined)).pipe(Effect.forkScoped)
      const next = Queue.take(received).pipe(
        Effect.timeoutFail({ duration: DEADLINE, onTimeout: () => new Error("no wake-up before the deadline") })
      )
      yield* next // listening: the first session announces itself

      const accountId = yield* Effect.provide(newAccount, context)
      yield* Effect.provide(Effect.flatMap(AccountStore, (s) => s.update(accountId, (a) => ({ ...a, name: "One" }))), context)
      yield* next

      expect(yield* terminateBackends(schema, "listen")).toBe(1)
      yield* next // reconnected, and says so: whatever was missed is read from the cursor
      yield* Effect.provide(Effect.flatMap(AccountStore, (s) => s.update(accountId, (a) => ({ ...a, name: "Two" }))), context)
      yield* next
    }).pipe(Effect.scoped))

  it.live("a revocation on one instance reaches another through NOTIFY, long before its refresh interval", () =>
    Effect.gen(function*() {
      const schema = newSchema("propagation")
      // Refresh every 60 s: only the pushed path can deliver within the deadline below.
      const instance = () =>
        Layer.mergeAll(TokensLive, AccountsLive).pipe(
          Layer.provideMerge(AccessSnapshotLive({ refreshInterval: Duration.seconds(60) })),
          Layer.provideMerge(Layer.mergeAll(CredentialsLive, BehaviorsLive)),
          Layer.provideMerge(RandomnessLive),
          Layer.provideMerge(PostgresStorageLive({ url, schema }))
        )
      const a = yield* Layer.build(instance())
      const b = yield* Layer.build(instance())
      const created = yield* Context.get(a, Accounts).create({ name: "Propagation" })
      const issued = yield* Context.get(a, Tokens).issue(created.apiKey, created.apiSecret)
      const verifyOnB = Context.get(b, Tokens).verify(issued.token)
      expect((yield* verifyOnB).account.id).toBe(created.account.id)

      yield* Context.get(a, Tokens).revoke(created.account.id, { _tag: "Token", jti: issued.jti })
      yield* eventually(Effect.map(Effect.flip(verifyOnB), (e) => e._tag === "TokenRevoked").pipe(
        Effect.catchAll(() => Effect.succeed(false))
      ))

      // An account blocked on A: B's cached account follows at once too.
      const other = yield* Context.get(a, Accounts).create({ name: "Blocked later" })
      const otherToken = yield* Context.get(a, Tokens).issue(other.apiKey, other.apiSecret)
      expect((yield* Context.get(b, Tokens).verify(otherToken.token)).account.status).toBe("Active")
      yield* Context.get(a, Accounts).setStatus(other.account.id, "Blocked")
      yield* eventually(
        Effect.map(Context.get(b, Tokens).verify(otherToken.token), (caller) => caller.account.status === "Blocked")
      )
    }).pipe(Effect.scoped))

  it.live("the pool heals after PostgreSQL terminates every connection: no restart needed", () =>
    Effect.gen(function*() {
      const schema = newSchema("heal")
      const context = yield* Layer.build(PostgresStorageLive({ url, schema }))
      const health = Context.get(context, StorageHealth)
      yield* health.ping
      expect(yield* terminateBackends(schema, "pool")).toBeGreaterThan(0)
      yield* eventually(Effect.map(Effect.exit(health.ping), (exit) => exit._tag === "Success"))
      // and writes work again
      const accountId = yield* Effect.provide(newAccount, context)
      yield* Effect.provide(Effect.flatMap(AuditLog, (audit) => audit.append(auditRecord(accountId, NOW))), context)
      const page = yield* Effect.provide(Effect.flatMap(AuditLog, (audit) => audit.page({ accountId, limit: 10 })), context)
      expect(page.entries).toHaveLength(1)
    }).pipe(Effect.scoped))

  it.live("an audit page is an index scan on audit_account_time, with no sort", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(storageWithClient(postgresUnderTest(), "plans"))
      const accountId = yield* Effect.provide(newAccount, context)
      const records = Array.from({ length: 300 }, (_, i) => auditRecord(accountId, NOW + Math.floor(i / 3)))
      const audit = Context.get(context, AuditLog)
      yield* Effect.forEach(records, audit.append, { concurrency: "unbounded", discard: true })
      const sql = Context.get(context, SqlClient.SqlClient)
      const cursor = at(records, 150)
      const plan = yield* Effect.gen(function*() {
        // a table this small would be read whole; what matters is that the index serves the order
        yield* sql`SET LOCAL enable_seqscan = off`
        const [text, params] = auditPageStatement(sql, {
          accountId,
          limit: 50,
          after: { receivedAt: cursor.receivedAt, requestId: cursor.requestId }
        }).compile()
        return yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params)
      }).pipe(sql.withTransaction)
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n")
      expect(text).toMatch(/Index (Only )?Scan using audit_account_time/)
      expect(text).not.toMatch(/Sort/)
    }).pipe(Effect.scoped))

  it.scoped("fails closed once its view is two refresh intervals (10 s) old while PostgreSQL is away, and recovers without a restart", () =>
    Effect.gen(function*() {
      // A database of its own: refusing its connections touches nobody else's.
      const name = `${newSchema("failclosed")}_db`
      yield* Effect.promise(() => adminQuery(`CREATE DATABASE ${name}`))
      yield* Effect.addFinalizer(() => Effect.promise(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
      const own = new URL(POSTGRES_URL)
      own.pathname = `/${name}`
      const down = (allow: boolean) =>
        Effect.promise(async () => {
          await adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${allow}`)
          if (!allow) await adminQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name])
        })

      const instance = Layer.mergeAll(TokensLive, AccountsLive).pipe(
        Layer.provideMerge(AccessSnapshotLive()),
        Layer.provideMerge(Layer.mergeAll(CredentialsLive, BehaviorsLive)),
        Layer.provideMerge(RandomnessLive),
        Layer.provideMerge(PostgresStorageLive({ url: Redacted.make(own.toString()) }))
      )
      const context = yield* Layer.build(instance)
      const tokens = Context.get(context, Tokens)
      const snapshot = Context.get(context, AccessSnapshot)
      const created = yield* Context.get(context, Accounts).create({ name: "Fail closed" })
      const issued = yield* tokens.issue(created.apiKey, created.apiSecret)
      expect((yield* tokens.verify(issued.token)).account.id).toBe(created.account.id)

      yield* down(false)
      expect((yield* Effect.flip(snapshot.refresh))._tag).toBe("StorageUnavailable")
      // within two refresh intervals of the last good read the view is still used (verification needs no database)
      yield* TestClock.adjust("9 seconds")
      expect((yield* tokens.verify(issued.token)).account.id).toBe(created.account.id)
      yield* TestClock.adjust("2 seconds")
      expect((yield* Effect.flip(tokens.verify(issued.token)))._tag).toBe("AccessViewStale")
      expect((yield* Effect.flip(tokens.issue(created.apiKey, created.apiSecret)))._tag).toBe("StorageUnavailable")

      yield* down(true)
      // the pool drops its dead connections on their first failure; no restart, no new layer
      yield* snapshot.refresh.pipe(Effect.retry({ times: 20 }))
      expect((yield* tokens.verify(issued.token)).account.id).toBe(created.account.id)
      yield* tokens.issue(created.apiKey, created.apiSecret).pipe(Effect.retry({ times: 20 }))
    }))
})
