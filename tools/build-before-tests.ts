/**
 * vitest global setup, before any test runs:
 * - brings the compiled `ridequote` (packages/server/dist) up to date, by running it once
 *   (`--version`): bin/ridequote.js rebuilds dist/ when a source changed since the last build
 *   (`pnpm install` built it first);
 * - bundles the markets package's own command line (packages/markets/src/bin.ts: `market fit`,
 *   `market evaluate`, `backtest`, the commands of its package scripts) into
 *   node_modules/.cache, and hands its path to the tests (`inject("marketsCommand")`). The
 *   markets tests start it ~15 times; under tsx each start compiled the sources again (~3 s of
 *   CPU, 0.5 s bundled). The bundle is made from the sources of this run, every run.
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** The bundled markets command line (`node <path> market evaluate …`). */
    readonly marketsCommand: string
  }
}

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url))

export default async function setup(project: TestProject): Promise<() => void> {
  execFileSync(process.execPath, [path("../packages/server/bin/ridequote.js"), "--version"], { stdio: ["ignore", "ignore", "inherit"] })
  const { bundleCommand } = await import("../packages/server/scripts/build.mjs")
  const outdir = path(`../node_modules/.cache/ridequote-tests/markets-command-${process.pid}`)
  project.provide("marketsCommand", await bundleCommand({ entry: path("../packages/markets/src/bin.ts"), outdir }))
  return () => rmSync(outdir, { recursive: true, force: true })
}
