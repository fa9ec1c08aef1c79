/**
 * `serve` caps V8's heap growth (HeapTuning.ts) unless the operator chose a growth factor
 * themselves, on the command line or in NODE_OPTIONS. The effect on memory is measured by
 * `pnpm bench rss`, not asserted here (docs/performance.md).
 */
import { describe, expect, it } from "vitest"
import { collectBeforeServing, HEAP_GROWING_PERCENT, heapGrowthChosen, tuneHeapForServing } from "../src/HeapTuning.js"

/** What a call decides and the flags it would give V8, recorded instead of applied. */
const tuned = (execArgv: ReadonlyArray<string>, nodeOptions: string | undefined) => {
  const applied: Array<string> = []
  const by = tuneHeapForServing(execArgv, nodeOptions, (flags) => applied.push(flags))
  return { by, applied }
}

describe("heap tuning for serve", () => {
  it("leaves an operator's own growth factor alone, in either spelling and either place", () => {
    expect(heapGrowthChosen(["--heap-growing-percent=80"], undefined)).toBe(true)
    expect(heapGrowthChosen(["--heap_growing_percent=80"], undefined)).toBe(true)
    expect(heapGrowthChosen([], "--max-old-space-size=512 --heap-growing-percent=20")).toBe(true)
    expect(tuned(["--heap-growing-percent=80"], undefined)).toEqual({ by: "operator", applied: [] })
  })

  it("applies its own factor otherwise", () => {
    expect(heapGrowthChosen(["--enable-source-maps"], "--max-old-space-size=512")).toBe(false)
    expect(heapGrowthChosen([], undefined)).toBe(false)
    expect(tuned([], undefined)).toEqual({ by: "ridequote", applied: [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`] })
  })

  it("collects the whole heap before serving, without the operator exposing gc", async () => {
    // Made in a function of its own, so nothing on this stack keeps it.
    const ref = (() => new WeakRef({ filler: new Array(10_000).fill(1) }))()
    // A WeakRef keeps its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect("gc" in globalThis).toBe(false)
    collectBeforeServing()
    expect(ref.deref()).toBeUndefined()
    // Exposed to the throwaway context only, never to the program's own global.
    expect("gc" in globalThis).toBe(false)
  })
})
