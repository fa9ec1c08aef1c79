/**
 * Audit commits on a worker thread. The SQLite driver is synchronous: on the main connection every
 * group commit held the event loop for its fsync (0.5 ms median, 4 ms p90 measured here under
 * synchronous=FULL), during which no request was parsed, priced or answered. The writer thread
 * has its own connection to the same file and commits each batch there; the event loop only
 * posts the rows and resumes the batch's waiters when the thread answers, after its COMMIT.
 *
 * Durability is unchanged: an append is still acknowledged only after its transaction
 * committed with synchronous=FULL. Reads (audit pages) stay on the main connection and see
 * every acknowledged append, since each read starts after the commit it follows.
 *
 * If the thread dies (it should not: every statement error is answered as a message), the
 * batches in flight fail with StorageUnavailable (503 for their quotes, nothing acknowledged
 * that was not committed) and the next batch starts a new thread.
 */
import { Worker } from "node:worker_threads"
import { StorageUnavailable } from "@ridequote/core"
import type { AuditDone } from "@ridequote/core"
import type { AuditRow, CallbackCommit } from "@ridequote/storage-sql"
import { Cause, Effect, Exit, Option, Runtime, Scope } from "effect"
import { driverPath } from "./Driver.js"
import { BUSY_TIMEOUT_MS } from "./SqliteClient.js"

const WORKER = new URL("./audit-writer.worker.cjs", import.meta.url)

const failed = (reason: string) => new StorageUnavailable({ message: `storage failed during audit append: ${reason}` })

interface Reply {
  readonly id?: number
  readonly kind?: "ready"
  readonly error?: string
}

type Resume = (error: string | undefined) => void

/**
 * One running thread: posts batches and routes each answer to its waiter. The thread answers
 * batches in the order they were posted, so the waiters are a FIFO list: a long-lived Map with
 * an entry added and deleted per batch would keep each old hash table pointing at its
 * successor, and every batch's waiters alive through V8's young collections (change 23).
 */
class WriterThread {
  private waiting: Array<{ readonly id: number; readonly resume: Resume }> = []
  private nextId = 0
  private dead: string | undefined
  readonly ready: Promise<void>

  constructor(private readonly worker: Worker) {
    this.ready = new Promise((resolve, reject) => {
      worker.on("message", (reply: Reply) => {
        if (reply.kind === "ready") return resolve()
        if (reply.id === undefined) return
        const at = this.waiting.findIndex((w) => w.id === reply.id)
        if (at < 0) return
        const { resume } = this.waiting[at]!
        this.waiting.splice(at, 1)
        resume(reply.error)
      })
      const die = (reason: string) => {
        this.dead ??= reason
        reject(new Error(reason))
        const waiting = this.waiting
        this.waiting = []
        for (const { resume } of waiting) resume(reason)
      }
      worker.on("error", (error) => die(`the audit writer thread failed: ${error.message}`))
      worker.on("exit", (code) => die(`the audit writer thread exited (${code})`))
    })
    // A failed start is reported by `start`; this keeps it from also being an unhandled rejection.
    this.ready.catch(() => undefined)
  }

  get alive(): boolean {
    return this.dead === undefined
  }

  commit(rows: ReadonlyArray<AuditRow>, resume: Resume): void {
    if (this.dead !== undefined) return resume(this.dead)
    const id = this.nextId++
    this.waiting.push({ id, resume })
    this.worker.postMessage({
      id,
      rows: rows.map((row) => [row.request_id, row.account_id, row.received_at_ms, row.entry])
    })
  }

  /** Commits what was posted before, closes the connection, and ends the thread. */
  close(): Promise<void> {
    if (this.dead !== undefined) return Promise.resolve()
    return new Promise((resolve) => {
      this.worker.once("exit", () => resolve())
      this.worker.postMessage({ kind: "close" })
    })
  }
}

const start = (filename: string): Effect.Effect<WriterThread, StorageUnavailable> =>
  Effect.tryPromise({
    try: async () => {
      const thread = new WriterThread(
        new Worker(WORKER, { workerData: { filename, driver: driverPath(), busyTimeoutMs: BUSY_TIMEOUT_MS } })
      )
      await thread.ready
      return thread
    },
    catch: (error) => failed(error instanceof Error ? error.message : String(error))
  })

/**
 * Starts the writer thread on `filename` (a file, already migrated) for the life of the scope
 * and returns the audit log's commit, in callback form: a batch is posted to the thread and its
 * waiters answered from the thread's reply, with no fiber per batch. Closing the scope lets the
 * thread finish what was posted.
 */
export const auditWriterThread = (
  filename: string
): Effect.Effect<CallbackCommit<AuditRow>, StorageUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    let thread = yield* Effect.acquireRelease(start(filename), (t) => Effect.promise(() => t.close()))
    const restart = Effect.tap(start(filename), (fresh) => {
      thread = fresh
      return Scope.addFinalizer(scope, Effect.promise(() => fresh.close()))
    })
    const commitOn = (t: WriterThread, rows: ReadonlyArray<AuditRow>, done: AuditDone) =>
      t.commit(rows, (error) => done(error === undefined ? undefined : failed(error)))
    return {
      withCallback: (rows, done) => {
        if (thread.alive) return commitOn(thread, rows, done)
        // The thread died (it should not): a new one is started, in a fiber, as rarely. The group
        // commit posts one batch at a time, so two replacements cannot race; each replacement
        // is closed with the scope too.
        runFork(restart).addObserver((exit) =>
          Exit.isSuccess(exit)
            ? commitOn(exit.value, rows, done)
            : done(Option.getOrElse(Cause.failureOption(exit.cause), () => failed("the audit writer thread could not start")))
        )
      }
    }
  })
