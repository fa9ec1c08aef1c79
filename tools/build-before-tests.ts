/**
 * vitest global setup, before any test runs:
 * - brings the compiled `ridequote` (packages/server/dist) up to date, by running it once
 *   (`--version`): bin/ridequote.js rebuilds dist/ when a source changed since the last build
 *   (`pnpm install` built it first);
 * - bundles the calibration package's own command line (packages/calibration/src/bin.ts: `market fit`,
 *   `market evaluate`, `backtest`, the commands of its package scripts) into
 *   node_modules/.cache, and hands its path to the tests (`inject("marketsCommand")`). The
 *   markets tests start it ~15 times; under tsx each start compiled the sources again (~3 s of
 *   CPU, 0.5 s bundled). The bundle is made from the sources of this run, every run;
 * - provides a folder of the run (`inject("testCacheDir")`) for the bundles tests make
 *   themselves (storage-sqlite's helper processes), removed with the markets bundle at the end.
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** The bundled markets command line (`node <path> market evaluate …`). */
    readonly marketsCommand: string
    /**
     * A folder of this run inside the repository (where bundles' externals resolve), removed
     * when the run ends: for bundles the tests make themselves.
     */
    readonly testCacheDir: string
  }
}

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url))

export default async function setup(project: TestProject): Promise<() => void> {
  execFileSync(process.execPath, [path("../packages/server/bin/ridequote.js"), "--version"], { stdio: ["ignore", "ignore", "inherit"] })
  const { bundleCommand } = await import("../packages/server/scripts/build.mjs")
  const runDir = path(`../node_modules/.cache/ridequote-tests/run-${process.pid}`)
  project.provide("testCacheDir", runDir)
  project.provide("marketsCommand", await bundleCommand({ entry: path("../packages/calibration/src/bin.ts"), outdir: join(runDir, "markets-command") }))
  return () => rmSync(runDir, { recursive: true, force: true })
}
