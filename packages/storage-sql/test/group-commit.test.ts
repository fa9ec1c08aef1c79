import { describe, expect, it } from "@effect/vitest"
import { StorageUnavailable } from "@ridequote/core"
import { Deferred, Effect, Exit, Fiber, Metric, Ref, Scope } from "effect"
import { makeGroupCommit } from "../src/index.js"

let gauges = 0
const freshGauge = () => Metric.gauge(`test_group_commit_depth_${++gauges}`)

/** Waits (by yielding, not sleeping) until the gauge reads `n`. */
const untilDepth = (gauge: Metric.Metric.Gauge<number>, n: number) =>
  Metric.value(gauge).pipe(Effect.zipLeft(Effect.yieldNow()), Effect.repeat({ until: (state) => state.value === n }))

describe("group commit", () => {
  it.scoped("concurrent submits share transactions, and each returns only after its commit", () =>
    Effect.gen(function*() {
      const commits = yield* Ref.make<ReadonlyArray<ReadonlyArray<number>>>([])
      const group = yield* makeGroupCommit({
        commit: (rows: ReadonlyArray<number>) => Ref.update(commits, (all) => [...all, rows]),
        depth: freshGauge()
      })
      const rows = Array.from({ length: 200 }, (_, i) => i)
      yield* Effect.forEach(rows, (row) =>
        Effect.zipRight(group.submit(row), Effect.flatMap(Ref.get(commits), (all) =>
          // by the time submit returns, its row is in a committed batch
          all.some((batch) => batch.includes(row)) ? Effect.void : Effect.die(`row ${row} acknowledged before commit`))),
        { concurrency: "unbounded", discard: true })
      const all = yield* Ref.get(commits)
      expect(all.flat().sort((a, b) => a - b)).toEqual(rows)
      expect(all.length).toBeLessThan(rows.length)
    }))

  it.scoped("a failed commit fails every submit of that batch with StorageUnavailable; the next batch commits", () =>
    Effect.gen(function*() {
      const failing = yield* Ref.make(true)
      const committed = yield* Ref.make<ReadonlyArray<string>>([])
      const depth = freshGauge()
      const group = yield* makeGroupCommit({
        commit: (rows: ReadonlyArray<string>) =>
          Effect.flatMap(Ref.get(failing), (fail) =>
            fail
              ? Effect.fail(new StorageUnavailable({ message: "disk on fire" }))
              : Ref.update(committed, (all) => [...all, ...rows])),
        depth
      })
      const errors = yield* Effect.forEach(["a", "b", "c"], (row) => Effect.flip(group.submit(row)), {
        concurrency: "unbounded"
      })
      expect(errors.map((e) => e.message)).toEqual(["disk on fire", "disk on fire", "disk on fire"])
      yield* Ref.set(failing, false)
      yield* group.submit("d")
      expect(yield* Ref.get(committed)).toEqual(["d"])
      expect((yield* Metric.value(depth)).value).toBe(0)
    }))

  it.scoped("a defect in the commit still answers the waiters (StorageUnavailable), never leaves them hanging", () =>
    Effect.gen(function*() {
      const group = yield* makeGroupCommit({ commit: () => Effect.die("bug"), depth: freshGauge() })
      const error = yield* Effect.flip(group.submit(1))
      expect(error._tag).toBe("StorageUnavailable")
    }))

  it.effect("closing the scope commits everything already queued, then refuses new submits", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const committed = yield* Ref.make<ReadonlyArray<number>>([])
      const depth = freshGauge()
      const scope = yield* Scope.make()
      const group = yield* makeGroupCommit({
        commit: (rows: ReadonlyArray<number>) =>
          Effect.zipRight(Deferred.await(gate), Ref.update(committed, (all) => [...all, ...rows])),
        depth
      }).pipe(Scope.extend(scope))

      // eleven submits wait: some in the batch held at the gate, the rest in the queue
      const submits = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 11 }, (_, i) => i), group.submit, { concurrency: "unbounded" })
      )
      yield* untilDepth(depth, 11)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(closing)

      expect(Exit.isSuccess(yield* Fiber.await(submits))).toBe(true)
      expect([...(yield* Ref.get(committed))].sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i))
      const late = yield* Effect.flip(group.submit(99))
      expect(late.message).toContain("shutting down")
    }))

  it.scoped("no transaction holds more than maxBatch rows; every row is committed once", () =>
    Effect.gen(function*() {
      const commits = yield* Ref.make<ReadonlyArray<ReadonlyArray<number>>>([])
      const group = yield* makeGroupCommit({
        commit: (rows: ReadonlyArray<number>) => Ref.update(commits, (all) => [...all, rows]),
        depth: freshGauge(),
        maxBatch: 7
      })
      const rows = Array.from({ length: 100 }, (_, i) => i)
      yield* Effect.forEach(rows, group.submit, { concurrency: "unbounded", discard: true })
      const all = yield* Ref.get(commits)
      expect(Math.max(...all.map((batch) => batch.length))).toBeLessThanOrEqual(7)
      expect(all.flat().sort((a, b) => a - b)).toEqual(rows)
    }))

  it.scoped("a submit whose caller went away (interrupted) still has its row committed", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const committed = yield* Ref.make<ReadonlyArray<number>>([])
      const depth = freshGauge()
      const group = yield* makeGroupCommit({
        commit: (rows: ReadonlyArray<number>) =>
          Effect.zipRight(Deferred.await(gate), Ref.update(committed, (all) => [...all, ...rows])),
        depth
      })
      const waiting = yield* Effect.fork(group.submit(1))
      yield* untilDepth(depth, 1)
      yield* Fiber.interrupt(waiting)
      yield* Deferred.succeed(gate, undefined)
      yield* group.submit(2)
      expect(yield* Ref.get(committed)).toEqual([1, 2])
      yield* untilDepth(depth, 0)
    }))

  it.scoped("enqueue answers by callback after the commit, in the same batches as submit", () =>
    Effect.gen(function*() {
      const commits = yield* Ref.make<ReadonlyArray<ReadonlyArray<number>>>([])
      const depth = freshGauge()
      const group = yield* makeGroupCommit({
        commit: (rows: ReadonlyArray<number>) => Ref.update(commits, (all) => [...all, rows]),
        depth
      })
      const answered: Array<[number, string | undefined]> = []
      for (const row of [1, 2, 3]) group.enqueue(row, (failure) => answered.push([row, failure?.message]))
      const viaSubmit = yield* Effect.fork(group.submit(4))
      // Nothing is answered before its commit.
      expect(answered).toEqual([])
      yield* Fiber.join(viaSubmit)
      expect(answered).toEqual([[1, undefined], [2, undefined], [3, undefined]])
      expect(yield* Ref.get(commits)).toEqual([[1, 2, 3, 4]])
      yield* untilDepth(depth, 0)
    }))

  it.scoped("a commit in callback form: no fiber per batch, its failure and a throw reach every waiter", () =>
    Effect.gen(function*() {
      const committed: Array<ReadonlyArray<string>> = []
      let mode: "ok" | "fail" | "throw" = "ok"
      const group = yield* makeGroupCommit<string>({
        commit: {
          withCallback: (rows, done) => {
            if (mode === "throw") throw new Error("bug in the committer")
            // Answers later, as a writer thread does.
            setTimeout(() => {
              if (mode === "fail") return done(new StorageUnavailable({ message: "disk on fire" }))
              committed.push(rows)
              done(undefined)
            }, 1)
          }
        },
        depth: freshGauge()
      })
      yield* group.submit("a")
      expect(committed).toEqual([["a"]])
      mode = "fail"
      expect((yield* Effect.flip(group.submit("b"))).message).toBe("disk on fire")
      mode = "throw"
      const failures: Array<StorageUnavailable | undefined> = []
      group.enqueue("c", (failure) => failures.push(failure))
      expect((yield* Effect.flip(group.submit("d")))._tag).toBe("StorageUnavailable")
      expect(failures.map((f) => f?._tag)).toEqual(["StorageUnavailable"])
      mode = "ok"
      yield* group.submit("e")
      expect(committed).toEqual([["a"], ["e"]])
    }))

  it.effect("enqueue after the scope closed is refused at once", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const group = yield* makeGroupCommit({ commit: () => Effect.void, depth: freshGauge() }).pipe(Scope.extend(scope))
      yield* Scope.close(scope, Exit.void)
      const failures: Array<string | undefined> = []
      group.enqueue(1, (failure) => failures.push(failure?.message))
      expect(failures).toEqual(["storage is shutting down"])
    }))

  it.scoped("a waiter that throws leaves the other waiters answered and the queue moving", () =>
    Effect.gen(function*() {
      const group = yield* makeGroupCommit({ commit: () => Effect.void, depth: freshGauge() })
      const answered: Array<number> = []
      group.enqueue(1, () => {
        throw new Error("bug in a waiter")
      })
      group.enqueue(2, () => answered.push(2))
      yield* group.submit(3)
      expect(answered).toEqual([2])
      yield* group.submit(4)
    }))

  it.scoped("maxInFlight 2: a second batch commits while the first is still held; never a third; none is lost", () =>
    Effect.gen(function*() {
      const held: Array<{ readonly rows: ReadonlyArray<number>; readonly done: (failure: StorageUnavailable | undefined) => void }> = []
      const depth = freshGauge()
      const group = yield* makeGroupCommit<number>({
        // Holds every batch until the test lets it go.
        commit: { withCallback: (rows, done) => held.push({ rows, done }) },
        depth,
        maxInFlight: 2
      })
      const answered: Array<number> = []
      const waitFor = (n: number) => Effect.repeat(Effect.yieldNow(), { until: () => held.length >= n })
      group.enqueue(1, () => answered.push(1))
      yield* waitFor(1)
      group.enqueue(2, () => answered.push(2))
      yield* waitFor(2)
      // Two batches committing: a third row waits in the queue, however long.
      group.enqueue(3, () => answered.push(3))
      for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
      expect(held.map((h) => h.rows)).toEqual([[1], [2]])
      // The second finishes first: its row is answered, and the queued row starts its batch.
      held[1]?.done(undefined)
      yield* waitFor(3)
      expect(answered).toEqual([2])
      expect(held[2]?.rows).toEqual([3])
      held[0]?.done(undefined)
      held[2]?.done(undefined)
      expect(answered).toEqual([2, 1, 3])
      yield* untilDepth(depth, 0)
    }))
})
