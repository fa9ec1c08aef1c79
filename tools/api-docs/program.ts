/**
 * TypeScript programs over the workspace for the API-docs checks (./undocumented.ts,
 * ./examples.ts), compiled with the workspace's strict settings (tsconfig.json).
 *
 * One run builds several programs over mostly the same files (every library's entries, the
 * `@example` modules placed in the packages): each parse of effect's declarations and of the
 * lib files took seconds, so the parsed (and bound) source files are kept and shared by every
 * program of the process. Sharing is safe because every program here uses the same
 * parse-affecting options (only the unused-name checks differ, which the checker applies);
 * TypeScript's language service shares source files between programs the same way.
 */
import { join, resolve } from "node:path"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")

let parsedOptions: ts.CompilerOptions | undefined

/** The workspace's compiler options (tsconfig.json), with no output. */
export const workspaceOptions = (): ts.CompilerOptions => {
  if (parsedOptions === undefined) {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined
    })
    if (config === undefined) throw new Error("cannot read tsconfig.json")
    parsedOptions = { ...config.options, noEmit: true }
  }
  return parsedOptions
}

const parsed = new Map<string, ts.SourceFile>()

const languageKey = (version: ts.ScriptTarget | ts.CreateSourceFileOptions): string =>
  typeof version === "object" ? `${version.languageVersion}:${version.impliedNodeFormat ?? ""}` : `${version}`

/**
 * A compiler host whose files on disk are parsed once per process; `virtual` files (path →
 * source text) are read from memory and never kept, since they change from call to call.
 */
export const sharedHost = (options: ts.CompilerOptions, virtual: ReadonlyMap<string, string> = new Map()): ts.CompilerHost => {
  const host = ts.createCompilerHost(options)
  const readFromDisk = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = virtual.get(resolve(fileName))
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true)
    const key = `${resolve(fileName)}|${languageKey(languageVersion)}`
    const known = parsed.get(key)
    if (known !== undefined) return known
    const source = readFromDisk(fileName, languageVersion, onError, shouldCreate)
    if (source !== undefined) parsed.set(key, source)
    return source
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => virtual.has(resolve(fileName)) || fileExists(fileName)
  const readFile = host.readFile.bind(host)
  host.readFile = (fileName) => virtual.get(resolve(fileName)) ?? readFile(fileName)
  return host
}
