import { defineConfig } from "vitest/config"
import { LongestFirstSequencer } from "./tools/longest-first-sequencer.js"

// One vitest run over every package and example (`pnpm test`).
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "tools/test/**/*.test.ts"],
    reporters: ["default", "./tools/summary-reporter.ts"],
    // The compiled program (packages/server/dist) is brought up to date once, before any test
    // starts it: tests running in parallel must not each rebuild it.
    globalSetup: ["./tools/build-before-tests.ts"],
    // Puts back @effect/vitest's own it.effect & co. before each file (see the file).
    setupFiles: ["./tools/effect-vitest-reset.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start servers and child processes; two cores here. Each fork runs
    // file after file with the modules it has loaded (isolate: false): a fresh process per file
    // loaded effect and the workspace sources again every time, about 2 s of CPU a file (collect
    // 313 s -> 73 s summed over the run). No test mocks modules or changes process-wide settings;
    // the one shared state that leaked, @effect/vitest's methods, is reset per file by the setup
    // file above.
    // The slowest files first, also on a fresh clone without vitest's cache of durations.
    sequence: { sequencer: LongestFirstSequencer },
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } }
  }
})
