/** Runs a TypeScript file of this folder in its own Node process (through tsx). */
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { join } from "node:path"
import { Deferred, Effect } from "effect"
import type { Scope } from "effect"

const tsx = createRequire(import.meta.url).resolve("tsx")

export interface ProcessResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunningProcess {
  /** Completes when the process has written `readyText` on stdout. */
  readonly ready: Effect.Effect<void>
  readonly done: Effect.Effect<ProcessResult>
}

/** Starts the script; the process is killed if the scope closes before it ends. */
export const startProcess = (
  script: string,
  args: ReadonlyArray<string>,
  readyText = ""
): Effect.Effect<RunningProcess, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ready = yield* Deferred.make<void>()
    const done = yield* Deferred.make<ProcessResult>()
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, ["--import", tsx, join(import.meta.dirname, script), ...args], {
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      (child) => Effect.sync(() => child.exitCode === null && child.kill())
    )
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8")
      if (stdout.includes(readyText)) Deferred.unsafeDone(ready, Effect.void)
    })
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("close", (code) => {
      Deferred.unsafeDone(ready, Effect.void)
      Deferred.unsafeDone(done, Effect.succeed({ code, stdout, stderr }))
    })
    return { ready: Deferred.await(ready), done: Deferred.await(done) }
  })

export const runProcess = (script: string, args: ReadonlyArray<string>): Effect.Effect<ProcessResult> =>
  Effect.scoped(Effect.flatMap(startProcess(script, args), (running) => running.done))
