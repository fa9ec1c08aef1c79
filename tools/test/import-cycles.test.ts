/**
 * No import circles anywhere in the packages: every module of packages/*\/src (and testing/)
 * is followed through its relative imports — static, type-only and dynamic `import()` alike,
 * since a circle of types is still two modules that cannot be read apart — and through
 * imports of another workspace package's entry. A circle is reported as the chain of files.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const PACKAGES = join(ROOT, "packages")

const walk = (dir: string): Array<string> =>
  !existsSync(dir) ? [] : readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [])

/** Each workspace package's entry modules, by the specifier a source imports them with. */
const entries = new Map<string, string>()
for (const dir of readdirSync(PACKAGES)) {
  const manifest = join(PACKAGES, dir, "package.json")
  if (!existsSync(manifest)) continue
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; exports?: Record<string, unknown> }
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target === "string" && target.endsWith(".ts")) entries.set(join(pkg.name, sub), resolve(PACKAGES, dir, target))
  }
}

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm

/** A module's text without its comments (their examples show imports a module does not make). */
const code = (file: string): string =>
  readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")

/** The workspace modules a file imports, however it imports them. */
export const importsOf = (file: string): Array<string> =>
  [...code(file).matchAll(SPECIFIERS)].flatMap((m) => {
    const spec = m[1] ?? ""
    if (spec.startsWith(".")) {
      const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"))
      return existsSync(target) ? [target] : []
    }
    const entry = entries.get(spec)
    return entry === undefined ? [] : [entry]
  })

/** The circles of a graph: Tarjan's strongly connected components with more than one module (or a self-import). */
export const circles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const connect = (v: string) => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string | undefined
      do {
        w = stack.pop()
        if (w === undefined) break
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) connect(v)
  return found
}

describe("import circles", () => {
  it("finds a circle when there is one (two modules, and one through a third)", () => {
    expect(circles(new Map([["a", ["b"]], ["b", ["a"]], ["c", []]]))).toEqual([["a", "b"]])
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]]))).toEqual([["a", "b", "c"]])
    expect(circles(new Map([["a", ["b"]], ["b", []]]))).toEqual([])
  })

  it("there are none in packages/*/src and testing/", () => {
    const files = readdirSync(PACKAGES).flatMap((dir) => [...walk(join(PACKAGES, dir, "src")), ...walk(join(PACKAGES, dir, "testing"))])
    expect(files.length).toBeGreaterThan(100)
    const graph = new Map(files.map((f) => [f, importsOf(f)]))
    expect(circles(graph).map((c) => c.map((f) => relative(ROOT, f)))).toEqual([])
  })
})
