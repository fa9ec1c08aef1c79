/** Runs a TypeScript file of this folder in its own Node process (through tsx). */
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { join } from "node:path"
import { Effect } from "effect"

const tsx = createRequire(import.meta.url).resolve("tsx")

export interface ProcessResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const runProcess = (script: string, args: ReadonlyArray<string>): Effect.Effect<ProcessResult> =>
  Effect.async<ProcessResult>((resume) => {
    const child = spawn(process.execPath, ["--import", tsx, join(import.meta.dirname, script), ...args], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill())
  })
