/**
 * The Node-line check of bin/ridequote.js: the supported lines are the root package.json's
 * `engines`, and on another line the program stops at once with one line naming them.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
// @ts-expect-error plain JavaScript module of the bin folder, without type declarations
import { ENGINES, unsupported } from "../bin/node-line.js"
import { COMPILED_BIN, REPO_ROOT } from "./support/Processes.js"

const check = unsupported as (version: string) => string | undefined

describe("supported Node lines", () => {
  it("engines in package.json is the range the program checks", () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } }
    expect(root.engines.node).toBe(ENGINES)
  })

  it("20.19+, 22.12+, every 24 and 26 pass; the rest are refused by name", () => {
    for (const ok of ["20.19.0", "20.20.2", "22.12.0", "22.23.3", "24.0.0", "24.18.1", "24.21.0", "26.0.0", "26.10.0"]) {
      expect(check(ok), ok).toBeUndefined()
    }
    for (const refused of ["18.20.4", "20.18.3", "21.7.3", "22.11.0", "23.11.0", "25.9.0", "27.0.0"]) {
      expect(check(refused)).toBe(`ridequote: Node ${refused} is not supported; use Node 20.19+, 22.12+, 24 or 26.`)
    }
  })

  it("on an unsupported line the program prints that one line and exits 1, before loading anything", () => {
    // The process reports itself as Node 25.1.0 (set before the program's first line runs).
    const r = spawnSync(
      process.execPath,
      ["--import", "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'25.1.0'})", COMPILED_BIN, "--version"],
      { encoding: "utf8", env: { ...process.env, RIDEQUOTE_SKIP_BUILD_CHECK: "1" } }
    )
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toBe("ridequote: Node 25.1.0 is not supported; use Node 20.19+, 22.12+, 24 or 26.\n")
  })
})
