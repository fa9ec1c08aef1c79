/**
 * A published entry that checks the installed `effect` before anything of Effect's is loaded.
 *
 * Node links an ES module graph before it runs any of it: an entry that imports `effect`'s
 * modules statically fails on Effect 4 with Node's own `SyntaxError: … does not provide an
 * export named 'Either'` before any check of ours can run. The facade's audience (services that
 * do not use Effect, and may have run `npm i effect` and got 4.x) should instead read one line
 * that names the versions. So the compiled `dist/index.js` of such a package becomes:
 *
 *   import "@ridequote/core/effect-version"          // throws UnsupportedEffectVersion, one line
 *   const entry = await import("./entry.js")          // tsc's index, loaded only after the check
 *   export const { createRidequote, … } = entry       // the same value exports, by name
 *
 * tsc's own index.js is kept as `entry.js` (with its source map); `index.d.ts` is unchanged,
 * so the types are tsc's. The names are read from tsc's `export { … } from "…"` statements; an
 * `export *` cannot be enumerated without loading it and is refused.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const MARKER = "// Guarded entry, written by tools/packaging/guarded-entry.mjs"

/** The value names an ES module re-exports (`export { a, b as c } from "./x.js"`), in order. */
export const reexportedNames = (source) => {
  if (/^export \* from /m.test(source)) throw new Error("guarded entry: `export * from` cannot be enumerated; name the exports")
  const names = []
  for (const match of source.matchAll(/^export \{([^}]*)\} from "[^"]+";?$/gm)) {
    for (const part of (match[1] ?? "").split(",")) {
      const spec = part.trim()
      if (spec === "") continue
      const alias = spec.split(/\s+as\s+/)
      names.push((alias[1] ?? alias[0]).trim())
    }
  }
  if (/^export (const|function|class|let|var|default)\b/m.test(source)) {
    throw new Error("guarded entry: the entry may only re-export (`export { … } from`)")
  }
  return names
}

/** The text of the guarded entry for these names. */
export const guardedEntry = (names) =>
  [
    MARKER,
    "// Checks the installed effect first (one line naming both versions), then loads the package.",
    'import "@ridequote/core/effect-version"',
    'const entry = await import("./entry.js")',
    `export const { ${names.join(", ")} } = entry`,
    ""
  ].join("\n")

/** Rewrites `dist/index.js` of a compiled package into a guarded entry (idempotent). */
export const guardEntry = (distDir) => {
  const index = join(distDir, "index.js")
  const source = readFileSync(index, "utf8")
  if (source.startsWith(MARKER)) return false
  const names = reexportedNames(source)
  const entry = join(distDir, "entry.js")
  writeFileSync(entry, source.replace(/\/\/# sourceMappingURL=index\.js\.map\s*$/, "//# sourceMappingURL=entry.js.map\n"))
  if (existsSync(`${index}.map`)) {
    const map = JSON.parse(readFileSync(`${index}.map`, "utf8"))
    writeFileSync(`${entry}.map`, JSON.stringify({ ...map, file: "entry.js" }))
    rmSync(`${index}.map`)
  }
  writeFileSync(index, guardedEntry(names))
  return true
}
