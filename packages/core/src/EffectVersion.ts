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

const MINIMUM: readonly [number, number, number] = [3, 22, 2]

/**
 * Whether an `effect` version is inside {@link SUPPORTED_EFFECT_RANGE}: major 3, and at least
 * 3.22.2. Pre-release tags are compared by their numeric part only.
 */
export const isSupportedEffectVersion = (version: string): boolean => {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  if (match === null) return false
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])]
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
      `ridequote needs effect ${SUPPORTED_EFFECT_RANGE} (3.x from 3.22.2), but effect ${found} is installed: ` +
        `install a 3.x release, e.g. npm install effect@^3.22.2`
    )
    // Not enumerable, and a stack that is the message alone: uncaught, it prints as one line.
    Object.defineProperty(this, "found", { value: found, enumerable: false })
    this.stack = `${this.name}: ${this.message}`
  }
}
Object.defineProperty(UnsupportedEffectVersion.prototype, "name", { value: "UnsupportedEffectVersion" })

const installed: string = effectPackage.version
if (!isSupportedEffectVersion(installed)) throw new UnsupportedEffectVersion(installed)
