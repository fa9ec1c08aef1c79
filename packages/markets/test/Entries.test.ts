/**
 * Two packages, one way: the runtime (`@ridequote/markets`) never imports the calibration
 * workshop (`@ridequote/calibration`), which depends on it. A service that embeds pricing
 * installs and loads the runtime alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"

const PACKAGE = join(import.meta.dirname, "..")

/** Every .ts file under a folder. */
const walk = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [])

describe("the runtime package", () => {
  it("no source module imports @ridequote/calibration", () => {
    const sources = walk(join(PACKAGE, "src"))
    expect(sources.length).toBeGreaterThan(10)
    const wrongWay = sources.filter((f) => /(from|import\()\s*["']@ridequote\/calibration/.test(readFileSync(f, "utf8"))).map((f) => relative(PACKAGE, f))
    expect(wrongWay).toEqual([])
  })

  it("its package.json depends on no calibration, command-line or record-reading package", () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>
    const named = [pkg["dependencies"], pkg["peerDependencies"]].flatMap((deps) => Object.keys(deps ?? {}))
    expect(named.filter((n) => n === "@ridequote/calibration" || n === "@effect/cli" || n === "@effect/platform-node")).toEqual([])
  })
})
