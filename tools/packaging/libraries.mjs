/**
 * The library packages: every folder of packages/ whose package.json is not private (the
 * `ridequote` program is). The build, the consumer matrix and the API-docs check all read the
 * set from here; the lists a tool's config must spell out (packages/tsconfig.build.json,
 * typedoc.json, the changeset group) are checked against it by tools/test/libraries.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const PACKAGES = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "packages")

/** The library packages' folder names under packages/, sorted. */
export const LIBRARIES = readdirSync(PACKAGES)
  .filter((dir) => {
    const manifest = join(PACKAGES, dir, "package.json")
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).private !== true
  })
  .sort()
