/** GET /metrics is valid Prometheus exposition, checked by a parser and the family rules. */
import { describe, expect, it, layer } from "@effect/vitest"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, Layer, Metric, MetricBoundaries } from "effect"
import { renderPrometheus } from "../src/internal/Metrics.js"
import { checkExposition } from "./exposition.js"
import { call, makeTestApp, signedIn } from "./harness.js"

const App = makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog))

const PREFIX = "test_render_"
/** Renders only this file's metrics: the registry is per process and shared by every test here. */
const renderOwn = Effect.map(
  Metric.snapshot,
  (pairs) => renderPrometheus(pairs.filter((p) => p.metricKey.name.startsWith(PREFIX)))
)

describe("the exposition checker refuses what a scraper refuses", () => {
  const histogram = (buckets: string) =>
    `# TYPE h histogram\n${buckets}h_sum{a="1"} 3\nh_count{a="1"} 2\n`
  it("a valid histogram passes, so the refusals below are about the one thing changed", () => {
    expect(checkExposition(histogram(`h_bucket{a="1",le="1"} 1\nh_bucket{a="1",le="+Inf"} 2\n`))).toHaveLength(1)
  })
  it.each([
    ["two +Inf buckets", histogram(`h_bucket{a="1",le="1"} 1\nh_bucket{a="1",le="+Inf"} 2\nh_bucket{a="1",le="+Inf"} 2\n`)],
    ["no +Inf bucket", histogram(`h_bucket{a="1",le="1"} 2\n`)],
    ["+Inf other than _count", histogram(`h_bucket{a="1",le="1"} 1\nh_bucket{a="1",le="+Inf"} 3\n`)],
    ["buckets not cumulative", histogram(`h_bucket{a="1",le="1"} 2\nh_bucket{a="1",le="2"} 1\nh_bucket{a="1",le="+Inf"} 2\n`)],
    ["a family typed twice", "# TYPE c counter\nc 1\n# TYPE c counter\nc{x=\"y\"} 2\n"],
    ["a family split in two", "# TYPE c counter\nc 1\n# TYPE g gauge\ng 1\nc{x=\"y\"} 2\n"],
    ["a malformed line", "# TYPE c counter\nc{x=y} 1\n"]
  ])("%s", (_, text) => {
    expect(() => checkExposition(text)).toThrow()
  })
})

describe("renderPrometheus", () => {
  it.effect("histograms: one +Inf bucket per series, equal to its count; cumulative buckets", () =>
    Effect.gen(function*() {
      const h = Metric.histogram(`${PREFIX}latency_seconds`, MetricBoundaries.fromIterable([0.1, 1]), "latency")
      for (const v of [0.05, 0.5, 5]) yield* Metric.update(h.pipe(Metric.tagged("route", "/a")), v)
      yield* Metric.update(h.pipe(Metric.tagged("route", "/b")), 0.5)
      const text = yield* renderOwn
      const family = checkExposition(text).find((f) => f.name === `${PREFIX}latency_seconds`)
      expect(family?.type).toBe("histogram")
      const bucketsOf = (route: string) =>
        family?.samples
          .filter((s) => s.name.endsWith("_bucket") && s.labels.some(([k, v]) => k === "route" && v === route))
          .map((s) => [s.labels.find(([k]) => k === "le")?.[1], s.value])
      expect(bucketsOf("/a")).toEqual([["0.1", 1], ["1", 2], ["+Inf", 3]])
      expect(bucketsOf("/b")).toEqual([["0.1", 0], ["1", 1], ["+Inf", 1]])
    }))

  it.effect("a counter that may go down (not incremental, like effect_fiber_active) is typed gauge; counters end in _total", () =>
    Effect.gen(function*() {
      const upDown = Metric.counter(`${PREFIX}active`)
      const up = Metric.counter(`${PREFIX}started`, { incremental: true })
      yield* Metric.update(upDown, 3)
      yield* Metric.update(upDown, -2)
      yield* Metric.update(up, 1)
      const families = checkExposition(yield* renderOwn)
      expect(families.find((f) => f.name === `${PREFIX}active`)).toMatchObject({ type: "gauge", samples: [{ value: 1 }] })
      // Counters are named with the `_total` suffix Prometheus queries expect.
      expect(families.find((f) => f.name === `${PREFIX}started_total`)?.type).toBe("counter")
    }))

  it.effect("one name used by two kinds of metric gives two well-formed families, nothing lost", () =>
    Effect.gen(function*() {
      yield* Metric.set(Metric.gauge(`${PREFIX}shared`), 7)
      yield* Metric.update(Metric.histogram(`${PREFIX}shared`, MetricBoundaries.fromIterable([1])), 2)
      const families = checkExposition(yield* renderOwn).filter((f) => f.name.startsWith(`${PREFIX}shared`))
      expect(families.map((f) => f.type).sort()).toEqual(["gauge", "histogram"])
      expect(families.find((f) => f.type === "gauge")?.samples.map((s) => s.value)).toEqual([7])
      expect(families.find((f) => f.type === "histogram")?.samples.find((s) => s.name.endsWith("_sum"))?.value).toBe(2)
    }))

  it.effect("summaries, frequencies and awkward label values stay valid", () =>
    Effect.gen(function*() {
      const summary = Metric.summary({
        name: `${PREFIX}summary`,
        maxAge: "1 minute",
        maxSize: 10,
        error: 0.01,
        quantiles: [0.5, 0.99]
      })
      yield* Metric.update(summary, 2)
      yield* Metric.update(Metric.frequency(`${PREFIX}frequency`), "a \"quoted\"\nvalue\\")
      const families = checkExposition(yield* renderOwn)
      expect(families.find((f) => f.name === `${PREFIX}summary`)?.type).toBe("summary")
      expect(families.find((f) => f.name === `${PREFIX}frequency_total`)?.samples[0]?.labels).toEqual([["key", "a \\\"quoted\\\"\\nvalue\\\\"]])
    }))
})

describe("GET /metrics", () => {
  layer(App, { excludeTestServices: true })((it) => {
    it.effect("after real traffic, the whole served text is valid exposition", () =>
      Effect.gen(function*() {
        const { token } = yield* signedIn()
        yield* call("POST", "/v1/quote", {
          token,
          json: { pickup: { latitude: 48.85, longitude: 2.35 }, destination: { latitude: 48.86, longitude: 2.3 } }
        })
        yield* call("GET", "/no-such-path")
        yield* call("GET", "/v1/customer/me", { token: "not-a-token" })
        const r = yield* call("GET", "/metrics")
        expect(r.status).toBe(200)
        const families = checkExposition(r.text)
        const duration = families.find((f) => f.name === "ridequote_http_request_duration_seconds")
        expect(duration?.type).toBe("histogram")
        expect(duration?.samples.filter((s) => s.name.endsWith("_bucket") && s.labels.some(([, v]) => v === "+Inf")).length)
          .toBeGreaterThanOrEqual(3)
        expect(families.find((f) => f.name === "ridequote_http_requests_total")?.type).toBe("counter")
      }))
  })
})
