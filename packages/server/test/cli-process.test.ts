/**
 * The `ridequote` program as an operator's shell sees it: exit codes, and stdout holding only
 * the answer. (The commands' behaviour is covered in-process by cli.test.ts.)
 */
import { afterAll, describe, expect, it } from "vitest"
import { field } from "./support/Api.js"
import { runCliProcess, stopAll, tempDir, PROCESS_TEST_TIMEOUT_MS } from "./support/Processes.js"

const dir = tempDir("cli-process")
afterAll(async () => {
  await stopAll()
  dir.remove()
})

describe("ridequote as a process", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("accounts create --json: exit 0 and stdout is exactly one JSON object, logs go to stderr", async () => {
    const database = dir.file("p.db")
    const r = await runCliProcess(["accounts", "create", "--name", "Shell", "--json"], {
      RIDEQUOTE_DATABASE: database,
      // Debug logging on: whatever is logged must still stay off stdout.
      RIDEQUOTE_LOG_LEVEL: "debug"
    })
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split("\n").filter((l) => l !== "")
    expect(lines).toHaveLength(1)
    const body: unknown = JSON.parse(lines[0] ?? "")
    expect(Object.keys(body as object)).toEqual(expect.arrayContaining(["id", "apiKey", "apiSecret"]))
    expect(r.stderr).not.toContain(String(field(body, "apiSecret")))

    // list --json: one object too, and no secret.
    const list = await runCliProcess(["accounts", "list", "--json"], { RIDEQUOTE_DATABASE: database })
    expect(list.code).toBe(0)
    expect(list.stdout.trim().split("\n")).toHaveLength(1)
    expect(list.stdout).toContain(String(field(body, "id")))
    expect(list.stdout).not.toContain(String(field(body, "apiSecret")))
  })

  it("an unknown account exits non-zero with the message on stderr and nothing on stdout", async () => {
    const r = await runCliProcess(["accounts", "show", "6f1c2c3e-9a44-4f7e-8a59-0b8e2f3c1d2a"], {
      RIDEQUOTE_DATABASE: dir.file("p2.db")
    })
    expect(r.code).not.toBe(0)
    expect(r.stdout).toBe("")
    expect(r.stderr).toMatch(/^ridequote: .*(not found|no account)/im)
    // Printed once, not once by us and once more by the runtime.
    expect(r.stderr.match(/not found|no account/gi)?.length).toBe(1)
  })

  it("a bad status exits non-zero with a usage message on stderr", async () => {
    const r = await runCliProcess(["accounts", "set-status", "6f1c2c3e-9a44-4f7e-8a59-0b8e2f3c1d2a", "Frozen"], {
      RIDEQUOTE_DATABASE: dir.file("p3.db")
    })
    expect(r.code).not.toBe(0)
    expect(r.stdout).toBe("")
    expect(r.stderr).toMatch(/Active/)
  })
})
