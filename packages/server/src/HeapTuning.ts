/**
 * How far V8 lets the heap grow between full collections, for the long-running `serve`.
 *
 * By default V8 lets the old generation grow to several times what is live after a full
 * collection before the next one: under quote load the server keeps ~30 MB live, yet its heap
 * grew to ~110 MB between mark-compacts, and the resident size swung with it (172–236 MB
 * across equal batches of 20,000 quotes, no trend; docs/performance.md, "Memory"). Capping the
 * growth factor at 1.5× keeps the heap, and so the process, flat (172–174 MB over the same
 * batches) for a handful more mark-compacts of ~30 MB each.
 *
 * V8 reads this flag each time it sets the next collection's limit, so setting it at start-up
 * from inside the program works and needs no wrapper script. An operator who passes their own
 * `--heap-growing-percent` (on the command line or in NODE_OPTIONS) keeps it.
 *
 * Only this flag is safe to change here. `--single-threaded-gc`, which helps the p99 on a
 * one-core deployment, makes V8 abort at its next full collection when set after start-up
 * (`Check failed: concurrent_marking_handle_…`, tried): operators pass it on the command line
 * (docs/operations.md).
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

export const HEAP_GROWING_PERCENT = 50

const FLAG = /--heap[-_]growing[-_]percent\b/

/** True when the operator already chose a growth factor for this process. */
export const heapGrowthChosen = (execArgv: ReadonlyArray<string>, nodeOptions: string | undefined): boolean =>
  execArgv.some((arg) => FLAG.test(arg)) || FLAG.test(nodeOptions ?? "")

/** Applies HEAP_GROWING_PERCENT unless the operator chose otherwise; returns what applies now. */
export const tuneHeapForServing = (
  execArgv: ReadonlyArray<string> = process.execArgv,
  nodeOptions: string | undefined = process.env["NODE_OPTIONS"],
  /** Where the flag goes: V8 itself, or a test's recorder (so the test process keeps its own GC). */
  apply: (flags: string) => void = setFlagsFromString
): "ridequote" | "operator" => {
  if (heapGrowthChosen(execArgv, nodeOptions)) return "operator"
  apply(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  return "ridequote"
}

/**
 * One full collection once the program is loaded, just before `serve` listens.
 *
 * V8 sets the old generation's next limit from what is live at each mark-compact. Its first
 * one comes ~0.2 s into start-up, with the program half loaded, so the limit it sets was reached
 * again ~10 s into serving: a mark-compact, with its ~20 ms stall on one core, under the first
 * load. Collected once here instead (~30 ms, before any request), the limit is taken from the
 * loaded program, and with the quote path promoting ~50 KB per young collection the next
 * mark-compact is a minute or more away at 1,000 quotes/s (docs/performance.md, change 24).
 *
 * `gc` is not exposed to the program by default: the flag exposes it to contexts created after
 * it, so it is taken from a new one. The collection is the isolate's whatever the context.
 */
export const collectBeforeServing = (): void => {
  setFlagsFromString("--expose-gc")
  const gc = runInNewContext("gc") as () => void
  gc()
}
