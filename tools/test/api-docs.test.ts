/**
 * The API reference's promises: every symbol a library exports has a doc comment, and every
 * `@example` in those comments compiles (tools/api-docs). typedoc renders both into
 * docs/reference (pnpm docs:api); CI checks the committed copy is current.
 */
import { describe, expect, it } from "vitest"
import { compileExamples, docExamples } from "../api-docs/examples.js"
import { exportedSymbols, LIBRARIES } from "../api-docs/undocumented.js"

const libraries = LIBRARIES

describe("the libraries' API documentation", () => {
  it("documents every exported symbol", () => {
    const undocumented = exportedSymbols(libraries)
      .filter((s) => !s.documented)
      .map((s) => `${s.file}:${s.line} ${s.name} (${s.entry})`)
    expect([...new Set(undocumented)]).toEqual([])
  })

  it("every @example compiles against the packages as they are", () => {
    const examples = docExamples(libraries)
    expect(examples.length).toBeGreaterThan(0)
    expect(compileExamples(examples)).toEqual([])
  })

  it("an example that does not compile is reported, with its symbol and line", () => {
    const errors = compileExamples([{ symbol: "Broken", pkg: "core", code: 'import { NoSuchExport } from "@ridequote/core"\n' }])
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^Broken \(core\), example line 1: .*NoSuchExport/)
  })
})
