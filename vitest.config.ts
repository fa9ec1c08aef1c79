import { defineConfig } from "vitest/config"

// One vitest run over every package and example (`pnpm test`).
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "tools/test/**/*.test.ts"],
    reporters: ["default", "./tools/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start servers and child processes; two cores here.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
