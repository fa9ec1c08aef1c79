/**
 * Its own file on purpose: the metric registry is per process, and any append in another test
 * of the same file would register the gauge and hide a regression.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { SqliteStorageLive } from "../src/index.js"
import { tempDirectory } from "./fixtures.js"

const dir = tempDirectory()

describe("audit queue depth metric", () => {
  layer(SqliteStorageLive({ filename: dir.file("metrics") }))((it) => {
    it.effect("is on /metrics from start-up, at 0, before any audit append", () =>
      Effect.gen(function*() {
        const pairs = yield* Metric.snapshot
        const depth = pairs.find((p) => p.metricKey.name === "ridequote_audit_queue_depth")
        expect(depth).toBeDefined()
        expect(depth?.metricState).toMatchObject({ value: 0 })
      }))
  })
})
