/**
 * vitest global setup: brings the compiled `ridequote` (packages/server/dist) up to date before
 * any test runs, by running it once (`--version`): bin/ridequote.js rebuilds dist/ when a
 * source changed since the last build (`pnpm install` built it first).
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

export default function setup(): void {
  const bin = fileURLToPath(new URL("../packages/server/bin/ridequote.js", import.meta.url))
  execFileSync(process.execPath, [bin, "--version"], { stdio: ["ignore", "ignore", "inherit"] })
}
