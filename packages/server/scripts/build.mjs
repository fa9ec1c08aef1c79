/**
 * Compiles the `ridequote` program to JavaScript: one esbuild bundle of src/bin.ts and every
 * workspace package it imports (core, http, storage-*, markets, routes), written to dist/.
 * Production then runs plain `node packages/server/dist/bin.js`: no TypeScript loader.
 *
 *   node packages/server/scripts/build.mjs        (what `pnpm build` and `prepare` run)
 *
 * - ESM with code splitting, so the commands that do not need the HTTP stack or the fitting
 *   tools never load them (they are `import()`ed where they are used).
 * - Native modules stay external and are loaded from node_modules at run time
 *   (libsql; pg-native and ws's optional helpers are never installed here).
 * - `import.meta.url` in a workspace source is rewritten to that source file's own URL,
 *   computed relative to the bundle: @ridequote/markets finds its shipped models next to its
 *   sources ("from the installed package, not the working directory") wherever the checkout
 *   lives, exactly as when the sources run under tsx.
 * - dist/build-info.json lists the workspace sources that went in; bin/ridequote.js
 *   rebuilds before running when one of them is newer than the build (see isBuildStale).
 *
 * The build goes to a fresh folder that then replaces dist/ in two renames, so a program
 * starting during a rebuild sees the old build or the new one, not half of each.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..")
export const DIST_DIR = join(PACKAGE_DIR, "dist")
export const ENTRY = join(PACKAGE_DIR, "src", "bin.ts")
export const BUILD_INFO = join(DIST_DIR, "build-info.json")
const REPO_ROOT = resolve(PACKAGE_DIR, "..", "..")
const THIS_FILE = fileURLToPath(import.meta.url)

/** Loaded from node_modules at run time, never bundled. */
export const EXTERNAL = [
  "libsql", // SQLite driver: loads its prebuilt Node-API binary (@libsql/<platform>) at run time
  "pg-native", // pg's optional native client: not installed, pg falls back to JS
  "bufferutil", // ws's optional native helpers: not installed, ws falls back to JS
  "utf-8-validate",
  "@parcel/watcher", // platform-node-shared's file watcher (native; never used by ridequote)
  "msgpackr-extract" // msgpackr's optional native extension
]

const isWorkspaceSource = (path) => !path.split(sep).includes("node_modules") && path.startsWith(REPO_ROOT + sep)

/**
 * `import.meta.url` of a bundled workspace module, as the URL that module has when it runs from
 * its sources: resolved against the bundle's own URL, so a moved checkout still works.
 */
const importMetaUrlPlugin = (outdir) => ({
  name: "source-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!isWorkspaceSource(args.path)) return undefined
      const text = readFileSync(args.path, "utf8")
      if (!text.includes("import.meta.url")) return undefined
      // Every chunk lands in `outdir` (no sub-folders), so one relative path serves them all.
      const fromBundle = relative(outdir, args.path).split(sep).join("/")
      return {
        contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: "ts"
      }
    })
  }
})

/**
 * @effect/platform's index re-exports every module, `HttpApiScalar` among them, whose module
 * holds Scalar's 3.2 MB script. The docs page imports it dynamically, on its first request
 * (packages/http/src/internal/DocsPage.ts), but with code splitting esbuild also puts a module
 * every entry can reach through an import statement into the static chunk, tree-shaken or not:
 * the index's `export * as HttpApiScalar` kept the script in the chunk every `serve` compiles.
 * Nothing of ours reads `HttpApiScalar` through the index, so that one line is dropped from it.
 */
const lazyScalarPlugin = () => ({
  name: "ridequote-lazy-scalar",
  setup(build) {
    build.onLoad({ filter: /[\\/]@effect[\\/]platform[\\/]dist[\\/]esm[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      const line = /^export \* as HttpApiScalar from "\.\/HttpApiScalar\.js";?$/m
      // A platform whose index no longer names HttpApiScalar is bundled as it is; one that names
      // it in another form stops the build, or the script would be back in serve's static chunk
      // with nothing to say so.
      if (!line.test(source) && source.includes("HttpApiScalar")) {
        throw new Error(`${args.path} re-exports HttpApiScalar in a form lazyScalarPlugin does not know: update the plugin`)
      }
      return { contents: source.replace(line, ""), loader: "js" }
    })
  }
})

/** What every bundle of a workspace entry shares: Node 20 ESM, the externals, `import.meta.url` of the sources. */
const bundleOptions = (entry, outdir) => ({
  entryPoints: { bin: entry },
  outdir,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // CommonJS dependencies (pg, …) call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __ridequoteCreateRequire } from \"node:module\"; const require = __ridequoteCreateRequire(import.meta.url);" },
  plugins: [importMetaUrlPlugin(outdir), lazyScalarPlugin()]
})

/**
 * One self-contained bundle of another workspace command-line entry (`entry`, a .ts file) into
 * `outdir`, with the same externals and `import.meta.url` handling as the program: for tests
 * that start such a command as a child process many times (tools/build-before-tests.ts), where
 * tsx would compile the sources again in every process (~3 s of CPU each).
 */
export const bundleCommand = async ({ entry, outdir }) => {
  const esbuild = await import("esbuild")
  rmSync(outdir, { recursive: true, force: true })
  await esbuild.build({ ...bundleOptions(entry, outdir), logLevel: "error" })
  writeFileSync(join(outdir, "package.json"), JSON.stringify({ type: "module" }) + "\n")
  return join(outdir, "bin.js")
}

/** Builds dist/; returns what it built and how long it took. */
export const build = async ({ quiet = false } = {}) => {
  const started = Date.now()
  const esbuild = await import("esbuild")
  const staging = `${DIST_DIR}.${process.pid}.tmp`
  rmSync(staging, { recursive: true, force: true })
  const result = await esbuild.build({
    // Written to `staging`, run from DIST_DIR: import.meta.url is computed for the latter.
    ...bundleOptions(ENTRY, DIST_DIR),
    outdir: staging,
    splitting: true,
    sourcemap: "linked",
    sourcesContent: false,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    metafile: true,
    logLevel: quiet ? "error" : "warning"
  })
  const inputs = Object.keys(result.metafile.inputs)
    .map((input) => resolve(process.cwd(), input))
    .filter(isWorkspaceSource)
    .map((path) => relative(PACKAGE_DIR, path).split(sep).join("/"))
  inputs.push(relative(PACKAGE_DIR, THIS_FILE).split(sep).join("/"))
  // The start time: a source saved while the build ran counts as changed.
  const info = { builtAt: new Date(started).toISOString(), builtAtMs: started, node: process.version, inputs: inputs.sort() }
  writeFileSync(join(staging, "build-info.json"), JSON.stringify(info, null, 2) + "\n")
  writeFileSync(join(staging, "package.json"), JSON.stringify({ type: "module" }) + "\n")
  const retired = `${DIST_DIR}.${process.pid}.old`
  if (existsSync(DIST_DIR)) renameSync(DIST_DIR, retired)
  renameSync(staging, DIST_DIR)
  rmSync(retired, { recursive: true, force: true })
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0)
  const seconds = (Date.now() - started) / 1000
  if (!quiet) {
    console.error(
      `ridequote: built ${relative(process.cwd(), DIST_DIR) || "."} from ${inputs.length} workspace sources ` +
        `(${(bytes / 2 ** 20).toFixed(1)} MiB of JavaScript) in ${seconds.toFixed(1)} s`
    )
  }
  return { seconds, bytes, inputs: inputs.length }
}

/**
 * Why dist/ must be rebuilt before it runs, or undefined when it is up to date: missing, or a
 * workspace source that went into it changed since. Sources that are gone (a deployment
 * without them) do not count: there is nothing to rebuild from.
 */
export const isBuildStale = () => {
  let info
  try {
    info = JSON.parse(readFileSync(BUILD_INFO, "utf8"))
  } catch {
    return "no build yet"
  }
  for (const input of info.inputs) {
    let mtimeMs
    try {
      mtimeMs = statSync(join(PACKAGE_DIR, input)).mtimeMs
    } catch {
      continue
    }
    if (mtimeMs > info.builtAtMs) return `${input} changed since the last build`
  }
  return undefined
}

if (process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  await build()
}
