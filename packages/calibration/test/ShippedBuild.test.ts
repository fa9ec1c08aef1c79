/**
 * The shipped models are derived data, reproducible from a clone alone: `pnpm markets:build`
 * fits them from the trip records kept (compressed) in fares/, byte for byte. (Its own file so
 * that the test runner can run it beside the evaluation in Shipped.test.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { commandsOf, PACKAGE, run } from "./shippedScripts.js"

describe("shipped market models", () => {
  it("the markets package's models/*.json are byte for byte what `pnpm markets:build` fits from the records in fares/", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ridequote-markets-"))
    try {
      for (const args of commandsOf("markets:build")) {
        const out = args.indexOf("--out")
        const target = args[out + 1] ?? ""
        const copy = [...args]
        copy[out + 1] = join(dir, target.replace(/^\.\.\/markets\/models\//, ""))
        await run([...copy, "--quiet"])
        expect(readFileSync(copy[out + 1] ?? "", "utf8"), target).toBe(readFileSync(join(PACKAGE, target), "utf8"))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 400_000)
})
