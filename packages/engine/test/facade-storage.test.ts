/**
 * The facade on a SQLite file (state kept across a restart), and on a runtime of one's own
 * (TestClock: a token expires without waiting).
 */
import { describe, expect, it } from "@effect/vitest"
import type { RidequoteEngine } from "@ridequote/compose"
import { MemoryEngineLive } from "@ridequote/compose"
import { Effect, Layer, TestClock } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { facadeOn } from "../src/Facade.js"

const timesSquareToJfk = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 }
}

describe("createRidequote on SQLite", () => {
  it.effect("the same walkthrough through the storage option, and the audit is there after a restart", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "ridequote-facade-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const { createRidequote } = yield* Effect.promise(() => import("@ridequote/engine"))
      const filename = join(dir, "facade.db")
      const result = yield* Effect.promise(async () => {
        const rq = await createRidequote({ storage: { sqlite: filename } })
        const created = await rq.accounts.create({ name: "On a file" })
        const issued = await rq.tokens.issue(created.apiKey, created.apiSecret)
        const quote = await rq.quote({ token: issued.token }, timesSquareToJfk)
        await rq.close()
        // Reopened: the audit entry is there.
        const reopened = await createRidequote({ storage: { sqlite: filename } })
        const entries = await reopened.audit.recent({ accountId: created.account.id })
        await reopened.close()
        return { quote, entries }
      })
      expect(result.entries.map((e) => e.requestId)).toEqual([result.quote.requestId])
    }).pipe(Effect.scoped))
})

describe("the facade on a runtime of one's own", () => {
  it.scoped("a token issued now is refused as expired once the TestClock passes its TTL (no waiting)", () =>
    Effect.gen(function*() {
      const runtime = yield* Layer.toRuntime(MemoryEngineLive({ markets: "sample" }))
      // The test's own services (TestClock among them) on top of the engine's context.
      const withTestClock = yield* Effect.runtime<RidequoteEngine>().pipe(Effect.provide(Layer.succeedContext(runtime.context)))
      const rq = facadeOn(withTestClock, () => Promise.resolve())
      const created = yield* Effect.promise(() => rq.accounts.create({ name: "Short-lived", tokenTtlSeconds: 60 }))
      const issued = yield* Effect.promise(() => rq.tokens.issue(created.apiKey, created.apiSecret))
      expect(issued.expiresAt).toBe(new Date(60_000).toISOString())
      yield* TestClock.adjust("61 seconds")
      const error = yield* Effect.promise(() => rq.tokens.verify(issued.token).then(() => undefined, (e: unknown) => e))
      expect(error).toMatchObject({ code: "result:token-expired" })
    }))
})

