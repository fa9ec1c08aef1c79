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
import { AUDIT_DELETE_STATEMENT } from "@ridequote/storage-sql"
import type { AuditDeleted, AuditDeleteRequest, AuditRow, CallbackCommit, DeleteAuditBatch } from "@ridequote/storage-sql"
import { Cause, Effect, Exit, Option, Runtime, Scope } from "effect"
import { driverPath } from "./Driver.js"
import { BUSY_TIMEOUT_MS } from "./SqliteClient.js"

const WORKER = new URL("./audit-writer.worker.cjs", import.meta.url)

const failed = (reason: string) => new StorageUnavailable({ message: `storage failed during audit append: ${reason}` })
const retentionFailed = (reason: string) =>
  new StorageUnavailable({ message: `storage failed during audit retention: ${reason}` })

interface Reply {
  readonly id?: number
  readonly kind?: "ready"
  readonly error?: string
  /** A delete batch's outcome. */
  readonly deleted?: number
  readonly lastSeq?: number
  readonly busyMs?: number
}

type Resume = (reply: Reply) => void

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
        resume(reply)
      })
      const die = (reason: string) => {
        this.dead ??= reason
        reject(new Error(reason))
        const waiting = this.waiting
        this.waiting = []
        for (const { resume } of waiting) resume({ error: reason })
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
    this.post({ rows: rows.map((row) => [row.request_id, row.account_id, row.received_at_ms, row.entry]) }, resume)
  }

  /** One retention batch, in its own transaction, between two commits. */
  deleteBatch(request: AuditDeleteRequest, resume: Resume): void {
    this.post({ kind: "delete", afterSeq: request.afterSeq, limit: request.limit, beforeMs: request.beforeMs }, resume)
  }

  private post(message: Record<string, unknown>, resume: Resume): void {
    if (this.dead !== undefined) return resume({ error: this.dead })
    const id = this.nextId++
    this.waiting.push({ id, resume })
    this.worker.postMessage({ id, ...message })
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
        new Worker(WORKER, {
          workerData: { filename, driver: driverPath(), busyTimeoutMs: BUSY_TIMEOUT_MS, deleteStatement: AUDIT_DELETE_STATEMENT }
        })
      )
      await thread.ready
      return thread
    },
    catch: (error) => failed(error instanceof Error ? error.message : String(error))
  })

/** The writer thread's two jobs: the audit log's commit, and retention's delete batches. */
export interface AuditWriter {
  readonly commit: CallbackCommit<AuditRow>
  readonly deleteBatch: DeleteAuditBatch
}

/**
 * Starts the writer thread on `filename` (a file, already migrated) for the life of the scope.
 * Its commit is in callback form: a batch is posted to the thread and its waiters answered from
 * the thread's reply, with no fiber per batch. Closing the scope lets the thread finish what was
 * posted.
 */
export const auditWriterThread = (
  filename: string
): Effect.Effect<AuditWriter, StorageUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    let thread = yield* Effect.acquireRelease(start(filename), (t) => Effect.promise(() => t.close()))
    let restarting: Promise<WriterThread> | undefined
    const restart = Effect.tap(start(filename), (fresh) => {
      thread = fresh
      return Scope.addFinalizer(scope, Effect.promise(() => fresh.close()))
    })
    /** The live thread; a dead one is replaced (it should not die), once however many ask at once. */
    const withThread = (use: (t: WriterThread) => void, cannot: (error: StorageUnavailable) => void) => {
      if (thread.alive) return use(thread)
      restarting ??= new Promise<WriterThread>((resolve, reject) =>
        runFork(restart).addObserver((exit) => {
          restarting = undefined
          if (Exit.isSuccess(exit)) resolve(exit.value)
          else reject(Option.getOrElse(Cause.failureOption(exit.cause), () => failed("the audit writer thread could not start")))
        })
      )
      restarting.then(use, cannot)
    }
    return {
      commit: {
        withCallback: (rows, done: AuditDone) =>
          withThread(
            (t) => t.commit(rows, (reply) => done(reply.error === undefined ? undefined : failed(reply.error))),
            done
          )
      },
      deleteBatch: (request) =>
        Effect.async<AuditDeleted, StorageUnavailable>((resume) =>
          withThread(
            (t) =>
              t.deleteBatch(request, (reply) =>
                resume(
                  reply.error === undefined
                    ? Effect.succeed({ deleted: reply.deleted ?? 0, lastSeq: reply.lastSeq, busyMs: reply.busyMs })
                    : Effect.fail(retentionFailed(reply.error))
                )
              ),
            (error) => resume(Effect.fail(error))
          )
        )
    }
  })
