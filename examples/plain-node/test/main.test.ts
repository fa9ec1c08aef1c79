/**
 * The plain-Node example runs as a service would run it (its own process) and does what it
 * says: account, token, quote, a refusal with the contract's code, the audit. And it is plain
 * JavaScript that never imports effect.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"

const MAIN = join(import.meta.dirname, "..", "src", "main.mjs")

describe("example: plain Node", () => {
  it("imports nothing but @ridequote/engine", () => {
    const specifiers = [...readFileSync(MAIN, "utf8").matchAll(/^\s*import\s[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1])
    expect(specifiers).toEqual(["@ridequote/engine"])
  })

  it("creates an account, issues a token, quotes, is refused with a contract code, and reads both back from the audit", async () => {
    // `--import tsx` only because the workspace packages export TypeScript sources; main.mjs itself is plain JS.
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", MAIN], {
      cwd: join(import.meta.dirname, ".."),
      timeout: 60_000
    })
    const steps = stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(steps.map((s) => s["step"])).toEqual(["account", "token", "quote", "refused", "audit"])
    const [account, token, quote, refused, audit] = steps
    expect(account).toMatchObject({ status: "Active" })
    expect(token?.["expiresAt"]).toMatch(/\.000Z$/)
    expect(quote).toMatchObject({ mode: "Realtime", currency: "USD" })
    expect(quote?.["standard"]).toMatchObject([{ label: "saver" }, { label: "balanced" }, { label: "priority" }])
    expect(refused).toMatchObject({ code: "result:invalid-request", details: [{ path: ["pickup", "latitude"] }] })
    // Newest first; both may share a millisecond (then the ids decide), so compared as a set.
    expect(audit?.["entries"]).toHaveLength(2)
    expect(audit?.["entries"]).toEqual(expect.arrayContaining([
      { requestId: refused?.["requestId"], outcome: "rejected" },
      { requestId: quote?.["requestId"], outcome: "quoted" }
    ]))
  })
})
