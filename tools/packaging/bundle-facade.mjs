/**
 * The published `@ridequote/engine`: the Promise facade with the Effect it runs on inside it.
 *
 * The facade's callers never see Effect (its API is Promises and plain types), so the package
 * must not hand npm's resolver an `effect` peer: a project on Effect 4 (or on none) installs it
 * like any library. Its JavaScript is therefore one esbuild bundle of `packages/engine/src`
 * and everything it imports — effect, @effect/platform, @effect/sql*, @ridequote/core, compose,
 * markets, routes, storage-sql, storage-sqlite, storage-postgres — and the package has no
 * dependencies at all:
 *
 * - ESM with code splitting: the SQLite adapter, the PostgreSQL adapter and the in-memory
 *   storage are `import()`ed by compose when chosen, so each is a chunk of its own that an
 *   engine on another storage never loads;
 * - the native or client drivers stay outside (`libsql`, `pg`, and their optional helpers):
 *   optional peers of the package, resolved from the consumer's node_modules when that storage
 *   is chosen, so an engine in memory installs neither;
 * - `import.meta.url` in a workspace source becomes that source's URL inside `dist/`, as if the
 *   packages were laid out under it (`dist/markets/src/internal/Shipped.ts`), and the files such
 *   sources load by URL are copied there: the markets' shipped files (whatever
 *   `packages/markets/models` holds at build time) to `dist/markets/models`, the SQLite
 *   adapter's audit-writer thread to `dist/storage-sqlite/src/`. A new `import.meta.url` user
 *   stops the build until it is listed here.
 *
 * Types: tsc emits the declarations (engine's tsconfig.build.json: declarations only); the ones
 * `index.d.ts` reaches are kept, and the build stops if any of them imports anything but
 * another of them (an `effect` import in a published declaration would break a consumer on
 * Effect 4 under `skipLibCheck: false`). Unreachable declarations (the facade's internals) are
 * removed.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const PACKAGES = join(ROOT, "packages")
export const ENGINE_DIR = join(PACKAGES, "engine")
export const ENGINE_DIST = join(ENGINE_DIR, "dist")

/** Loaded from the consumer's node_modules at run time, never bundled. */
export const EXTERNAL = [
  "libsql", // the SQLite driver (a prebuilt Node-API binary per platform): optional peer
  "pg", // the PostgreSQL client: optional peer
  "pg-native", // pg's optional native client: pg falls back to JS without it
  "msgpackr-extract" // msgpackr's optional native extension (msgpackr falls back to JS)
]

/**
 * The workspace sources that use `import.meta.url`, and what each loads by URL, relative to
 * packages/ (copied to the same place under dist/). A source missing here stops the build.
 */
export const URL_USERS = {
  "markets/src/internal/Shipped.ts": ["markets/models"],
  "storage-sqlite/src/Driver.ts": [], // createRequire: resolves `libsql` from the consumer's node_modules
  "storage-sqlite/src/AuditWriterThread.ts": ["storage-sqlite/src/audit-writer.worker.cjs"]
}

const posix = (path) => path.split(sep).join("/")
const isWorkspaceSource = (path) => !path.split(sep).includes("node_modules") && path.startsWith(PACKAGES + sep)

/** `import.meta.url` of a bundled workspace source: its place under dist/ (see above). */
const sourceUrlPlugin = (seen) => ({
  name: "ridequote-source-url",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!isWorkspaceSource(args.path)) return undefined
      const text = readFileSync(args.path, "utf8")
      if (!text.includes("import.meta.url")) return undefined
      const place = posix(relative(PACKAGES, args.path))
      seen.add(place)
      // Every chunk is written to dist/ itself (no sub-folders), so one relative URL serves them all.
      return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(`./${place}`)}, import.meta.url).href`), loader: "ts" }
    })
  }
})

/** Every file under `dir`, relative to it. */
const filesUnder = (dir, base = dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path, base) : [posix(relative(base, path))]
  })

/** Removes the folders under `dir` that hold no file (the ones pruned declarations leave). */
const removeEmptyFolders = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const path = join(dir, entry.name)
    removeEmptyFolders(path)
    if (readdirSync(path).length === 0) rmSync(path, { recursive: true })
  }
}

/** The relative modules a declaration file imports or re-exports, and the bare ones. */
const declarationImports = (source) => {
  // Comments first: a doc comment's example imports the package by name.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
  const specifiers = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)]
    .map((m) => m[1] ?? m[2])
  return { relative: specifiers.filter((s) => s.startsWith(".")), bare: specifiers.filter((s) => !s.startsWith(".")) }
}

/**
 * Keeps the declarations `index.d.ts` reaches (with their maps), removes the others; throws when
 * a reached one imports a package. Returns the kept files, relative to dist/.
 */
export const pruneDeclarations = (dist) => {
  const kept = new Set()
  const problems = []
  const visit = (file) => {
    if (kept.has(file)) return
    kept.add(file)
    const text = readFileSync(join(dist, file), "utf8")
    const { bare, relative: local } = declarationImports(text)
    for (const specifier of bare) problems.push(`${file} imports "${specifier}"`)
    for (const specifier of local) visit(posix(join(dirname(file), specifier.replace(/\.js$/, ".d.ts"))))
  }
  visit("index.d.ts")
  if (problems.length > 0) {
    throw new Error(`bundle-facade: the published declarations must name nothing outside the package:\n  ${problems.join("\n  ")}`)
  }
  for (const file of filesUnder(dist).filter((f) => /\.d\.ts(\.map)?$/.test(f))) {
    if (!kept.has(file.replace(/\.map$/, ""))) rmSync(join(dist, file))
  }
  removeEmptyFolders(dist)
  return [...kept].sort()
}

/** Builds packages/engine/dist's JavaScript and assets (after tsc wrote its declarations). */
export const bundleFacade = async ({ quiet = false } = {}) => {
  const started = Date.now()
  const esbuild = await import("esbuild")
  // What an earlier build left: JavaScript and copied assets (tsc's declarations stay).
  for (const entry of existsSync(ENGINE_DIST) ? readdirSync(ENGINE_DIST) : []) {
    const path = join(ENGINE_DIST, entry)
    if (statSync(path).isDirectory() ? entry in dirsOf(URL_USERS) : /\.(js|mjs)(\.map)?$/.test(entry)) {
      rmSync(path, { recursive: true, force: true })
    }
  }
  mkdirSync(ENGINE_DIST, { recursive: true })
  const seen = new Set()
  const result = await esbuild.build({
    entryPoints: { index: join(ENGINE_DIR, "src", "index.ts") },
    outdir: ENGINE_DIST,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    // CommonJS modules inside the bundle call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __ridequoteCreateRequire } from \"node:module\"; const require = __ridequoteCreateRequire(import.meta.url);" },
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    metafile: true,
    logLevel: quiet ? "error" : "warning",
    plugins: [sourceUrlPlugin(seen)]
  })
  const unknown = [...seen].filter((place) => !(place in URL_USERS))
  if (unknown.length > 0) {
    throw new Error(`bundle-facade: ${unknown.join(", ")} use import.meta.url: list what they load in URL_USERS (tools/packaging/bundle-facade.mjs)`)
  }
  for (const place of seen) {
    for (const asset of URL_USERS[place]) {
      mkdirSync(dirname(join(ENGINE_DIST, asset)), { recursive: true })
      cpSync(join(PACKAGES, asset), join(ENGINE_DIST, asset), { recursive: true })
    }
  }
  const declarations = pruneDeclarations(ENGINE_DIST)
  const outputs = Object.entries(result.metafile.outputs)
  const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0)
  const inputs = Object.keys(result.metafile.inputs)
  const bundled = new Set(inputs.map((i) => /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(i)?.[1]).filter(Boolean))
  const info = {
    chunks: outputs.length,
    bytes,
    packagesInside: [...bundled].sort(),
    workspaceSources: inputs.filter((i) => !i.includes("node_modules")).length,
    declarations
  }
  if (!quiet) {
    console.log(
      `bundle-facade: packages/engine/dist: ${outputs.length} chunks, ${(bytes / 2 ** 20).toFixed(2)} MiB of JavaScript ` +
        `(${bundled.size} packages and ${info.workspaceSources} workspace sources inside), ${declarations.length} declarations, ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s`
    )
  }
  return info
}

/** The top-level folders of dist/ that hold copied assets. */
const dirsOf = (users) =>
  Object.fromEntries(Object.values(users).flat().map((asset) => [asset.split("/")[0], true]))
