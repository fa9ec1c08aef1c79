import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join } from "node:path"

const dir = process.env.RIDEQUOTE_TARBALLS
let failed = 0
for (const tarball of readdirSync(dir).filter((f) => f.endsWith(".tgz")).sort()) {
  const path = join(dir, tarball)
  const publint = spawnSync("npx", ["--no-install", "publint", "--strict", path], { encoding: "utf8" })
  // ESM-only by design: only the resolutions that can load ESM (node16 from ESM, bundler) count.
  const attw = spawnSync("npx", ["--no-install", "attw", "--pack", path, "--profile", "esm-only", "--format", "table-flipped"], { encoding: "utf8" })
  const ok = publint.status === 0 && attw.status === 0
  if (!ok) failed++
  console.log(`${ok ? "ok  " : "FAIL"} ${tarball}: publint ${publint.status === 0 ? "clean" : "errors"}, attw ${attw.status === 0 ? "clean" : "problems"}`)
  if (!ok) console.log((publint.stdout + publint.stderr + attw.stdout + attw.stderr).trim())
}
process.exit(failed === 0 ? 0 : 1)
