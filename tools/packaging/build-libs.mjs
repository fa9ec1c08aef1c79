/**
 * Builds every library package to what it ships: `tsc -b packages/tsconfig.build.json`
 * (ESM JavaScript, .d.ts, declaration maps and source maps in each package's dist/, in
 * dependency order, incremental), then copies the files tsc does not emit (a worker thread's
 * CommonJS entry) next to the compiled modules that load them by URL.
 *
 *   node tools/packaging/build-libs.mjs        (pnpm build:libs; each library's prepack)
 *
 * `@ridequote/engine` is the exception: tsc writes its declarations only, and its JavaScript is
 * an esbuild bundle carrying its own Effect (bundle-facade.mjs).
 *
 * Inside the workspace nothing needs this: packages resolve to their TypeScript sources. A
 * packed tarball takes `publishConfig.exports`, which points at dist/.
 */
import { spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { bundleFacade } from "./bundle-facade.mjs"
import { guardEntry } from "./guarded-entry.mjs"
import { LIBRARIES } from "./libraries.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
/** Libraries whose main entry checks the installed effect before it loads anything else. */
const GUARDED = ["compose"]

const tsc = createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc")
const built = spawnSync(process.execPath, [tsc, "-b", join(ROOT, "packages", "tsconfig.build.json")], {
  stdio: "inherit"
})
if (built.status !== 0) process.exit(built.status ?? 1)

/** Every `.cjs`/`.json` file under a folder, as paths relative to it. */
const assets = (dir, base = dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return assets(path, base)
    return /\.(cjs|json)$/.test(entry.name) ? [relative(base, path)] : []
  })

for (const library of LIBRARIES) {
  const src = join(ROOT, "packages", library, "src")
  // A package that compiles src/ and testing/ (its rootDir is the package) has them under
  // dist/src and dist/testing; the others compile src/ alone straight into dist/.
  const dist = join(ROOT, "packages", library, "dist")
  const out = existsSync(join(dist, "src")) ? join(dist, "src") : dist
  for (const asset of assets(src)) {
    mkdirSync(dirname(join(out, asset)), { recursive: true })
    copyFileSync(join(src, asset), join(out, asset))
  }
}
// The Effect-native engine layers check effect's version before Effect's modules are linked (guarded-entry.mjs).
for (const library of GUARDED) guardEntry(join(ROOT, "packages", library, "dist"))
// The facade's package is one bundle with its own Effect: no effect peer (bundle-facade.mjs).
await bundleFacade()

console.log(`build-libs: ${LIBRARIES.length} libraries built to packages/*/dist`)
