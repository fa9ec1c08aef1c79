/**
 * The stop signals of `serve` (Signals.ts), in process, on the TestClock: which signal starts
 * the stop, which is ignored, which forces the exit, and the stop's time limit. The same rules
 * on a real process, through its real signals, are in shutdown.test.ts.
 */
import { EventEmitter } from "node:events"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Logger, Scope, TestClock } from "effect"
import { handleStopSignals } from "../src/Signals.js"

/** A signal source, the exits asked for and the messages logged, for one scope. */
const setUp = Effect.gen(function*() {
  const source = new EventEmitter()
  const exits: Array<number> = []
  const logged: Array<string> = []
  const scope = yield* Scope.make()
  yield* handleStopSignals({ limit: Duration.seconds(20), echo: Duration.millis(300), exit: (code) => exits.push(code), source }).pipe(
    Scope.extend(scope),
    Effect.provide(Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logged.push(String(message)))))
  )
  return { source, exits, logged, scope }
})

describe("stop signals", () => {
  it.effect("a second signal is logged and ignored; the stop then ends without a forced exit", () =>
    Effect.gen(function*() {
      const { exits, logged, scope, source } = yield* setUp
      source.emit("SIGINT", "SIGINT")
      source.emit("SIGTERM", "SIGTERM")
      expect(logged).toEqual([
        "SIGINT: stopping; a third signal or 20 s force the exit",
        "SIGTERM again: still stopping (a third signal forces the exit)"
      ])
      yield* TestClock.adjust("300 millis")
      yield* Scope.close(scope, Exit.void)
      // After the stop: the time limit no longer applies, later signals are ignored.
      yield* TestClock.adjust("1 minute")
      source.emit("SIGINT", "SIGINT")
      expect(exits).toEqual([])
      expect(source.listenerCount("SIGINT")).toBe(1)
    }))

  it.effect("a stop begun by a signal lasts at least 300 ms from it, and a copy of the signal in that time is ignored", () =>
    Effect.gen(function*() {
      const { exits, logged, scope, source } = yield* setUp
      source.emit("SIGINT", "SIGINT")
      yield* TestClock.adjust("100 millis")
      // The stop's work is done 100 ms after the signal: the scope's end waits 200 ms more.
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* TestClock.adjust("199 millis")
      expect(closing.unsafePoll()).toBeNull()
      // pnpm's forwarded copy arrives while the stop still holds the listeners: ignored.
      source.emit("SIGINT", "SIGINT")
      yield* TestClock.adjust("1 millis")
      yield* closing.await
      expect(exits).toEqual([])
      expect(logged).toEqual(["SIGINT: stopping; a third signal or 20 s force the exit"])
      expect(source.listenerCount("SIGINT")).toBe(1)
    }))

  it.effect("a third signal forces the exit (1) with a log line", () =>
    Effect.gen(function*() {
      const { exits, logged, source } = yield* setUp
      for (const signal of ["SIGINT", "SIGINT", "SIGTERM"]) source.emit(signal, signal)
      expect(exits).toEqual([1])
      expect(logged.at(-1)).toBe("forced exit: SIGTERM received a third time; what was not yet drained or flushed is lost")
    }))

  it.effect("a stop still running 20 s after the first signal is forced to end (1) with a log line", () =>
    Effect.gen(function*() {
      const { exits, logged, source } = yield* setUp
      source.emit("SIGTERM", "SIGTERM")
      yield* TestClock.adjust("19999 millis")
      expect(exits).toEqual([])
      yield* TestClock.adjust("1 millis")
      expect(exits).toEqual([1])
      expect(logged.at(-1)).toBe("forced exit: still stopping 20 s after SIGTERM; what was not yet drained or flushed is lost")
    }))

  it.effect("without a signal, closing removes the listeners (the process goes on without them)", () =>
    Effect.gen(function*() {
      const { scope, source } = yield* setUp
      expect(source.listenerCount("SIGTERM")).toBe(1)
      yield* Scope.close(scope, Exit.void)
      expect(source.listenerCount("SIGTERM")).toBe(0)
      expect(source.listenerCount("SIGINT")).toBe(0)
    }))
})
