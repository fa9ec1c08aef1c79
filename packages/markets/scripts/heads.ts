/**
 * Writes `models/heads.jsonl`, the shipped tariff heads decoded ahead of time (HeadsIndex.ts),
 * from the tariff files in `models/` (`pnpm markets:heads`; run it after changing a tariff file:
 * the markets tests fail while the index is not what this writes). `--check` writes nothing and
 * exits 1 when the index differs.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { headsIndexOfFolder } from "./heads-index.js"

const models = join(import.meta.dirname, "..", "models")
const { text, path } = headsIndexOfFolder(models)
if (process.argv.includes("--check")) {
  const current = (() => {
    try {
      return readFileSync(path, "utf8")
    } catch {
      return ""
    }
  })()
  if (current !== text) {
    process.stderr.write(`${path} is not what the tariff files give: run pnpm markets:heads\n`)
    process.exit(1)
  }
  process.stdout.write(`${path} is up to date\n`)
} else {
  writeFileSync(path, text)
  process.stdout.write(`wrote ${path} (${text.split("\n").length - 1} heads)\n`)
}
