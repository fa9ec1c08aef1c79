/**
 * The `@example` blocks of the libraries' doc comments, type-checked as a consumer would write
 * them: each fenced TypeScript block becomes a module placed inside the package that documents
 * it (so `@ridequote/...` imports resolve as they do for that package), compiled with the
 * workspace's strict settings. An example that no longer compiles fails
 * tools/test/api-docs.test.ts, and the generated reference (pnpm docs:api) shows only examples
 * that compile.
 */
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { ROOT, sharedHost, workspaceOptions } from "./program.js"
import { entriesOf, LIBRARIES } from "./undocumented.js"

export interface DocExample {
  readonly symbol: string
  readonly pkg: string
  readonly code: string
}

const FENCE = /```(?:ts|typescript)\n([\s\S]*?)```/g

const tagText = (tag: ts.JSDocTag): string =>
  typeof tag.comment === "string" ? tag.comment : (tag.comment ?? []).map((part) => part.text).join("")

/** Every fenced TypeScript block under an `@example` tag of an exported symbol of `packages`. */
export const docExamples = (packages: ReadonlyArray<string>): ReadonlyArray<DocExample> => {
  const found: Array<DocExample> = []
  // One program over every package's entries (a program per package parsed and bound the
  // shared declarations again each time); each package still reports its own exports.
  const entryFiles = packages.map((pkg) => entriesOf(pkg).map((e) => e.file))
  const options = compilerOptions()
  const program = ts.createProgram(entryFiles.flat(), options, sharedHost(options))
  const checker = program.getTypeChecker()
  for (const [index, pkg] of packages.entries()) {
    const files = entryFiles[index] ?? []
    const seen = new Set<ts.Symbol>()
    for (const file of files) {
      const source = program.getSourceFile(file)
      const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
      if (moduleSymbol === undefined) continue
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
        if (seen.has(symbol)) continue
        seen.add(symbol)
        for (const declaration of symbol.getDeclarations() ?? []) {
          const holder = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration
          for (const tag of ts.getJSDocTags(holder)) {
            if (tag.tagName.text !== "example") continue
            for (const match of tagText(tag).matchAll(FENCE)) {
              found.push({ symbol: exported.getName(), pkg, code: match[1] ?? "" })
            }
          }
        }
      }
    }
  }
  return found
}

// Examples are snippets a reader copies: unused names in them are fine.
const compilerOptions = (): ts.CompilerOptions => ({ ...workspaceOptions(), noUnusedLocals: false, noUnusedParameters: false })

/** Compiles every example; returns one line per error ("symbol (package): message"). */
export const compileExamples = (examples: ReadonlyArray<DocExample>): ReadonlyArray<string> => {
  const virtual = new Map<string, DocExample>()
  examples.forEach((example, i) => {
    virtual.set(join(ROOT, "packages", example.pkg, "src", `__doc_example_${i}__.ts`), example)
  })
  const options = compilerOptions()
  const host = sharedHost(options, new Map([...virtual].map(([path, example]) => [path, example.code])))
  const program = ts.createProgram([...virtual.keys()], options, host)
  // Only the examples are checked: an error elsewhere is not an example's, and checking the
  // whole workspace besides (what the program-wide diagnostics did) took most of the time.
  const diagnostics = [...virtual.keys()].flatMap((path) => {
    const source = program.getSourceFile(path)
    return source === undefined ? [] : ts.getPreEmitDiagnostics(program, source)
  })
  return diagnostics.flatMap((diagnostic) => {
    const source = diagnostic.file
    const file = source === undefined ? undefined : virtual.get(resolve(source.fileName))
    if (source === undefined || file === undefined) return []
    const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
    return [`${file.symbol} (${file.pkg}), example line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`]
  })
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const packages = process.argv.slice(2)
  const examples = docExamples(packages.length > 0 ? packages : LIBRARIES)
  const errors = compileExamples(examples)
  for (const error of errors) console.log(error)
  console.log(`${examples.length} examples, ${errors.length} errors`)
}
