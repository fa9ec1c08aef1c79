/**
 * vitest setup file, run before every test file. The test files share their worker's modules
 * (`isolate: false` in vitest.config.ts), and @effect/vitest's `layer(...)` installs its own
 * `it.effect`, `it.scoped`, `it.prop`, `it.flakyTest` and `it.layer` on vitest's one shared
 * `it` object (Object.assign), so a file's layer would otherwise provide its runtime to the
 * `it.effect` tests of every file after it (without the TestClock they expect). The methods
 * as @effect/vitest first made them are kept the first time this runs and put back each time.
 */
import { it } from "@effect/vitest"

const METHODS = ["effect", "scoped", "live", "scopedLive", "flakyTest", "layer", "prop"] as const
const PRISTINE = Symbol.for("ridequote/tools/effect-vitest-methods")

type Store = { [PRISTINE]?: Record<string, unknown> }
const store = globalThis as Store
const target = it as unknown as Record<string, unknown>

const pristine = store[PRISTINE] ?? Object.fromEntries(METHODS.map((name) => [name, target[name]]))
store[PRISTINE] = pristine
Object.assign(target, pristine)
