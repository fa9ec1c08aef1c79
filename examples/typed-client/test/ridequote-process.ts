/**
 * A real ridequote for the example's test, started as an operator would: `ridequote accounts
 * create` and `ridequote serve` as child processes of the Node running the test, on one
 * temporary SQLite file, with the server on a free port of 127.0.0.1 (port 0).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

/**
 * The `ridequote` program as installed (bin/ridequote.js, the compiled build, brought up to date
 * before the tests run), found through the workspace's @ridequote/server package. Its sources
 * under tsx took ~3.5 s of CPU per command here, against ~0.5 s.
 */
const SERVER_DIR = dirname(dirname(createRequire(import.meta.url).resolve("@ridequote/server")))
const BIN = join(SERVER_DIR, "bin", "ridequote.js")

/** A cold start on a loaded machine can take seconds. */
const START_TIMEOUT_MS = 90_000

const run = (args: ReadonlyArray<string>, env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, [BIN, ...args], {
    cwd: SERVER_DIR,
    // Settings come only from the test: never from RIDEQUOTE_* variables of the caller's shell.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("RIDEQUOTE_"))),
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })

const collect = (child: ChildProcess) => {
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (c: Buffer) => (stdout += c.toString("utf8")))
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")))
  return { stdout: () => stdout, stderr: () => stderr }
}

export interface Account {
  readonly id: string
  readonly apiKey: string
  readonly apiSecret: string
}

export interface Ridequote {
  readonly url: string
  /** The accounts asked for, in the order of their names. */
  readonly accounts: ReadonlyArray<Account>
  readonly stop: () => Promise<void>
}

/** The address a JSON log line announces as listening, if it is that line. */
const listeningAddress = (line: string): string | undefined => {
  try {
    const parsed = JSON.parse(line) as { annotations?: { event?: unknown; address?: unknown } }
    return parsed.annotations?.event === "listening" && typeof parsed.annotations.address === "string"
      ? parsed.annotations.address
      : undefined
  } catch {
    return undefined
  }
}

/** A server on a fresh database, with one account per name (made with the CLI). */
export const startRidequote = async (accountNames: readonly [string, ...Array<string>]): Promise<Ridequote> => {
  const dir = mkdtempSync(join(tmpdir(), "ridequote-typed-client-"))
  const env = { RIDEQUOTE_DATABASE: join(dir, "ridequote.db") }

  const createAccount = (name: string): Promise<Account> => {
    const child = run(["accounts", "create", "--name", name, "--json"], env)
    const out = collect(child)
    return new Promise((resolve, reject) => {
      child.once("exit", (code) => {
        if (code !== 0) return reject(new Error(`accounts create exited ${code}: ${out.stderr()}`))
        resolve(JSON.parse(out.stdout()) as Account)
      })
    })
  }
  // The first command creates the database; the other accounts are made while the server
  // starts (each CLI run is a cold start).
  const [firstName, ...otherNames] = accountNames
  const first = await createAccount(firstName)
  const others = Promise.all(otherNames.map(createAccount))

  const server = run(["serve", "--host", "127.0.0.1", "--port", "0"], env)
  const out = collect(server)
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not listen in time: ${out.stderr()}`)), START_TIMEOUT_MS)
    let pending = ""
    server.stdout?.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8")
      const lines = pending.split("\n")
      pending = lines.pop() ?? ""
      const address = lines.map(listeningAddress).find((a) => a !== undefined)
      if (address !== undefined) {
        clearTimeout(timer)
        resolve(address)
      }
    })
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`serve exited before listening: ${out.stderr()}`))
    })
  })

  return {
    url,
    accounts: [first, ...(await others)],
    stop: async () => {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill("SIGTERM")
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
