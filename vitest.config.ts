import { defineConfig } from "vitest/config"

// One vitest run over every package and example (`pnpm test`).
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "tools/test/**/*.test.ts"],
    reporters: ["default", "./tools/summary-reporter.ts"],
    // The compiled program (packages/server/dist) is brought up to date once, before any test
    // starts it: tests running in parallel must not each rebuild it.
    globalSetup: ["./tools/build-before-tests.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start servers and child processes; two cores here.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
