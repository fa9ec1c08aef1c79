/**
 * Every dependency (or peer) a workspace manifest declares is imported by that package, or the manifest
 * says why not: its `"//not-imported"` object names it with the reason (a peer another
 * dependency needs, a native module the compiled program loads at run time). A dependency
 * nothing uses is then caught when its last import goes.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const SKIP = new Set(["node_modules", "dist", "scratch", ".scratch"])

const manifests = ["packages", "examples"].flatMap((group) =>
  readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name)).filter((dir) => {
    try {
      return statSync(join(dir, "package.json")).isFile()
    } catch {
      return false
    }
  })
)

const codeFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return []
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return codeFiles(path)
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) ? [path] : []
  })

/** Module names a file imports: `from "x"`, `import("x")`, `require("x")`, `import "x"`. */
const importedNames = (text: string): Set<string> => {
  const names = new Set<string>()
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*|resolve\s*\(\s*|import\s+)["']([^"'.][^"']*)["']/g)) {
    const spec = m[1] ?? ""
    const parts = spec.split("/")
    names.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0] ?? spec)
  }
  return names
}

interface Manifest {
  readonly name: string
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly private?: boolean
  readonly "//not-imported"?: Record<string, string>
}

const isEffect = (name: string) => name === "effect" || name.startsWith("@effect/")

/**
 * Published as one bundle carrying its own Effect (tools/packaging/bundle-facade.mjs): the
 * facade, whose callers never see Effect, installs beside any Effect or none.
 */
const BUNDLED = new Set(["@ridequote/engine"])

describe("workspace manifests", () => {
  for (const dir of manifests) {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest
    it(`${manifest.name}: every dependency is imported, or noted with why`, () => {
      const used = new Set<string>()
      for (const file of codeFiles(dir)) for (const name of importedNames(readFileSync(file, "utf8"))) used.add(name)
      const notes = manifest["//not-imported"] ?? {}
      const declared = [
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.devDependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {})
      ]
      const typesOf = (name: string) => name.startsWith("@types/") ? name.slice("@types/".length) : undefined
      const unexplained = declared.filter((name) => {
        const typed = typesOf(name)
        if (typed !== undefined) return !used.has(typed)
        return !used.has(name) && notes[name] === undefined
      })
      expect(unexplained).toEqual([])
      // A note for a dependency that is not declared (or is imported after all) is stale.
      expect(Object.keys(notes).filter((name) => !declared.includes(name) || used.has(name))).toEqual([])
    })

    if (manifest.private !== true && BUNDLED.has(manifest.name)) {
      it(`${manifest.name}: carries its own Effect: no dependency, no Effect peer, only optional peers`, () => {
        expect(manifest.dependencies ?? {}).toEqual({})
        expect(Object.keys(manifest.peerDependencies ?? {}).filter(isEffect)).toEqual([])
        const optional = (manifest as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }).peerDependenciesMeta ?? {}
        expect(Object.keys(manifest.peerDependencies ?? {}).filter((name) => optional[name]?.optional !== true)).toEqual([])
      })
    }

    if (manifest.private !== true && !BUNDLED.has(manifest.name)) {
      it(`${manifest.name}: Effect is a peer with a caret range, pinned only for the workspace`, () => {
        // One Effect instance in a consumer's process: the consumer's copy, never one of ours.
        expect(Object.keys(manifest.dependencies ?? {}).filter(isEffect)).toEqual([])
        const peers = Object.entries(manifest.peerDependencies ?? {}).filter(([name]) => isEffect(name))
        expect(peers.map(([name]) => name)).toContain("effect")
        expect(peers.filter(([, range]) => !range.startsWith("^"))).toEqual([])
        expect(manifest.peerDependencies?.["effect"]).toMatch(/^\^3\./)
        for (const [name] of peers) expect(manifest.devDependencies?.[name], `${name} pinned for the workspace`).toMatch(/^\d/)
      })
    }
  }
})
