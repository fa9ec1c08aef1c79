/**
 * The markets package's own scripts (`markets:build`, `markets:evaluate`), read from its
 * package.json and run the way pnpm runs them, for the shipped-model tests.
 */
import { expect } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"

export const PACKAGE = join(import.meta.dirname, "..")
const scripts = (JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts

/** The commands of a package script, as argument lists after `tsx src/bin.ts`. */
export const commandsOf = (script: string): Array<Array<string>> =>
  (scripts[script] ?? "").split("&&").map((part) => {
    // Words, or "quoted phrases" (a market or product name) as one argument without quotes.
    const args = (part.trim().match(/"[^"]*"|\S+/g) ?? []).map((a) => a.replace(/^"(.*)"$/, "$1"))
    expect(args.slice(0, 2)).toEqual(["tsx", "src/bin.ts"])
    return args.slice(2)
  })

/** Runs the markets program; asynchronously, so the test worker stays responsive meanwhile. */
export const run = async (args: ReadonlyArray<string>): Promise<string> =>
  (await promisify(execFile)(process.execPath, ["--import", "tsx", "src/bin.ts", ...args], {
    cwd: PACKAGE,
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024
  })).stdout

