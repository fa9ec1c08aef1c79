/**
 * The command entry does not pull in the fitting tools: following every static import from
 * src/cli.ts (what the `ridequote` program mounts, `serve` included) reaches the commands'
 * options and nothing else of this package. The commands load the fitter, the readers, the
 * evaluation and the backtest with a dynamic `import()` when they run.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const SRC = join(import.meta.dirname, "..", "src")

/** Relative modules a file imports statically (`import … from`, `export … from`; not `import()`). */
const staticImports = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)\s[^"'`;]*?from\s*["'](\.[^"']+)["']/g)]
    .map((m) => resolve(dirname(file), (m[1] ?? "").replace(/\.js$/, ".ts")))

const reachable = (entry: string): Set<string> => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return
    seen.add(file)
    for (const next of staticImports(file)) visit(next)
  }
  visit(join(SRC, entry))
  return seen
}

describe("entry points", () => {
  it("the command entry (@ridequote/calibration/cli) loads the commands' options only", () => {
    const files = [...reachable("cli.ts")].map((f) => relative(SRC, f)).sort()
    expect(files).toEqual(["cli.ts", "internal/Commands.ts", "internal/sources/Formats.ts"])
    expect(readFileSync(join(SRC, "internal/Commands.ts"), "utf8")).toContain('import("./CommandHandlers.js")')
  })
})
