/**
 * Every symbol a library exports, and whether it carries a doc comment. The published API is
 * what each package's `exports` names; a symbol re-exported from another module counts where
 * it is declared.
 *
 *   tsx tools/api-docs/undocumented.ts [PACKAGE ...]   lists the undocumented ones
 *
 * tools/test/api-docs.test.ts fails while any is left.
 */
import { readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { LIBRARIES } from "../packaging/libraries.mjs"
import { ROOT, sharedHost, workspaceOptions } from "./program.js"

export interface ExportedSymbol {
  readonly entry: string
  readonly name: string
  readonly file: string
  readonly line: number
  readonly documented: boolean
}

/** The entry files a package's exports name (in the workspace they point at TypeScript sources). */
export const entriesOf = (pkg: string): ReadonlyArray<{ readonly specifier: string; readonly file: string }> => {
  const dir = join(ROOT, "packages", pkg)
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    readonly name: string
    readonly exports: Record<string, string>
  }
  return Object.entries(manifest.exports)
    .filter(([, target]) => target.endsWith(".ts"))
    .map(([sub, target]) => ({ specifier: sub === "." ? manifest.name : `${manifest.name}/${sub.slice(2)}`, file: join(dir, target) }))
}

const hasDocComment = (declaration: ts.Declaration): boolean => {
  // The statement that carries the comment: `export const x = …` documents its variable.
  let node: ts.Node = declaration
  if (ts.isVariableDeclaration(node)) node = node.parent.parent
  return ts.getJSDocCommentsAndTags(node).some((doc) => ts.isJSDoc(doc) && (doc.comment !== undefined || (doc.tags?.length ?? 0) > 0))
}

/** Every exported symbol of the given packages, with where it is declared and whether it is documented. */
export const exportedSymbols = (packages: ReadonlyArray<string>): ReadonlyArray<ExportedSymbol> => {
  const entries = packages.flatMap(entriesOf)
  const options = workspaceOptions()
  const program = ts.createProgram(entries.map((e) => e.file), options, sharedHost(options))
  const checker = program.getTypeChecker()
  const found: Array<ExportedSymbol> = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file)
    if (source === undefined) throw new Error(`not in the program: ${entry.file}`)
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (moduleSymbol === undefined) continue
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declarations = symbol.getDeclarations() ?? []
      const first = declarations[0]
      if (first === undefined) continue
      const file = first.getSourceFile()
      found.push({
        entry: entry.specifier,
        name: exported.getName(),
        file: relative(ROOT, file.fileName),
        line: file.getLineAndCharacterOfPosition(first.getStart()).line + 1,
        // A type and a value of one name (schema + type): either declaration's comment serves both.
        documented: declarations.some(hasDocComment)
      })
    }
  }
  return found
}

export { LIBRARIES }

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2)
  const symbols = exportedSymbols(wanted.length > 0 ? wanted : LIBRARIES)
  const missing = symbols.filter((s) => !s.documented)
  const seen = new Set<string>()
  for (const s of missing) {
    const key = `${s.file}:${s.name}`
    if (seen.has(key)) continue
    seen.add(key)
    console.log(`${s.file}:${s.line} ${s.name}  (${s.entry})`)
  }
  console.log(`${symbols.length - missing.length} of ${symbols.length} exported symbols documented`)
}
