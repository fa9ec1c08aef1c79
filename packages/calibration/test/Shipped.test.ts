/**
 * The shipped models meet their targets on the documented evaluation (`pnpm markets:evaluate`):
 * each forward split's coverage within 3 points of nominal with a supplied route and 5 with an
 * inferred one, pinball loss at least 25 % below the per-km baseline; each era's published rule
 * within 3 points. New York's yellow taxi (the longest, four forward splits) is
 * ShippedNyc.test.ts, and that the models are what `pnpm markets:build` fits is
 * ShippedBuild.test.ts: three files the test runner can spread over its processes.
 */
import { describe, expect, it } from "@effect/vitest"
import { commandsOf, expectEvaluationTargets } from "./shippedScripts.js"

describe("shipped market models", () => {
  it("`pnpm markets:evaluate` meets the targets: Chicago, Boston, New York ride-hail", async () => {
    const commands = commandsOf("markets:evaluate").filter((args) => !args.includes("nyc-tlc"))
    expect(commands).toHaveLength(3)
    for (const args of commands) await expectEvaluationTargets(args)
  }, 900_000)
})
