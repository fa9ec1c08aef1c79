/**
 * ARCHITECTURE: core depends on `effect` only, plus node:crypto for hashing, HMAC and random
 * bytes. This test reads every source file of core and fails on any other import.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const SRC = join(import.meta.dirname, "..", "src")

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : []
  })

const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)]
    .map((m) => m[1] ?? m[2] ?? "")

describe("core's dependency boundary", () => {
  it("imports nothing but effect, node:crypto and its own modules", () => {
    const offenders: Array<string> = []
    for (const file of sourceFiles(SRC)) {
      for (const spec of importsOf(file)) {
        const ok = spec.startsWith(".") || spec === "effect" || spec.startsWith("effect/") || spec === "node:crypto"
        if (!ok) offenders.push(`${file.slice(SRC.length + 1)} imports ${spec}`)
      }
    }
    expect(offenders).toEqual([])
  })
  it("never reads the wall clock or Math.random directly", () => {
    const offenders = sourceFiles(SRC).filter((f) => /Date\.now\(|new Date\(\)|Math\.random\(/.test(readFileSync(f, "utf8")))
    expect(offenders.map((f) => f.slice(SRC.length + 1))).toEqual([])
  })
})
