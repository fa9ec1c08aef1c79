/**
 * The set of library packages is derived in one place (tools/packaging/libraries.mjs); the
 * lists a tool's configuration must spell out name the same set, so a new package cannot be
 * built but left out of the API reference, the release group or the build's references.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { LIBRARIES } from "../packaging/libraries.mjs"

const ROOT = join(import.meta.dirname, "..", "..")
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as Record<string, unknown>
const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()

describe("the library packages", () => {
  it("are every non-private package, the program excluded", () => {
    expect(LIBRARIES).toContain("core")
    expect(LIBRARIES).toContain("engine")
    expect(LIBRARIES).not.toContain("server")
  })

  it("are the build's references, typedoc's entry points and the changeset's fixed group", () => {
    const references = (json("packages/tsconfig.build.json")["references"] as Array<{ path: string }>)
      .map((r) => r.path.replace(/^\.\/([^/]+)\/tsconfig\.build\.json$/, "$1"))
    expect(sorted(references)).toEqual(sorted(LIBRARIES))
    const entryPoints = (json("typedoc.json")["entryPoints"] as Array<string>).map((p) => p.replace(/^packages\//, ""))
    expect(sorted(entryPoints)).toEqual(sorted(LIBRARIES))
    const fixed = (json(".changeset/config.json")["fixed"] as Array<Array<string>>)[0] ?? []
    expect(sorted(fixed)).toEqual(sorted(LIBRARIES.map((l) => `@ridequote/${l}`)))
  })
})
