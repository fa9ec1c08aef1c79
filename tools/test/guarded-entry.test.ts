/**
 * The Effect-native engine package's (@ridequote/compose) published entry checks effect's version before Effect's modules are
 * linked (tools/packaging/guarded-entry.mjs); the consumer matrix runs it on Effect 4. Here:
 * the names it re-exports are exactly tsc's, and what it cannot enumerate is refused.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
// @ts-expect-error: a plain .mjs build script without types
import { guardedEntry, reexportedNames } from "../packaging/guarded-entry.mjs"

const COMPOSE_INDEX = join(import.meta.dirname, "..", "..", "packages", "compose", "src", "index.ts")

describe("the guarded entry", () => {
  it("re-exports every value @ridequote/compose's index exports, and no type", () => {
    const compiled = ts.transpileModule(readFileSync(COMPOSE_INDEX, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false }
    }).outputText
    const names: Array<string> = reexportedNames(compiled)
    expect(names).toContain("composeEngine")
    expect(names).toContain("MemoryEngineLive")
    expect(names).toContain("StorageAdapterMissing")
    expect(names).not.toContain("RidequoteEngine") // a type
    expect(new Set(names).size).toBe(names.length)
  })

  it("reads renamed exports under their public name, and checks effect before it loads the package", () => {
    expect(reexportedNames('export { a, b as c } from "./x.js";\nexport { d } from "./y.js";\n')).toEqual(["a", "c", "d"])
    const text: string = guardedEntry(["a", "c"])
    expect(text.indexOf('import "@ridequote/core/effect-version"')).toBeLessThan(text.indexOf('await import("./entry.js")'))
    expect(text).toContain("export const { a, c } = entry")
  })

  it("refuses an entry it cannot enumerate", () => {
    expect(() => reexportedNames('export * from "./x.js";\n')).toThrow(/export \*/)
    expect(() => reexportedNames('export const x = 1;\n')).toThrow(/only re-export/)
  })
})
