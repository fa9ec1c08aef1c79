/**
 * Child processes of the benchmark: every child is tracked and killed when the run ends,
 * fails, or is interrupted (Ctrl-C). Also: CPU pinning with taskset, the server's CPU time and
 * RSS from /proc, and a quiet-machine wait.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { REPO_ROOT } from "./config.js"

const children = new Set<ChildProcess>()

const killAll = (): void => {
  for (const child of children) {
    try {
      child.kill("SIGKILL")
    } catch {
      // already gone
    }
  }
  children.clear()
}

let installed = false
/** Kills every child on exit, on SIGINT/SIGTERM/SIGHUP and on an uncaught error. */
export const installCleanup = (): void => {
  if (installed) return
  installed = true
  process.on("exit", killAll)
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping every child process`)
      killAll()
      process.exit(130)
    })
  }
  process.on("uncaughtException", (error) => {
    console.error(error)
    killAll()
    process.exit(1)
  })
  process.on("unhandledRejection", (error) => {
    console.error(error)
    killAll()
    process.exit(1)
  })
}

export const hasTaskset: boolean = (() => {
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

/** `taskset -c <cpus> cmd…` where taskset exists (it execs, so the pid is the command's). */
export const pinned = (cpus: string | undefined, argv: ReadonlyArray<string>): ReadonlyArray<string> =>
  hasTaskset && cpus !== undefined && cpus !== "" ? ["taskset", "-c", cpus, ...argv] : argv

/** The environment of a child: ours without RIDEQUOTE_* and NODE_OPTIONS, plus `extra`. */
export const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("RIDEQUOTE_") && !k.startsWith("BENCH_REF_") && k !== "NODE_OPTIONS") base[k] = v
  }
  return { ...base, ...extra }
}

export interface Spawned {
  readonly child: ChildProcess
  readonly pid: number
  readonly exited: Promise<number | null>
}

/**
 * Spawns a tracked child; stdout and stderr go to files (never a pipe we must drain: a server
 * logging a line per request would otherwise block on us). `ownSession`: the child starts a
 * session of its own (setsid), so Linux's scheduler autogroups give it its own share of a core
 * beside another such child, however many threads each runs (sections that measure two servers
 * on one core at the same time).
 */
export const spawnTracked = (
  argv: ReadonlyArray<string>,
  env: Record<string, string>,
  stdoutFile: string,
  stderrFile: string,
  options: { readonly ownSession?: boolean } = {}
): Spawned => {
  const [cmd, ...args] = argv
  if (cmd === undefined) throw new Error("empty command")
  const out = openSync(stdoutFile, "a")
  const err = openSync(stderrFile, "a")
  const child = spawn(cmd, args, { cwd: REPO_ROOT, env: childEnv(env), stdio: ["ignore", out, err], detached: options.ownSession === true })
  closeSync(out)
  closeSync(err)
  children.add(child)
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      children.delete(child)
      resolve(code)
    })
    child.once("error", () => {
      children.delete(child)
      resolve(-1)
    })
  })
  if (child.pid === undefined) throw new Error(`cannot start ${argv.join(" ")}`)
  return { child, pid: child.pid, exited }
}

/** Runs a command to completion, capturing stdout (small outputs: CLI calls, autocannon's JSON). */
export const runCaptured = (
  argv: ReadonlyArray<string>,
  env: Record<string, string>,
  timeoutMs: number
): Promise<{ code: number | null; stdout: string; stderr: string }> => {
  const [cmd, ...args] = argv
  if (cmd === undefined) throw new Error("empty command")
  const child = spawn(cmd, args, { cwd: REPO_ROOT, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")))
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")))
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
  return new Promise((resolve) => {
    child.once("close", (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, stdout, stderr })
    })
  })
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export const stop = async (s: Spawned, graceMs = 10_000): Promise<void> => {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return
  s.child.kill("SIGTERM")
  const timer = setTimeout(() => s.child.kill("SIGKILL"), graceMs)
  await s.exited
  clearTimeout(timer)
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Waits for the JSON log line with `annotations.event === "listening"` (or `event`) in a file. */
export const waitForListening = async (
  file: string,
  s: Spawned,
  stderrFile: string,
  timeoutMs = 120_000
): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  let exitCode: number | null | undefined
  void s.exited.then((c) => (exitCode = c))
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (!line.includes("listening")) continue
        try {
          const parsed = JSON.parse(line) as { event?: unknown; address?: unknown; annotations?: { event?: unknown; address?: unknown } }
          const a = parsed.annotations ?? parsed
          if (a.event === "listening" && typeof a.address === "string") return a.address
        } catch {
          // not JSON
        }
      }
    }
    if (exitCode !== undefined) {
      throw new Error(`server exited (${exitCode}) before listening:\n${readTail(stderrFile)}`)
    }
    await sleep(50)
  }
  s.child.kill("SIGKILL")
  throw new Error(`server did not listen within ${timeoutMs} ms:\n${readTail(stderrFile)}`)
}

export const readTail = (file: string, chars = 4000): string =>
  existsSync(file) ? readFileSync(file, "utf8").slice(-chars) : ""

// ---- /proc ---------------------------------------------------------------------------------

const clockTicks: number = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/** The pid and its descendants (a wrapper such as pnpm in BENCH_SERVER_CMD is counted with its node). */
const tree = (pid: number): Array<number> => {
  const out = [pid]
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim()
      for (const k of kids === "" ? [] : kids.split(/\s+/)) out.push(...tree(Number(k)))
    }
  } catch {
    // gone
  }
  return out
}

/** User + system CPU time of the process tree, µs (undefined without /proc). */
export const cpuMicros = (pid: number): number | undefined => {
  let total = 0
  let any = false
  for (const p of tree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      // fields[0] is field 3 (state): utime is field 14, stime field 15.
      total += (Number(fields[11]) + Number(fields[12])) * (1e6 / clockTicks)
      any = true
    } catch {
      // gone
    }
  }
  return any ? total : undefined
}

/** VmRSS of the process tree, kB. */
export const rssKb = (pid: number): number | undefined => {
  let total = 0
  let any = false
  for (const p of tree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"))
      if (m?.[1] !== undefined) {
        total += Number(m[1])
        any = true
      }
    } catch {
      // gone
    }
  }
  return any ? total : undefined
}

interface CoreTimes {
  readonly busy: number
  readonly total: number
}
const coreTimes = (): Map<string, CoreTimes> => {
  const out = new Map<string, CoreTimes>()
  try {
    for (const line of readFileSync("/proc/stat", "utf8").split("\n")) {
      const m = /^cpu(\d+)\s+(.*)$/.exec(line)
      if (m?.[1] === undefined || m[2] === undefined) continue
      const v = m[2].split(/\s+/).map(Number)
      const total = v.slice(0, 8).reduce((a, b) => a + b, 0)
      const idle = (v[3] ?? 0) + (v[4] ?? 0)
      out.set(m[1], { busy: total - idle, total })
    }
  } catch {
    // no /proc
  }
  return out
}

/** Busy % per core over an interval, from two coreTimes samples. */
export const coreBusy = (): (() => Record<string, number>) => {
  const a = coreTimes()
  return () => {
    const b = coreTimes()
    const out: Record<string, number> = {}
    for (const [k, t] of b) {
      const s = a.get(k)
      if (s === undefined) continue
      const dt = t.total - s.total
      out[k] = dt > 0 ? Math.round(((t.busy - s.busy) / dt) * 100) : 0
    }
    return out
  }
}

/** Waits (at most `maxS` seconds) for a second in which every core is below `pct` % busy. */
export const waitQuiet = async (maxS: number, pct: number): Promise<Record<string, number>> => {
  const deadline = Date.now() + maxS * 1000
  for (;;) {
    const end = coreBusy()
    await sleep(1000)
    const busy = end()
    if (Object.values(busy).every((b) => b < pct) || Date.now() >= deadline) return busy
  }
}

// ---- temporary directories -------------------------------------------------------------------

const tempDirs = new Set<string>()
let tempCleanup = false

/** A fresh directory under the OS temp dir, removed when the benchmark exits (BENCH_KEEP_TMP=1 keeps it). */
export const makeTempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `ridequote-bench-${prefix}-`))
  tempDirs.add(dir)
  if (!tempCleanup) {
    tempCleanup = true
    process.on("exit", () => {
      if (process.env["BENCH_KEEP_TMP"] === "1") return
      for (const d of tempDirs) rmSync(d, { recursive: true, force: true })
    })
  }
  return dir
}

export const removeTempDir = (dir: string): void => {
  if (process.env["BENCH_KEEP_TMP"] === "1") return
  rmSync(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

/**
 * CPU time (user + system, µs) of each thread of one process, by thread id (the main thread's
 * id is the pid). Undefined without /proc.
 */
export const threadCpuMicros = (pid: number): ReadonlyMap<number, number> | undefined => {
  const out = new Map<number, number>()
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * (1e6 / clockTicks))
      } catch {
        // the thread ended
      }
    }
  } catch {
    return undefined
  }
  return out
}
