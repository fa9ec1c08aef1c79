import { spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import assert from "node:assert/strict"

const tarball = (name) => join(process.env.RIDEQUOTE_TARBALLS, `ridequote-${name}-0.1.0.tgz`)
const ours = Object.fromEntries(["core", "routes", "markets", "compose"].map((n) => [`@ridequote/${n}`, `file:${tarball(n)}`]))
// The Effect-native engine (the layers): a program on Effect 4 that asks for them. (The facade,
// @ridequote/engine, carries its own Effect and installs beside Effect 4: facade-beside-effect-4.)
const project = (name) => {
  mkdirSync(name, { recursive: true })
  writeFileSync(join(name, "package.json"), JSON.stringify({ name, private: true, type: "module", dependencies: { effect: "^4.0.0", "@ridequote/compose": ours["@ridequote/compose"] }, overrides: ours }))
  return name
}
// `npm run --silent check` passes its log level down: the installs below must say what npm says.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_config_")))
const npm = (cwd, ...args) => spawnSync("npm", ["install", "--no-audit", "--no-fund", ...args], { cwd, env, encoding: "utf8" })

// 1. npm reports the conflict and installs nothing.
const refused = npm(project("plain"))
assert.notEqual(refused.status, 0, "npm installed @ridequote/core next to effect 4")
assert.match(refused.stderr, /ERESOLVE|peer effect@"\^3\.22\.2"/, refused.stderr)

// 2. Forced past the peer check: the engine's layers (@ridequote/compose) and core's version
// check refuse in one line before anything of Effect's loads. (An entry that imports effect's
// modules statically, such as @ridequote/core's main one, fails earlier under native ESM: Node
// links every module before it runs any, and Effect 4 lacks names ours import. See
// docs/packages.md.)
const forced = npm(project("forced"), "--legacy-peer-deps")
assert.equal(forced.status, 0, forced.stderr)
for (const entry of ["@ridequote/compose", "@ridequote/core/effect-version"]) {
  const start = spawnSync(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(entry)})`], { cwd: "forced", encoding: "utf8" })
  assert.notEqual(start.status, 0, `${entry} loaded on effect 4`)
  const said = start.stderr.split("\n").filter((line) => line.includes("UnsupportedEffectVersion"))
  assert.equal(said.length, 1, start.stderr)
  assert.match(said[0], /needs effect \^3\.22\.2 .* but effect 4\.\d+\.\d+ is installed/)
  console.log(`forced, ${entry}: ${said[0].trim()}`)
}
console.log(`npm: ${refused.stderr.split("\n").find((l) => /ERESOLVE/.test(l)) ?? "peer conflict"}`)
