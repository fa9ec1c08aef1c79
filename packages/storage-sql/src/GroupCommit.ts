/**
 * Group commit: many writers, one transaction. Each `submit` queues its row and waits; a single
 * writer fiber takes everything queued, commits it in one transaction, then answers every
 * waiter. A submit therefore returns only once its row is durable, yet concurrent submits share
 * one fsync (measured here: ~1.6–1.8× the throughput of a commit per row, and no slower when
 * idle, because the writer starts as soon as it is free rather than on a timer).
 *
 * The writer waits for the end of the event loop's current I/O phase (`setImmediate`) before
 * it takes its batch. Node runs the callbacks of every socket that became readable, and the
 * microtasks after each, before it gets there: so every request that arrived together joins
 * one transaction. Yielding to the fiber scheduler instead (a microtask) let the writer commit
 * after the first request of a burst, so under load every row paid its own fsync (240 quotes/s
 * against ~2,000 with the wait; docs/performance.md).
 *
 * The queue is a plain array and each waiter a callback (`Effect.async`), not a Queue, a
 * Deferred and a writer fiber: those cost ~25-45 µs of fiber steps per submit, ~10 % of a
 * quote. One fiber per *batch* runs the commit.
 */
import { StorageUnavailable } from "@ridequote/core"
import type { AuditDone } from "@ridequote/core"
import { Cause, Effect, Exit, Option, Runtime } from "effect"
import type { Metric, Scope } from "effect"

/** A running group commit (`makeGroupCommit`): two ways to submit a row and learn when it is durable. */
export interface GroupCommit<Row> {
  /** Succeeds once the transaction holding `row` has committed. */
  readonly submit: (row: Row) => Effect.Effect<void, StorageUnavailable>
  /**
   * Queues `row` at once and calls `done` once its transaction committed (`undefined`) or
   * failed, without a fiber waiting: for callers that wait outside any fiber (the Node host's
   * quote). The same queue, batches and order as `submit`.
   */
  readonly enqueue: (row: Row, done: AuditDone) => void
}

/**
 * A commit in callback form, for a committer that is itself callback-based (SQLite's writer
 * thread): no fiber is started per batch. A fiber running across the commit is reachable from
 * Effect's root-fiber set, and through it everything its batch's waiters hold; V8's young
 * collections then promote all of it (docs/performance.md, change 23).
 */
export interface CallbackCommit<Row> {
  readonly withCallback: (rows: ReadonlyArray<Row>, done: AuditDone) => void
}

/** What `makeGroupCommit` needs: how to commit a batch, and the gauge that shows its queue. */
export interface GroupCommitOptions<Row> {
  /** Commits every row in one transaction, or none. */
  readonly commit: ((rows: ReadonlyArray<Row>) => Effect.Effect<void, StorageUnavailable>) | CallbackCommit<Row>
  /** Submits still waiting for their commit (queued or being committed). */
  readonly depth: Metric.Metric.Gauge<number>
  /** Upper bound on one transaction, so a backlog cannot hold the connection for long. */
  readonly maxBatch?: number | undefined
  /** Batches committing at once (default 1). */
  readonly maxInFlight?: number | undefined
}

interface Pending<Row> {
  readonly row: Row
  readonly done: AuditDone
}

const shuttingDown = new StorageUnavailable({ message: "storage is shutting down" })
const commitDefect = new StorageUnavailable({ message: "storage failed while committing" })

/**
 * Starts the writer in the current scope. Closing the scope stops new submits and commits
 * everything already queued before it completes (a graceful SIGTERM loses no audit).
 */
export const makeGroupCommit = <Row>(
  options: GroupCommitOptions<Row>
): Effect.Effect<GroupCommit<Row>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const maxBatch = Math.max(1, options.maxBatch ?? 5_000)
    const runtime = yield* Effect.runtime<never>()
    const runFork = Runtime.runFork(runtime)
    const depth = (delta: number) => options.depth.unsafeModify(delta, [])
    // Registers the gauge (at its current value, 0 in a fresh process) so /metrics shows the
    // queue from the start, not only after the first append.
    depth(0)

    let queue: Array<Pending<Row>> = []
    let scheduled = false
    let inFlight = 0
    const maxInFlight = Math.max(1, options.maxInFlight ?? 1)
    let closed = false
    let whenIdle: Array<() => void> = []

    const idle = () => queue.length === 0 && inFlight === 0 && !scheduled

    /** The next batch is taken after the current I/O phase (see above), up to `maxInFlight` commits at a time. */
    const schedule = () => {
      if (scheduled || inFlight >= maxInFlight || queue.length === 0) return
      scheduled = true
      setImmediate(commitNext)
    }

    /** A defect, not a storage error: the cause is kept for the operator; waiters get a 503. */
    const defect = (cause: Cause.Cause<unknown>): StorageUnavailable => {
      runFork(Effect.logError("group commit failed unexpectedly", cause))
      return commitDefect
    }

    /** Runs the commit in whichever form it was given; `done` is called once. */
    const given = options.commit
    const commit = (rows: ReadonlyArray<Row>, done: AuditDone): void => {
      if (typeof given !== "function") {
        let called = false
        const once: AuditDone = (failure) => {
          if (called) return
          called = true
          done(failure)
        }
        try {
          given.withCallback(rows, once)
        } catch (error) {
          once(defect(Cause.die(error)))
        }
        return
      }
      runFork(given(rows)).addObserver((exit) =>
        done(Exit.isSuccess(exit) ? undefined : Option.getOrElse(Cause.failureOption(exit.cause), () => defect(exit.cause)))
      )
    }

    const commitNext = () => {
      scheduled = false
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch)
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch)
      inFlight++
      commit(batch.map((pending) => pending.row), (failure) => {
        inFlight--
        for (const pending of batch) {
          // A waiter that throws (a bug in its caller) must not keep the others unanswered or
          // stall the queue behind it.
          try {
            pending.done(failure)
          } catch (error) {
            runFork(Effect.logError("an audit waiter failed", Cause.die(error)))
          }
        }
        depth(-batch.length)
        schedule()
        if (idle()) {
          const waiting = whenIdle
          whenIdle = []
          for (const resume of waiting) resume()
        }
      })
    }

    yield* Effect.addFinalizer(() =>
      Effect.async<void>((resume) => {
        closed = true
        if (idle()) return resume(Effect.void)
        whenIdle.push(() => resume(Effect.void))
      })
    )

    const enqueue = (row: Row, done: AuditDone): void => {
      if (closed) return done(shuttingDown)
      queue.push({ row, done })
      depth(1)
      schedule()
    }

    const submit = (row: Row) =>
      Effect.async<void, StorageUnavailable>((answer) =>
        enqueue(row, (failure) => answer(failure === undefined ? Effect.void : Effect.fail(failure)))
      )

    return { submit, enqueue }
  })
