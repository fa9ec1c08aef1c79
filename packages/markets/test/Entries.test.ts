/**
 * The runtime entry and the command entry do not pull in the fitting tools: following every
 * static import from src/index.ts (what `serve` loads) and src/cli.ts (what the `ridequote`
 * program mounts) never reaches the fitter, the data sources, the evaluation or the backtest.
 * The commands load those with a dynamic `import()` when they run.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const SRC = join(import.meta.dirname, "..", "src")

/** Relative modules a file imports statically (`import … from`, `export … from`; not `import()`). */
const staticImports = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)\s[^"'`;]*?from\s*["'](\.[^"']+)["']/g)]
    .map((m) => resolve(dirname(file), (m[1] ?? "").replace(/\.js$/, ".ts")))

/** Every .ts file under a folder. */
const walk = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [])

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

const FITTING_TOOLS = /internal\/fitting\/(?!Commands\.ts$|sources\/Formats\.ts$)/

describe("entry points", () => {
  it("the runtime entry (@ridequote/markets) loads no fitting code at all", () => {
    const files = [...reachable("index.ts")].map((f) => relative(SRC, f))
    expect(files.filter((f) => f.includes("fitting"))).toEqual([])
    expect(files).toContain("internal/MarketsLive.ts")
  })

  it("two rooms, one way: no runtime module imports the calibration room (internal/fitting), which may import the runtime", () => {
    const runtime = [...walk(join(SRC, "internal"))].filter((f) => !relative(SRC, f).startsWith("internal/fitting/"))
    expect(runtime.length).toBeGreaterThan(10)
    const wrongWay = runtime.flatMap((f) =>
      staticImports(f).filter((i) => relative(SRC, i).startsWith("internal/fitting/")).map((i) => `${relative(SRC, f)} → ${relative(SRC, i)}`))
    expect(wrongWay).toEqual([])
  })

  it("the command entry (@ridequote/markets/cli) loads the commands' options only", () => {
    const files = [...reachable("cli.ts")].map((f) => relative(SRC, f))
    expect(files.filter((f) => FITTING_TOOLS.test(f))).toEqual([])
    expect(readFileSync(join(SRC, "internal/fitting/Commands.ts"), "utf8")).toContain('import("./CommandHandlers.js")')
  })
})
