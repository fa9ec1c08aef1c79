/**
 * Runs a TypeScript file of this folder in its own Node process, bundled once per test process
 * with the program's build options (`bundleCommand` of packages/server/scripts/build.mjs): under
 * tsx every start compiled effect and the adapter's sources again, ~4 s of CPU a process.
 */
import { spawn } from "node:child_process"
import { basename, join } from "node:path"
import { Deferred, Effect } from "effect"
import type { Scope } from "effect"
import { inject } from "vitest"

const bundles = new Map<string, Promise<string>>()

/**
 * The bundle of `script`, made on first use in the run's folder (tools/build-before-tests.ts:
 * inside the repository, where its externals such as libsql resolve; removed after the run).
 */
const bundled = (script: string): Promise<string> => {
  let bundle = bundles.get(script)
  if (bundle === undefined) {
    const outdir = join(inject("testCacheDir"), `${basename(script, ".ts")}-${process.pid}`)
    bundle = import("../../../server/scripts/build.mjs").then(({ bundleCommand }) =>
      bundleCommand({ entry: join(import.meta.dirname, script), outdir }))
    bundles.set(script, bundle)
  }
  return bundle
}

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
    const bin = yield* Effect.promise(() => bundled(script))
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] })),
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
