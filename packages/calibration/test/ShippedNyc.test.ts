/**
 * New York's yellow taxi on the documented evaluation (`pnpm markets:evaluate`): four forward
 * splits, the 2012 rule on the held-out trips, JFK and Newark (Shipped.test.ts has the rest).
 */
import { describe, expect, it } from "@effect/vitest"
import { commandsOf, expectEvaluationTargets } from "./shippedScripts.js"

describe("shipped market models", () => {
  it("`pnpm markets:evaluate` meets the targets: New York yellow taxi", async () => {
    const commands = commandsOf("markets:evaluate").filter((args) => args.includes("nyc-tlc"))
    expect(commands).toHaveLength(1)
    for (const args of commands) await expectEvaluationTargets(args)
  }, 900_000)
})
