/**
 * The compiled program (`pnpm build` → packages/server/dist, run as `pnpm ridequote` and
 * `pnpm start` run it: node packages/server/bin/ridequote.js, no TypeScript loader): its help,
 * its usage errors, and `serve` on a temporary SQLite file with the shipped markets, stopped by
 * SIGTERM directly and through `pnpm start`, and Ctrl-C on `pnpm start` in a terminal.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import {
  childEnv,
  PROCESS_TEST_TIMEOUT_MS,
  REPO_ROOT,
  runCliProcess,
  startServe,
  stopAll,
  tempDir,
  whenListening
} from "./support/Processes.js"

const dir = tempDir("compiled")
afterAll(async () => {
  await stopAll()
  dir.remove()
})

const compiled = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  runCliProcess(args, { RIDEQUOTE_DATABASE: dir.file("cli.db"), ...env }, "compiled")

describe("the compiled ridequote", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("--help of a command, after other options too: exit 0, on stdout, 80 columns off a terminal", async () => {
    for (const args of [["--help"], ["serve", "--help"], ["serve", "--markets", "markets", "--help"], ["accounts", "create", "-h"]]) {
      const r = await compiled(args)
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toBe("")
      expect(r.stdout).toMatch(/^Usage: ridequote/)
      for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80)
    }
    const serve = await compiled(["serve", "--markets", "markets", "--help"])
    expect(serve.stdout).toMatch(/^Usage: ridequote serve /)
    expect(serve.stdout).toMatch(/Environment:\s+RIDEQUOTE_PORT\./)
  })

  it("wraps at COLUMNS when stdout is not a terminal", async () => {
    const r = await compiled(["serve", "--help"], { COLUMNS: "50" })
    expect(r.code).toBe(0)
    for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(50)
  })

  it("usage errors: `ridequote: …` on stderr, naming the flag, nothing on stdout, exit non-zero", async () => {
    const cases: ReadonlyArray<[ReadonlyArray<string>, RegExp]> = [
      [["serve", "--bogus"], /^ridequote: unknown argument '--bogus'\nRun 'ridequote serve --help' for usage\.$/],
      [["serve", "--port", "abc"], /^ridequote: --port must be a whole number, got "abc"/],
      [["accounts", "create"], /^ridequote: .*--name/],
      [["accounts", "create", "--name", "x", "--status", "Frozen"], /^ridequote: .*Active, Pending, Blocked/],
      [["nonsense"], /^ridequote: .*serve/]
    ]
    for (const [args, message] of cases) {
      const r = await compiled(args)
      expect(r.code, args.join(" ")).not.toBe(0)
      expect(r.stdout).toBe("")
      expect(r.stderr.trim()).toMatch(message)
    }
  })

  it("a bad environment value names the variable and the form it expects", async () => {
    const cases: ReadonlyArray<[Record<string, string>, RegExp]> = [
      [{ RIDEQUOTE_PORT: "abc" }, /^ridequote: RIDEQUOTE_PORT must be a whole number, got "abc"/],
      [{ RIDEQUOTE_SAMPLE_FALLBACK: "maybe" }, /^ridequote: RIDEQUOTE_SAMPLE_FALLBACK must be one of on, off, got "maybe"/],
      [{ RIDEQUOTE_REFRESH_INTERVAL: "61" }, /^ridequote: .*RIDEQUOTE_REFRESH_INTERVAL must be a whole number of seconds in 1\.\.60/],
      [{ RIDEQUOTE_DB_POOL_SIZE: "many" }, /^ridequote: RIDEQUOTE_DB_POOL_SIZE must be a whole number, got "many"/]
    ]
    for (const [env, message] of cases) {
      const r = await compiled("RIDEQUOTE_PORT" in env ? ["serve"] : ["serve", "--port", "0"], env)
      expect(r.code, JSON.stringify(env)).not.toBe(0)
      expect(r.stderr.trim()).toMatch(message)
    }
  })

  it("serve: ready on a new SQLite file with the shipped markets, docs and OpenAPI; SIGTERM exits 0", async () => {
    const served = await startServe({ RIDEQUOTE_DATABASE: dir.file("serve.db") }, [], "compiled")
    const ready = await fetch(`${served.url}/health/ready`)
    expect(ready.status).toBe(200)
    expect(served.stdoutLines.join("\n")).toContain('"markets":"shipped"')
    expect((await fetch(`${served.url}/docs`)).status).toBe(200)
    const openapi = await fetch(`${served.url}/openapi.json`)
    expect(openapi.status).toBe(200)
    expect(JSON.stringify(await openapi.json())).toContain("/v1/quote")
    served.child.kill("SIGTERM")
    expect(await served.exited).toEqual({ code: 0, signal: null })
  })

  it("pnpm start: SIGTERM to pnpm reaches the server, which drains and exits 0", async (context) => {
    // pnpm sets npm_execpath to itself when it runs the tests (`pnpm test`); elsewhere skip loudly.
    const pnpm = process.env["npm_execpath"]
    if (pnpm === undefined || !/pnpm/.test(pnpm)) {
      console.warn("SKIPPED: run under pnpm (npm_execpath) to test `pnpm start`")
      return context.skip()
    }
    const child = spawn(process.execPath, [pnpm, "start"], {
      cwd: REPO_ROOT,
      env: childEnv({ RIDEQUOTE_DATABASE: dir.file("start.db"), RIDEQUOTE_PORT: "0" }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    const served = await whenListening(child)
    expect((await fetch(`${served.url}/health/ready`)).status).toBe(200)
    child.kill("SIGTERM")
    expect(await served.exited).toEqual({ code: 0, signal: null })
    expect(served.stdoutLines.join("\n")).toContain("HTTP server drained")
    // The server itself is gone too, not orphaned: its port refuses connections.
    await expect(fetch(`${served.url}/health/live`)).rejects.toThrow()
  })

  it("a `--` that a package script passes on (pnpm start -- --port N) is dropped before the options", async () => {
    const r = await compiled(["serve", "--", "--port", "eighty"])
    // Reached serve's own option parsing: the port is refused, not the `--`.
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/port/i)
    expect(r.stderr).not.toMatch(/unknown argument '--port'/)
    const help = await compiled(["serve", "--", "--help"])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: ridequote serve /)
  })

  it("pnpm start in a terminal: Ctrl-C (the terminal's SIGINT and the one pnpm forwards) drains, exits 0, leaves no WAL", async (context) => {
    const pnpm = process.env["npm_execpath"]
    const hasScript = spawnSync("script", ["--version"]).status === 0
    if (pnpm === undefined || !/pnpm/.test(pnpm) || !hasScript) {
      console.warn("SKIPPED: needs pnpm (npm_execpath, as under `pnpm test`) and script(1) for a pseudo-terminal")
      return context.skip()
    }
    const database = dir.file("ctrl-c.db")
    // script(1) runs `pnpm start` on a new pseudo-terminal; a ^C written to its input is typed
    // there, and the terminal sends SIGINT to the whole foreground group (pnpm and the server).
    const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(pnpm)} start --port 0`
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: REPO_ROOT,
      env: childEnv({ RIDEQUOTE_DATABASE: database }),
      stdio: ["pipe", "pipe", "pipe"]
    })
    const served = await whenListening(child)
    // Serving (as when an operator presses Ctrl-C), then ^C typed on the terminal.
    expect((await fetch(`${served.url}/health/ready`)).status).toBe(200)
    child.stdin?.write("\u0003")
    const exit = await served.exited
    expect(exit, `${served.stdoutLines.join("\n")}\n${served.stderr()}`).toEqual({ code: 0, signal: null })
    const messages = served.stdoutLines.map((line) => line.trim())
    expect(messages.some((line) => line.includes('"message":"HTTP server drained"'))).toBe(true)
    expect(messages.some((line) => line.includes("forced exit"))).toBe(false)
    expect(messages.join("\n")).not.toContain("ELIFECYCLE")
    expect(existsSync(`${database}-wal`)).toBe(false)
  })
})
