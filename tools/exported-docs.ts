/**
 * Which exported symbols of a package entry have no doc comment. Follows `export *` and
 * re-exports to each symbol's declaration, as a reader of the package sees it (an editor's
 * hover, a generated reference), and counts a symbol as documented when every one of its
 * declarations carries a `/** … *\/` comment (a service's interface and its tag alike).
 *
 * `npx tsx tools/exported-docs.ts packages/core/src/index.ts …` prints the undocumented
 * ones; tools/test/exported-docs.test.ts keeps the checked entries at zero.
 */
import ts from "typescript"
import { fileURLToPath } from "node:url"
import { resolve } from "node:path"

const ROOT = fileURLToPath(new URL("..", import.meta.url))

export interface ExportedSymbol {
  readonly name: string
  /** Where it is declared, relative to the repository root, with the line. */
  readonly at: string
}

const documented = (declaration: ts.Declaration): boolean => {
  // A `const` is documented on its statement; other declarations carry their own JSDoc.
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration
  return ts.getJSDocCommentsAndTags(node).length > 0 ||
    (ts.isVariableDeclaration(declaration) && ts.getJSDocCommentsAndTags(declaration).length > 0)
}

/**
 * `export type X = typeof X.Type` beside a schema `X`: the schema's own type, documented by the
 * schema's comment (the pattern of every domain schema in core).
 */
const isSchemaType = (declaration: ts.Declaration, name: string): boolean =>
  ts.isTypeAliasDeclaration(declaration) &&
  new RegExp(`^typeof\\s+${name}\\.(Type|Encoded)$`).test(declaration.type.getText())

/** Every exported symbol of each entry (absolute or repository-relative paths), with whether it is documented. */
export const exportedSymbols = (
  entries: ReadonlyArray<string>
): ReadonlyMap<string, ReadonlyArray<ExportedSymbol & { readonly documented: boolean }>> => {
  const files = entries.map((e) => resolve(ROOT, e))
  const config = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => undefined
  })
  const program = ts.createProgram(files, { ...(config?.options ?? {}), noEmit: true })
  const checker = program.getTypeChecker()
  const result = new Map<string, Array<ExportedSymbol & { readonly documented: boolean }>>()
  for (const file of files) {
    const source = program.getSourceFile(file)
    if (source === undefined) throw new Error(`not in the program: ${file}`)
    const moduleSymbol = checker.getSymbolAtLocation(source)
    const symbols = moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol)
    result.set(
      file.slice(ROOT.length),
      symbols.map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
        const declarations = target.declarations ?? []
        const first = declarations[0]
        const at = first === undefined
          ? "?"
          : `${first.getSourceFile().fileName.slice(ROOT.length)}:${first.getSourceFile().getLineAndCharacterOfPosition(first.getStart()).line + 1}`
        // A name that is both a type and a value (a service's interface and its tag) is
        // documented when each of them is: a reader hovers over either.
        const own = declarations.filter((d) => !isSchemaType(d, target.name))
        return { name: symbol.name, at, documented: own.length > 0 && own.every(documented) }
      }).sort((a, b) => a.at.localeCompare(b.at, "en", { numeric: true }))
    )
  }
  return result
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [entry, symbols] of exportedSymbols(process.argv.slice(2))) {
    const missing = symbols.filter((s) => !s.documented)
    console.log(`${entry}: ${symbols.length - missing.length} of ${symbols.length} documented`)
    for (const s of missing) console.log(`  ${s.name.padEnd(40)} ${s.at}`)
  }
}
