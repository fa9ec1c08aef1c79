/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after vitest's own
 * summary, so any CI that reads a run's last lines finds the counts in a standard shape.
 */
import type { Reporter } from "vitest/reporters"

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: ReadonlyArray<Task> }

const count = (tasks: ReadonlyArray<Task>, acc = { passed: 0, failed: 0, skipped: 0 }) => {
  for (const t of tasks) {
    if (t.type === "test") {
      const state = t.result?.state
      if (state === "pass") acc.passed++
      else if (state === "fail") acc.failed++
      else acc.skipped++
    } else if (t.tasks) count(t.tasks, acc)
    // A suite that failed to load (syntax error, hook failure) has no tests but must count as a failure.
    if (t.type === "suite" && t.result?.state === "fail" && (t.tasks?.length ?? 0) === 0) acc.failed++
  }
  return acc
}

export default class SummaryReporter implements Reporter {
  onFinished(files: ReadonlyArray<Task> = [], errors: ReadonlyArray<unknown> = []): void {
    const c = count(files)
    const failed = c.failed + errors.length
    process.stdout.write(`\nTests: ${c.passed} passed, ${failed} failed, ${c.skipped} skipped\n`)
  }
}
