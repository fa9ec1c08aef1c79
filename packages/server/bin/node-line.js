/**
 * The Node lines ridequote supports, checked before anything else loads. On another line the
 * program stops with one line naming the supported ones (exit 1) instead of failing later in a
 * way that points elsewhere. The same ranges are the root package.json's `engines`
 * (test/node-line.test.ts keeps the two equal).
 *
 * - 20.19+: the project's floor since it started; 22.12+: the 22 release with the module
 *   features of 20.19 (`require()` of ES modules unflagged in both).
 * - 24 and 26: every release (the SQLite driver, libsql, is a Node-API binary, which every
 *   release loads; better-sqlite3 12 aborted from 24.19 on).
 * - Odd lines (21, 23, 25) are short-lived and not tested; lines after 26 are not yet tested.
 */

/** Each supported line: its major version and the first minor release supported. */
export const SUPPORTED = [
  { major: 20, minor: 19 },
  { major: 22, minor: 12 },
  { major: 24, minor: 0 },
  { major: 26, minor: 0 }
]

/** The supported lines as an `engines` range. */
export const ENGINES = SUPPORTED.map(({ major, minor }) => `^${major}.${minor}.0`).join(" || ")

/** The supported lines in words: "20.19+, 22.12+, 24 or 26". */
export const SUPPORTED_WORDS = SUPPORTED.map(({ major, minor }) => (minor === 0 ? `${major}` : `${major}.${minor}+`))
  .join(", ")
  .replace(/, ([^,]*)$/, " or $1")

/** Undefined when `version` (e.g. "24.21.0") is supported, else the line to print. */
export const unsupported = (version) => {
  const [major, minor] = version.split(".").map(Number)
  if (SUPPORTED.some((line) => line.major === major && minor >= line.minor)) return undefined
  return `ridequote: Node ${version} is not supported; use Node ${SUPPORTED_WORDS}.`
}
