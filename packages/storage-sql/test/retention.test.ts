/**
 * Retention's pace: between two audit delete batches it rests nine times as long as the last
 * batch took, so deleting holds the connection at most a tenth of the time (the batches
 * themselves are in the storage contract, on both databases).
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import { AUDIT_DELETE_REST_PER_MS, restBetweenBatches } from "../src/index.js"

describe("retention's pace", () => {
  it.effect("after a 10 ms batch it rests 90 ms: not done at 89 ms, done at 90 ms", () =>
    Effect.gen(function*() {
      expect(AUDIT_DELETE_REST_PER_MS).toBe(9)
      const rest = yield* Effect.fork(restBetweenBatches(10))
      yield* TestClock.adjust(Duration.millis(89))
      expect(Option.isNone(yield* Fiber.poll(rest))).toBe(true)
      yield* TestClock.adjust(Duration.millis(1))
      expect(Option.isSome(yield* Fiber.poll(rest))).toBe(true)
    }))

  // Under TestClock a sleep would never end: this passes only because nothing sleeps.
  it.effect("after a batch that took no measurable time it only yields (no sleep to wait for)", () =>
    Effect.gen(function*() {
      const rest = yield* Effect.fork(restBetweenBatches(0))
      yield* Fiber.join(rest)
    }))
})
