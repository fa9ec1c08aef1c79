/**
 * The order test files start in. Two test processes share two cores, so the run ends when the
 * busier one does: the longest files must start first. vitest orders by the durations of the
 * last run it cached, but a fresh clone (CI) has no cache and vitest then starts the largest
 * files first, by bytes: the New York evaluation (a few hundred bytes, ~45 s of CPU) started
 * near the end. These files, measured the longest (2026-11-26, docs/performance.md "The test
 * command"), start first in this order; the rest keep vitest's own order.
 */
import type { TestSpecification } from "vitest/node"
import { BaseSequencer } from "vitest/node"

const LONGEST = [
  "packages/calibration/test/ShippedNyc.test.ts",
  "packages/calibration/test/ShippedBuild.test.ts",
  "packages/calibration/test/Backtest.test.ts",
  "packages/calibration/test/Shipped.test.ts",
  "packages/server/test/compiled.test.ts",
  "packages/server/test/shutdown.test.ts",
  "packages/server/test/stale-access.test.ts",
  "packages/server/test/cli.test.ts",
  "packages/storage-postgres/test/contract.test.ts",
  "examples/typed-client/test/typed-client.test.ts"
]

const rank = (spec: TestSpecification): number => {
  const path = spec.moduleId.replace(/\\/g, "/")
  const i = LONGEST.findIndex((suffix) => path.endsWith(`/${suffix}`))
  return i === -1 ? LONGEST.length : i
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    // Array.prototype.sort is stable: files outside the list keep vitest's order among themselves.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}
