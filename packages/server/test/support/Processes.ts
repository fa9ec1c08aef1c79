/**
 * Real `ridequote` processes for end-to-end tests: `serve` instances on random ports of
 * 127.0.0.1 and one-shot CLI runs, exactly as an operator starts them: the compiled program
 * (bin/ridequote.js; the test run brings dist/ up to date first), 0.38 s of CPU a start here
 * against 2.1 s for the sources under tsx, which in-process tests cover. Every child is
 * tracked so `stopAll` can kill it even when a test failed.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url))
const BIN = join(REPO_ROOT, "packages/server/src/bin.ts")
/** The compiled program as `pnpm ridequote` runs it (dist/, rebuilt first if a source changed). */
export const COMPILED_BIN = join(REPO_ROOT, "packages/server/bin/ridequote.js")

/** Which `ridequote` a test runs: the TypeScript sources under tsx, or the compiled build. */
export type Program = "sources" | "compiled"

/** A start under heavy load (other tenants on the 2 cores) can take several seconds. */
export const START_TIMEOUT_MS = 90_000
const CLI_TIMEOUT_MS = 90_000
/**
 * Per test: a test starts up to two servers and a few CLI processes, each well under a second
 * on a quiet machine and several seconds on this shared one under load.
 */
export const PROCESS_TEST_TIMEOUT_MS = 240_000

const children = new Set<ChildProcess>()

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface Served {
  readonly url: string
  readonly child: ChildProcess
  /** Every stdout line so far (JSON log lines). */
  readonly stdoutLines: Array<string>
  readonly stderr: () => string
  readonly exited: Promise<Exit>
}

/** Environment for a child: the caller's settings, never inherited RIDEQUOTE_* values. */
export const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("RIDEQUOTE_") && !k.startsWith("VITEST") && k !== "NODE_OPTIONS") base[k] = v
  }
  return { ...base, ...env }
}

const spawnRidequote = (args: ReadonlyArray<string>, env: Record<string, string>, program: Program): ChildProcess => {
  const argv = program === "compiled" ? [COMPILED_BIN, ...args] : ["--import", "tsx", BIN, ...args]
  const child = spawn(process.execPath, argv, {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}

const exitOf = (child: ChildProcess): Promise<Exit> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode })
    } else {
      child.once("exit", (code, signal) => resolve({ code, signal }))
    }
  })

/**
 * Starts `ridequote serve --port 0` and resolves once it logs that it is listening (the API
 * is attached from that line on). Rejects with the child's stderr if it exits first.
 */
export const startServe = (
  env: Record<string, string>,
  args: ReadonlyArray<string> = [],
  program: Program = "compiled"
): Promise<Served> => {
  const child = spawnRidequote(["serve", "--port", "0", "--host", "127.0.0.1", ...args], env, program)
  return whenListening(child)
}

/** Resolves once `child` (a serve process) logs that it listens; rejects if it exits first. */
export const whenListening = (child: ChildProcess): Promise<Served> => {
  children.add(child)
  child.once("exit", () => children.delete(child))
  const stdoutLines: Array<string> = []
  let stderr = ""
  let pending = ""
  const exited = exitOf(child)
  return new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`serve did not start within ${START_TIMEOUT_MS} ms; stderr:\n${stderr}`))
    }, START_TIMEOUT_MS)
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8")
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8")
      const lines = pending.split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) {
        stdoutLines.push(line)
        const address = listeningAddress(line)
        if (address !== undefined) {
          clearTimeout(timer)
          resolve({ url: address, child, stdoutLines, stderr: () => stderr, exited })
        }
      }
    })
    void exited.then((exit) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${exit.code ?? exit.signal}) before listening; stderr:\n${stderr}`))
    })
  })
}

/** The address of a JSON log line announcing that the service listens, if it is one. */
export const listeningAddress = (line: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(line)
    if (typeof parsed !== "object" || parsed === null || !("annotations" in parsed)) return undefined
    const annotations = parsed.annotations
    if (typeof annotations !== "object" || annotations === null) return undefined
    if (!("event" in annotations) || annotations.event !== "listening") return undefined
    return "address" in annotations && typeof annotations.address === "string" ? annotations.address : undefined
  } catch {
    return undefined
  }
}

export interface CliResult extends Exit {
  readonly stdout: string
  readonly stderr: string
}

/** Runs one `ridequote …` command to completion. */
export const runCliProcess = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  program: Program = "compiled"
): Promise<CliResult> => {
  const child = spawnRidequote(args, env, program)
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  const timer = setTimeout(() => child.kill("SIGKILL"), CLI_TIMEOUT_MS)
  return exitOf(child).then((exit) => {
    clearTimeout(timer)
    return { ...exit, stdout, stderr }
  })
}

/** SIGKILLs every child still running. */
export const stopAll = async (): Promise<void> => {
  const running = Array.from(children)
  for (const child of running) child.kill("SIGKILL")
  await Promise.all(running.map(exitOf))
}

export interface TempDir {
  readonly path: string
  readonly file: (name: string) => string
  readonly remove: () => void
}

export const tempDir = (prefix: string): TempDir => {
  const path = mkdtempSync(join(tmpdir(), `ridequote-${prefix}-`))
  return { path, file: (name) => join(path, name), remove: () => rmSync(path, { recursive: true, force: true }) }
}
