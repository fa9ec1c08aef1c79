import { defineConfig } from "vitest/config"
import { LongestFirstSequencer } from "./tools/longest-first-sequencer.js"

// One vitest run over every package and example (`pnpm test`).
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "tools/test/**/*.test.ts", "bench/test/**/*.test.ts"],
    reporters: ["default", "./tools/summary-reporter.ts"],
    // The compiled program (packages/server/dist) is brought up to date once, before any test
    // starts it: tests running in parallel must not each rebuild it.
    globalSetup: ["./tools/build-before-tests.ts"],
    // Puts back @effect/vitest's own it.effect & co. before each file (see the file).
    setupFiles: ["./tools/effect-vitest-reset.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start servers and child processes. Each fork runs
    // file after file with the modules it has loaded (isolate: false): a fresh process per file
    // loaded effect and the workspace sources again every time, about 2 s of CPU a file (collect
    // 313 s -> 73 s summed over the run). No test mocks modules or changes process-wide settings;
    // the one shared state that leaked, @effect/vitest's methods, is reset per file by the setup
    // file above.
    // The slowest files first, also on a fresh clone without vitest's cache of durations.
    sequence: { sequencer: LongestFirstSequencer },
    pool: "forks",
    // Three forks on two cores: a fork waiting on a child process, a server or a timer leaves
    // its core to the others (two forks used 176 % of the two cores; 188 s with two, 177 s with
    // three, back to back on the same loaded machine, 2026-11-26). minForks = maxForks: a pool
    // that shrinks terminates idle forks at the end of the run, which tinypool 1.1 can report
    // as an unhandled "Terminating worker thread" (seen once here; vitest-dev/vitest#8564).
    poolOptions: { forks: { maxForks: 3, minForks: 3, isolate: false } }
  }
})
