/**
 * The Effect line ridequote is built for, checked once when `@ridequote/core` loads.
 *
 * `effect` is a peer dependency: the consumer's copy is the one every ridequote package uses,
 * so there is one Effect instance in the process. A package manager reports a copy outside
 * the peer range, but only as a warning when forced (`--legacy-peer-deps`, `--force`, Bun,
 * Deno). Effect 4 changed the runtime's internals, and running our layers on it fails deep
 * inside the runtime (`self.build is not a function`); this check turns that into one line
 * at start that names the versions.
 */
import effectPackage from "effect/package.json" with { type: "json" }

/** The range of `effect` versions ridequote supports (the packages' peer range). */
export const SUPPORTED_EFFECT_RANGE = "^3.22.2"

const versionParts = (version: string): readonly [number, number, number] | undefined => {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])]
}

// The range is the one statement of the minimum: ^3.22.2 reads as major 3, at least 3.22.2.
const MINIMUM = versionParts(SUPPORTED_EFFECT_RANGE.slice(1)) ?? [3, 0, 0]

/**
 * Whether an `effect` version is inside {@link SUPPORTED_EFFECT_RANGE}: the same major, and at
 * least the range's minimum. Pre-release tags are compared by their numeric part only.
 */
export const isSupportedEffectVersion = (version: string): boolean => {
  const parts = versionParts(version)
  if (parts === undefined) return false
  const [major, minor, patch] = parts
  if (major !== MINIMUM[0]) return false
  if (minor !== MINIMUM[1]) return minor > MINIMUM[1]
  return patch >= MINIMUM[2]
}

/** The error raised when the installed `effect` is outside the supported range. */
export class UnsupportedEffectVersion extends Error {
  /** The `effect` version that is installed. */
  declare readonly found: string
  constructor(found: string) {
    super(
      `ridequote needs effect ${SUPPORTED_EFFECT_RANGE} (${MINIMUM[0]}.x from ${SUPPORTED_EFFECT_RANGE.slice(1)}), but effect ${found} is installed: ` +
        `install a ${MINIMUM[0]}.x release, e.g. npm install effect@${SUPPORTED_EFFECT_RANGE}`
    )
    // Not enumerable, and a stack that is the message alone: uncaught, it prints as one line.
    Object.defineProperty(this, "found", { value: found, enumerable: false })
    this.stack = `${this.name}: ${this.message}`
  }
}
Object.defineProperty(UnsupportedEffectVersion.prototype, "name", { value: "UnsupportedEffectVersion" })

const installed: string = effectPackage.version
if (!isSupportedEffectVersion(installed)) throw new UnsupportedEffectVersion(installed)
