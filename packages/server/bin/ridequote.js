#!/usr/bin/env node
/**
 * The `ridequote` program as installed: runs the compiled build (dist/bin.js) in this same
 * process, so signals reach it directly. `pnpm install` builds it (the root `prepare` script);
 * if a workspace source changed since, it is rebuilt here first (one line on stderr says so),
 * so a checkout never runs stale code. A deployment can skip the check with
 * RIDEQUOTE_SKIP_BUILD_CHECK=1 once dist/ is in place.
 *
 * First of all, the Node line is checked (node-line.js): on an unsupported one the program
 * stops with one line that names the supported lines.
 */
import module from "node:module"
import { unsupported } from "./node-line.js"

const refused = unsupported(process.versions.node)
if (refused !== undefined) {
  process.stderr.write(`${refused}\n`)
  process.exit(1)
}
const { build, isBuildStale } = await import("../scripts/build.mjs")

// Node 22.1+: keep V8's compiled code of the program between runs (a no-op on Node 20).
module.enableCompileCache?.()

if (process.env.RIDEQUOTE_SKIP_BUILD_CHECK !== "1") {
  const stale = isBuildStale()
  if (stale !== undefined) {
    process.stderr.write(`ridequote: compiling (${stale})…\n`)
    await build({ quiet: true })
  }
}
await import("../dist/bin.js")
