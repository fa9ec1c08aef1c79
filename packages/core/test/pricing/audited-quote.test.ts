/**
 * `Quotes.quoteAudited` / `rejectAudited` (the Node host's lane): the decision comes back with
 * its record submitted, and the outcome is released only once the record is durable. Also
 * `submitAudit` for adapters without a `submit` of their own.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, TestClock } from "effect"
import type { AuditRecord } from "../../src/Audit.js"
import { InvalidRequest, StorageUnavailable } from "../../src/Errors.js"
import { AuditLog, submitAudit } from "../../src/ports/AuditLog.js"
import type { AuditDone } from "../../src/ports/AuditLog.js"
import type { QuoteRequest } from "../../src/Quote.js"
import { awaitAudited, Quotes } from "../../src/pricing/Quotes.js"
import { InMemoryAudit, makeInMemoryAuditLog } from "../../src/testing/pricing.js"
import { account, BERLIN, BERLIN_WEST, context, engine } from "./fixtures.js"

const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0)
const request: QuoteRequest = { pickup: BERLIN, destination: BERLIN_WEST, distanceKm: 12.4, durationMinutes: 27 }

/** An audit log whose `submit` holds every record until the test settles it. */
const heldAuditLog = () => {
  const held: Array<{ readonly record: AuditRecord; readonly done: AuditDone }> = []
  const { audit, log } = makeInMemoryAuditLog()
  const layer = Layer.succeed(AuditLog, { ...log, submit: (record, done) => held.push({ record, done }) }).pipe(
    Layer.merge(Layer.succeed(InMemoryAudit, audit))
  )
  return { held, layer }
}

const durability = (whenDurable: (done: AuditDone) => void) => {
  const calls: Array<StorageUnavailable | undefined> = []
  whenDurable((failure) => calls.push(failure))
  return calls
}

describe("Quotes.quoteAudited", () => {
  it.effect("returns the quote with its record submitted, released only once the record is durable", () => {
    const { held, layer } = heldAuditLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const ctx = context()
      const audited = yield* quotes.quoteAudited(account(), request, ctx)
      // Submitted before the fiber completed, not yet durable.
      expect(held.map((h) => h.record.requestId)).toEqual([ctx.requestId])
      expect(held[0]?.record.decision.outcome).toBe("quoted")
      const calls = durability(audited.whenDurable)
      expect(calls).toEqual([])
      held[0]?.done(undefined)
      expect(calls).toEqual([undefined])
      // A waiter registered after the fact is answered at once.
      expect(durability(audited.whenDurable)).toEqual([undefined])
      expect(Exit.isSuccess(audited.outcome) && audited.outcome.value.requestId).toBe(ctx.requestId)
    }).pipe(Effect.provide(engine({ auditLog: layer })))
  })

  it.effect("a rejected request is submitted as a rejection; its error is the outcome", () => {
    const { held, layer } = heldAuditLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const audited = yield* quotes.quoteAudited(account({ status: "Blocked" }), request, context())
      expect(held[0]?.record.decision).toMatchObject({ outcome: "rejected", code: "result:account-blocked" })
      expect(Exit.isFailure(audited.outcome)).toBe(true)
      const refused = yield* quotes.rejectAudited(account(), new InvalidRequest({ message: "not JSON" }), context())
      expect(held[1]?.record.decision).toMatchObject({ outcome: "rejected", code: "result:invalid-request" })
      expect(held[1]?.record.request).toBeUndefined()
      expect(Exit.isFailure(refused.outcome)).toBe(true)
    }).pipe(Effect.provide(engine({ auditLog: layer })))
  })

  it.effect("with an audit log that cannot write: quote fails with StorageUnavailable, quoteAudited reports it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW_MS)
      const quotes = yield* Quotes
      const audit = yield* InMemoryAudit
      yield* audit.setAvailable(false)
      const exit = yield* Effect.exit(quotes.quote(account(), request, context()))
      expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("StorageUnavailable")
      // The in-memory log has no `submit`: its append ran in the fiber, so the failure is known.
      const audited = yield* quotes.quoteAudited(account(), request, context())
      expect(durability(audited.whenDurable).map((f) => f?._tag)).toEqual(["StorageUnavailable"])
      expect(yield* Effect.exit(awaitAudited(audited))).toEqual(Exit.fail(new StorageUnavailable({ message: "in-memory audit log switched off" })))
    }).pipe(Effect.provide(engine())))

  it.effect("awaitAudited gives the outcome once durable", () =>
    Effect.gen(function*() {
      let settle: AuditDone = () => undefined
      const audited = { outcome: Exit.succeed(42), whenDurable: (done: AuditDone) => (settle = done) }
      const waiting = yield* Effect.fork(awaitAudited(audited))
      yield* Effect.yieldNow()
      // Still waiting: the outcome is not given before the record is durable.
      expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
      settle(undefined)
      expect(yield* waiting.await).toEqual(Exit.succeed(42))
    }))
})

describe("submitAudit", () => {
  const record = (ctx = context()): AuditRecord => ({
    accountId: account().id,
    requestId: ctx.requestId,
    receivedAt: ctx.receivedAt,
    decision: { outcome: "rejected", code: "result:invalid-request", message: "x" }
  })

  const settled = (log: AuditLog) =>
    Effect.gen(function*() {
      const calls: Array<StorageUnavailable | undefined> = []
      yield* submitAudit(log, record(), (failure) => calls.push(failure))
      // Settled by the time the effect returns: with the adapter's `submit` this one answers at
      // once, and the fallback runs `append` in this fiber.
      return calls
    })

  it.effect("without an adapter `submit`, appends in the caller's fiber and reports durable before returning", () =>
    Effect.gen(function*() {
      const { audit, log } = makeInMemoryAuditLog()
      expect(log.submit).toBeUndefined()
      expect(yield* settled(log)).toEqual([undefined])
      expect((yield* audit.records).length).toBe(1)
    }))

  it.effect("reports an append's failure, and a defect as StorageUnavailable: a waiter is never left hanging", () =>
    Effect.gen(function*() {
      const { log } = makeInMemoryAuditLog()
      const failing = { ...log, append: () => Effect.fail(new StorageUnavailable({ message: "disk full" })) }
      expect((yield* settled(failing))[0]?.message).toBe("disk full")
      const defective = { ...log, append: () => Effect.die("bug") }
      expect((yield* settled(defective))[0]).toBeInstanceOf(StorageUnavailable)
    }))

  it.effect("uses the adapter's own `submit` when it has one", () =>
    Effect.gen(function*() {
      const { log } = makeInMemoryAuditLog()
      const seen: Array<AuditRecord> = []
      const own: AuditLog = {
        ...log,
        submit: (r, done) => {
          seen.push(r)
          done(undefined)
        }
      }
      expect(yield* settled(own)).toEqual([undefined])
      expect(seen.length).toBe(1)
    }))
})
