/**
 * The consumer matrix: ridequote's libraries as someone outside this repository gets them.
 *
 *   node tools/consumers/run.mjs [NAME ...]      (pnpm consumers; CI runs every scenario)
 *
 * 1. Builds every library (tools/packaging/build-libs.mjs) and packs each with `pnpm pack`,
 *    which is what `pnpm publish` uploads: `workspace:^` becomes a version range and
 *    `publishConfig.exports` replaces the in-workspace exports (TypeScript sources) with dist/.
 * 2. Copies each folder of scenarios/ to a fresh temporary directory outside the workspace,
 *    points its `@ridequote/*` dependencies at the tarballs (and `overrides` the ones the
 *    tarballs depend on, so nothing resolves to the registry or to a workspace link), installs
 *    with npm and runs `npm run check`. A scenario passes when that exits 0.
 *
 * A scenario's package.json names the libraries it uses with the version "tarball". Its
 * `"ridequoteConsumer"` object may say `"install": false` (the check installs for itself; it
 * gets the tarballs' folder in RIDEQUOTE_TARBALLS) and `"copy": { "file": "repo/path" }` (files
 * of this repository to run as they are, e.g. an example's program, so the example a reader
 * copies is the one tested outside the workspace). The last line is the matrix's summary
 * ("N passed, N failed").
 */
import { spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { LIBRARIES } from "../packaging/libraries.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")

const run = (command, args, options = {}) => {
  const started = Date.now()
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options })
  return { ...result, seconds: ((Date.now() - started) / 1000).toFixed(1) }
}

/** pnpm as this script was started by it (`pnpm consumers`), else pnpm 10 through npx. */
const pnpm = (args, options) => {
  const execPath = process.env["npm_execpath"]
  return execPath !== undefined && /pnpm/.test(execPath)
    ? run(process.execPath, [execPath, ...args], options)
    : run("npx", ["-y", "pnpm@10", ...args], options)
}

const scratch = mkdtempSync(join(tmpdir(), "ridequote-consumers-"))
const tarballs = join(scratch, "tarballs")
const keep = process.env["RIDEQUOTE_CONSUMERS_KEEP"] === "1"

const built = run(process.execPath, [join(ROOT, "tools", "packaging", "build-libs.mjs")], { stdio: "inherit" })
if (built.status !== 0) process.exit(1)

/** @type {Record<string, string>} package name → tarball path */
const tarballOf = {}
for (const library of LIBRARIES) {
  const dir = join(ROOT, "packages", library)
  const name = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name
  // prepack rebuilds the libraries: tsc -b is incremental, so after the build above it only checks.
  const packed = pnpm(["pack", "--pack-destination", tarballs], { cwd: dir })
  if (packed.status !== 0) {
    process.stderr.write(packed.stdout + packed.stderr)
    process.exit(1)
  }
  const file = readdirSync(tarballs).find((f) => f.startsWith(name.replace("@", "").replace("/", "-") + "-"))
  if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}`)
  tarballOf[name] = join(tarballs, file)
}
console.log(`consumers: packed ${Object.keys(tarballOf).length} libraries into ${tarballs}`)

const wanted = process.argv.slice(2)
const scenarios = readdirSync(join(HERE, "scenarios")).filter((s) => wanted.length === 0 || wanted.includes(s)).sort()
const results = []
for (const scenario of scenarios) {
  const dir = join(scratch, scenario)
  cpSync(join(HERE, "scenarios", scenario), dir, { recursive: true })
  const manifestPath = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"))
  for (const [to, from] of Object.entries(manifest.ridequoteConsumer?.copy ?? {})) cpSync(join(ROOT, from), join(dir, to))
  for (const field of ["dependencies", "devDependencies"]) {
    for (const [name, version] of Object.entries(manifest[field] ?? {})) {
      if (version !== "tarball") continue
      if (tarballOf[name] === undefined) throw new Error(`${scenario}: no tarball for ${name}`)
      manifest[field][name] = `file:${tarballOf[name]}`
    }
  }
  // The tarballs depend on each other by version range (^0.1.0): resolve those to the tarballs too.
  manifest.overrides = { ...manifest.overrides, ...Object.fromEntries(Object.entries(tarballOf).map(([n, t]) => [n, `file:${t}`])) }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n")
  const env = { ...process.env, RIDEQUOTE_TARBALLS: tarballs, npm_config_update_notifier: "false" }
  // Nothing of the workspace may leak in: no pnpm variables, no NODE_OPTIONS loader.
  for (const key of Object.keys(env)) if (key.startsWith("npm_") && key !== "npm_config_update_notifier") delete env[key]
  delete env["NODE_OPTIONS"]

  let outcome
  if (manifest.ridequoteConsumer?.install !== false) {
    const installed = run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: dir, env })
    if (installed.status !== 0) outcome = { ok: false, step: "npm install", out: installed.stdout + installed.stderr, seconds: installed.seconds }
    else console.log(`consumers: ${scenario}: installed in ${installed.seconds} s`)
  }
  if (outcome === undefined) {
    const checked = run("npm", ["run", "--silent", "check"], { cwd: dir, env })
    outcome = { ok: checked.status === 0, step: "npm run check", out: checked.stdout + checked.stderr, seconds: checked.seconds }
  }
  results.push({ scenario, ...outcome })
  const lines = outcome.out.trim().split("\n").filter(Boolean)
  console.log(`consumers: ${outcome.ok ? "PASS" : "FAIL"} ${scenario} (${outcome.step}, ${outcome.seconds} s)`)
  for (const line of outcome.ok ? lines.slice(-4) : lines.slice(-60)) console.log(`    ${line}`)
}

if (!keep) rmSync(scratch, { recursive: true, force: true })
else console.log(`consumers: scratch kept in ${scratch}`)
const passed = results.filter((r) => r.ok).length
console.log(`consumers: ${passed} passed, ${results.length - passed} failed`)
process.exit(passed === results.length && results.length > 0 ? 0 : 1)
