// An empty folder on Effect 4 adds the facade from its tarball with plain `npm install`.
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import assert from "node:assert/strict"

const engine = join(process.env.RIDEQUOTE_TARBALLS, "ridequote-engine-0.1.0.tgz")
// `npm run --silent check` passes its log level down: the install below must say what npm says.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_config_")))
const service = "service"
mkdirSync(service)
writeFileSync(join(service, "package.json"), JSON.stringify({ name: "service", private: true, type: "module" }))

// 1. The install: exit 0, no peer conflict, no flag to force it; effect 4 stays the only effect.
const installed = spawnSync("npm", ["install", "--no-audit", "--no-fund", "effect@4", `file:${engine}`], { cwd: service, env, encoding: "utf8" })
assert.equal(installed.status, 0, installed.stdout + installed.stderr)
assert.doesNotMatch(installed.stdout + installed.stderr, /ERESOLVE|peer dep|legacy-peer-deps/i, installed.stderr)
const tree = JSON.parse(spawnSync("npm", ["ls", "--all", "--json"], { cwd: service, env, encoding: "utf8" }).stdout)
const names = []
const walk = (node) => {
  for (const [name, child] of Object.entries(node.dependencies ?? {})) {
    // Optional peers not installed are listed too, without a version (`missing`).
    if (child.version === undefined) continue
    names.push(`${name}@${child.version}`)
    walk(child)
  }
}
walk(tree)
const effects = names.filter((n) => n.startsWith("effect@"))
assert.equal(effects.length, 1, names.join(", "))
assert.match(effects[0], /^effect@4\./)
// The engine brings nothing: no @ridequote/* or @effect/* package, no SQLite or PostgreSQL driver.
const engineBrought = names.filter((n) => !n.startsWith("effect@") && !n.startsWith("@ridequote/engine@"))
assert.deepEqual(engineBrought.filter((n) => /^(@ridequote|@effect|libsql|@libsql|pg)[@/]/.test(n)), [], names.join(", "))
assert.ok(!existsSync(join(service, "node_modules", "libsql")) && !existsSync(join(service, "node_modules", "pg")))

// 2. A first quote, next to the service's own Effect 4 program in the same process.
cpSync("quote.mjs", join(service, "quote.mjs"))
const run = spawnSync(process.execPath, ["quote.mjs"], { cwd: service, encoding: "utf8", timeout: 120_000 })
assert.equal(run.status, 0, run.stdout + run.stderr)
assert.doesNotMatch(run.stderr, /Executing an Effect versioned/)
const result = JSON.parse(run.stdout.trim().split("\n").at(-1))
assert.equal(result.own, "EFFECT 4 PROGRAM RAN")
assert.equal(result.market, "nyc")
assert.equal(result.currency, "USD")
assert.equal(result.audited, 1)
assert.deepEqual({ code: result.refused?.code, names: /npm install libsql/.test(result.refused?.message ?? "") }, { code: "result:internal", names: true })

// 3. The facade's types compile in that project (effect 4 installed), skipLibCheck false.
cpSync("types.ts", join(service, "types.ts"))
cpSync("tsconfig.json", join(service, "tsconfig.json"))
const tsc = spawnSync(process.execPath, [join(process.cwd(), "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: service, encoding: "utf8" })
assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr)

const version = (n) => names.find((x) => x.startsWith(`${n}@`))
console.log(`npm install effect@4 @ridequote/engine: exit 0, no ERESOLVE; tree: ${names.length} packages (${version("effect")}, ${version("@ridequote/engine")}), no libsql, no pg`)
console.log(`first quote beside an Effect 4 program: ${result.market} ${result.currency} ${JSON.stringify(result.standard)}, audited ${result.audited}; SQLite without its driver: ${result.refused.code} (names libsql)`)
console.log(`tsc (nodenext, strict, skipLibCheck false, effect ${version("effect").split("@")[1]}): 0 errors`)
