/**
 * Retention's pace: between two audit delete batches it rests nineteen times as long as the last
 * batch took, so deleting holds the database at most a twentieth of the time, and never starts a
 * batch sooner than AUDIT_DELETE_MIN_GAP after the previous one started, so the rate stays
 * bounded however fast a batch is (the batches themselves are in the storage contract, on both
 * databases).
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import { AUDIT_DELETE_MIN_GAP, AUDIT_DELETE_REST_PER_MS, restBetweenBatches } from "../src/index.js"

/** Asserts that `restBetweenBatches(batchMs)` ends exactly after `restMs` of TestClock time. */
const restsFor = (batchMs: number, restMs: number) =>
  Effect.gen(function*() {
    const rest = yield* Effect.fork(restBetweenBatches(batchMs))
    yield* TestClock.adjust(Duration.millis(restMs - 1))
    expect(Option.isNone(yield* Fiber.poll(rest))).toBe(true)
    yield* TestClock.adjust(Duration.millis(1))
    expect(Option.isSome(yield* Fiber.poll(rest))).toBe(true)
  })

describe("retention's pace", () => {
  it.effect("after a 10 ms batch it rests 190 ms: not done at 189 ms, done at 190 ms", () =>
    Effect.gen(function*() {
      expect(AUDIT_DELETE_REST_PER_MS).toBe(19)
      yield* restsFor(10, 190)
    }))

  it.effect("a fast batch still waits out the minimum gap from its start: 2 ms, then 48 ms of rest", () =>
    Effect.gen(function*() {
      expect(Duration.toMillis(AUDIT_DELETE_MIN_GAP)).toBe(50)
      // 19 × 2 ms = 38 ms would come sooner
      yield* restsFor(2, 48)
    }))

  it.effect("after a batch that took no measurable time it rests the whole minimum gap", () => restsFor(0, 50))
})
