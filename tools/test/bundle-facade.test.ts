/**
 * The published facade's declarations (tools/packaging/bundle-facade.mjs): only those
 * `index.d.ts` reaches are kept, and one that imports a package stops the build — an `effect`
 * import there would break a consumer on Effect 4 under `skipLibCheck: false`. The consumer
 * matrix (facade-beside-effect-4) compiles the real ones next to Effect 4.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
// @ts-expect-error: a plain .mjs build script without types
import { pruneDeclarations, URL_USERS } from "../packaging/bundle-facade.mjs"

const ROOT = join(import.meta.dirname, "..", "..")
const dirs: Array<string> = []
const dist = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), "ridequote-bundle-"))
  dirs.push(dir)
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the published facade's declarations", () => {
  it("keep what index.d.ts reaches and drop the rest, with their maps and emptied folders", () => {
    const dir = dist({
      "index.d.ts": 'export { a } from "./A.js";\nexport type * from "./T.js";\n',
      "A.d.ts": 'import type { T } from "./T.js";\nexport declare const a: T;\n',
      "T.d.ts": "export type T = string;\n",
      "Facade.d.ts": 'import type { Runtime } from "effect";\nexport declare const f: Runtime.Runtime<never>;\n',
      "Facade.d.ts.map": "{}",
      "internal/Inputs.d.ts": 'import { Schema } from "effect";\n'
    })
    expect(pruneDeclarations(dir)).toEqual(["A.d.ts", "T.d.ts", "index.d.ts"])
    expect(existsSync(join(dir, "Facade.d.ts"))).toBe(false)
    expect(existsSync(join(dir, "Facade.d.ts.map"))).toBe(false)
    expect(existsSync(join(dir, "internal"))).toBe(false)
  })

  it("stop the build when a reached one imports a package (comments aside)", () => {
    const dir = dist({
      "index.d.ts": '/** import { x } from "@ridequote/engine" */\nexport { a } from "./A.js";\n',
      "A.d.ts": 'import type { Effect } from "effect";\nexport declare const a: Effect.Effect<number>;\n'
    })
    expect(() => pruneDeclarations(dir)).toThrow(/A\.d\.ts imports "effect"/)
  })

  it("know every file a bundled source loads by URL, and those files exist", () => {
    for (const [source, assets] of Object.entries(URL_USERS as Record<string, ReadonlyArray<string>>)) {
      expect(readFileSync(join(ROOT, "packages", source), "utf8")).toContain("import.meta.url")
      for (const asset of assets) expect(existsSync(join(ROOT, "packages", asset))).toBe(true)
    }
  })
})
