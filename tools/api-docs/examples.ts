/**
 * The `@example` blocks of the libraries' doc comments, type-checked as a consumer would write
 * them: each fenced TypeScript block becomes a module placed inside the package that documents
 * it (so `@ridequote/...` imports resolve as they do for that package), compiled with the
 * workspace's strict settings. An example that no longer compiles fails
 * tools/test/api-docs.test.ts, and the generated reference (pnpm docs:api) shows only examples
 * that compile.
 */
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { entriesOf, LIBRARIES } from "./undocumented.js"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")

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
  for (const pkg of packages) {
    const files = entriesOf(pkg).map((e) => e.file)
    const program = ts.createProgram(files, { ...compilerOptions(), noEmit: true })
    const checker = program.getTypeChecker()
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

const compilerOptions = (): ts.CompilerOptions => {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => undefined
  })
  if (config === undefined) throw new Error("cannot read tsconfig.json")
  // Examples are snippets a reader copies: unused names in them are fine.
  return { ...config.options, noUnusedLocals: false, noUnusedParameters: false }
}

/** Compiles every example; returns one line per error ("symbol (package): message"). */
export const compileExamples = (examples: ReadonlyArray<DocExample>): ReadonlyArray<string> => {
  const virtual = new Map<string, DocExample>()
  examples.forEach((example, i) => {
    virtual.set(join(ROOT, "packages", example.pkg, "src", `__doc_example_${i}__.ts`), example)
  })
  const options = compilerOptions()
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const example = virtual.get(resolve(fileName))
    return example !== undefined
      ? ts.createSourceFile(fileName, example.code, languageVersion, true)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate)
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => virtual.has(resolve(fileName)) || fileExists(fileName)
  const readFile = host.readFile.bind(host)
  host.readFile = (fileName) => virtual.get(resolve(fileName))?.code ?? readFile(fileName)
  const program = ts.createProgram([...virtual.keys()], { ...options, noEmit: true }, host)
  return ts.getPreEmitDiagnostics(program).flatMap((diagnostic) => {
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
