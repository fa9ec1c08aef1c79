/**
 * Every exported symbol of the checked entries has a doc comment (tools/exported-docs.ts):
 * what an editor shows on hover and a generated reference prints. Add an entry here once its
 * package is documented throughout.
 */
import { describe, expect, it } from "vitest"
import { exportedSymbols } from "../exported-docs.js"

const CHECKED = [
  "packages/core/src/index.ts",
  "packages/engine/src/index.ts",
  "packages/engine/src/Compose.ts"
]

describe("doc comments", () => {
  it("on every exported symbol of core's and the engine's public entries", () => {
    const symbols = exportedSymbols(CHECKED)
    for (const entry of CHECKED) {
      const all = symbols.get(entry) ?? []
      expect(all.length, `${entry} exports nothing?`).toBeGreaterThan(0)
      expect(all.filter((s) => !s.documented).map((s) => `${s.name} (${s.at})`), entry).toEqual([])
    }
  })
})
