/**
 * How `serve` answers SIGINT and SIGTERM while it runs and while it stops.
 *
 * The first signal starts the graceful stop: the program's runtime (NodeRuntime.runMain)
 * interrupts the main fiber, and the layers' finalizers drain the HTTP server, flush the audit
 * queue and close the database. runMain then removes its own listeners, so without this module
 * a second signal would get Node's default action and kill the process mid-drain. A second
 * signal is common and harmless: Ctrl-C on `pnpm start` reaches the server from the terminal
 * and once more from pnpm, which forwards what it receives. So:
 *
 * - first signal: logged (`stopping`), the stop starts;
 * - second: logged, ignored; the stop goes on;
 * - third: logged (`forced exit`), the process exits 1 at once; so does a stop still running
 *   STOP_LIMIT (20 s) after the first signal. What was not yet drained or flushed is lost then
 *   (nothing acknowledged is: a quote is answered only after its audit entry is committed).
 *
 * The listeners are installed before anything else of `serve`. Once a stop has begun they stay
 * until the process ends (ignoring what comes after the stop finished). They do not outlive
 * Node's own teardown, though: once the event loop is empty Node closes its signal handles
 * and then finalizes what is left (libsql's statements), and a signal in that window gets the
 * default action. pnpm's forwarded Ctrl-C comes ~10 ms after the terminal's, later on a busy
 * machine; a stop that finished sooner could end the process just as it arrived (seen once
 * under a loaded test run: drained, then killed by SIGINT, `ELIFECYCLE`, exit 130). So a stop
 * begun by a signal lasts at least `SIGNAL_ECHO` from that signal: the echo meets a listener.
 *
 * `exitWhenDone` is the program's teardown: the process ends by itself, not by process.exit.
 * The SQLite driver (libsql) releases a connection only once its prepared statements are
 * finalized, which Node does when the process ends by itself; after process.exit the last
 * process leaves the database's `-wal` file behind (harmless, but an operator sees a file that
 * a clean stop should have removed).
 */
import type { Teardown } from "@effect/platform/Runtime"
import { Cause, Clock, Duration, Effect, Exit, Fiber, Runtime } from "effect"

/** How long a stop may take before the process exits anyway. */
export const STOP_LIMIT = Duration.seconds(20)

/** The least a stop begun by a signal lasts from that signal, for a forwarded copy to arrive (above). */
export const SIGNAL_ECHO = Duration.millis(300)

const SIGNALS = ["SIGINT", "SIGTERM"] as const

export interface SignalOptions {
  readonly limit: Duration.Duration
  /** The least a stop begun by a signal lasts from it (default `SIGNAL_ECHO`). */
  readonly echo?: Duration.Duration
  /** Ends the process (process.exit in production; a test may observe it instead). */
  readonly exit: (code: number) => void
  /** Where the signals come from: the process, or a test's emitter. */
  readonly source?: Pick<NodeJS.EventEmitter, "on" | "removeListener"> | undefined
}

/** For the life of the scope: counts stop signals, and forces an exit on the third or at the limit. */
export const handleStopSignals = (options: SignalOptions) =>
  Effect.gen(function*() {
    const source = options.source ?? process
    const runtime = yield* Effect.runtime<never>()
    const runSync = Runtime.runSync(runtime)
    const seconds = Duration.toSeconds(options.limit)
    let received = 0
    let stopped = false
    let limit: Fiber.RuntimeFiber<void> | undefined
    // On the runtime's clock, when the first signal came.
    let firstAt = 0

    const force = (why: string) => {
      runSync(
        Effect.logError(`forced exit: ${why}; what was not yet drained or flushed is lost`).pipe(
          Effect.annotateLogs({ event: "forced-exit" })
        )
      )
      options.exit(1)
    }

    const onSignal = (signal: NodeJS.Signals) => {
      if (stopped) return
      received += 1
      if (received === 1) {
        firstAt = runSync(Clock.currentTimeMillis)
        runSync(
          Effect.logInfo(`${signal}: stopping; a third signal or ${seconds} s force the exit`).pipe(
            Effect.annotateLogs({ event: "stopping", signal })
          )
        )
        // On the runtime's clock (a test's TestClock too); interrupted once the stop is done.
        limit = Runtime.runFork(runtime)(
          Effect.sleep(options.limit).pipe(Effect.zipRight(Effect.sync(() => force(`still stopping ${seconds} s after ${signal}`))))
        )
      } else if (received === 2) {
        runSync(
          Effect.logInfo(`${signal} again: still stopping (a third signal forces the exit)`).pipe(
            Effect.annotateLogs({ event: "stopping", signal })
          )
        )
      } else {
        force(`${signal} received a third time`)
      }
    }

    yield* Effect.acquireRelease(
      Effect.sync(() => {
        for (const signal of SIGNALS) source.on(signal, onSignal)
      }),
      () =>
        Effect.suspend(() => {
          if (received === 0) {
            // Ended otherwise (a test, a failure): the process goes on without us.
            for (const signal of SIGNALS) source.removeListener(signal, onSignal)
            return Effect.void
          }
          // The process is about to end: later signals are ignored, not fatal; a forwarded copy
          // of the first still on its way is given the time to arrive.
          stopped = true
          const echo = Duration.toMillis(options.echo ?? SIGNAL_ECHO)
          return Effect.zipRight(
            limit === undefined ? Effect.void : Fiber.interrupt(limit),
            Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sleep(Duration.millis(Math.max(0, firstAt + echo - now))))
          )
        })
    )
  })

/** How long an ended program may take to exit by itself before it is made to. */
const EXIT_GRACE_MS = 2_000

/**
 * The program's teardown: the exit status as Effect's default teardown gives it (1 for a
 * failure, 0 for success or interruption), set as process.exitCode, and the process left to end
 * by itself (see above), or made to after EXIT_GRACE_MS if some handle keeps it alive.
 */
export const exitWhenDone: Teardown = (exit) => {
  const code = Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) ? 1 : 0
  process.exitCode = code
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref()
}
