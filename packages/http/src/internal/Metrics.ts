/**
 * The service's metrics, kept in Effect's metric registry, and their rendering in the
 * Prometheus text format (0.0.4) for GET /metrics. Everything in the registry is rendered,
 * so metrics other packages register (e.g. `ridequote_audit_queue_depth`) appear too.
 */
import { Effect, Metric, MetricBoundaries, MetricKey, MetricLabel, MetricState, Option } from "effect"
import type { MetricPair } from "effect"

const REQUESTS_TOTAL = MetricKey.counter("ridequote_http_requests_total", {
  description: "HTTP requests answered, by route, method and status",
  incremental: true
})

const REQUEST_DURATION = MetricKey.histogram(
  "ridequote_http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  "Time from receiving a request to its response, by route and method"
)

const QUOTES_TOTAL = MetricKey.counter("ridequote_quotes_total", {
  description: "Quotes priced, by mode (Realtime or Scheduled)",
  incremental: true
})

/**
 * One metric per label set, built from its full key once and kept. `Metric.tagged` would
 * build a new key, hash it and look it up in the registry on every update (~2–3 % of a
 * request's CPU in the profiles of docs/performance.md); a metric made from its key caches
 * its registry entry.
 */
const byLabels = <M>(make: (labels: ReadonlyArray<string>) => M) => {
  const cache = new Map<string, M>()
  return (...labels: ReadonlyArray<string>): M => {
    const id = labels.join("\u0000")
    let metric = cache.get(id)
    if (metric === undefined) {
      metric = make(labels)
      cache.set(id, metric)
    }
    return metric
  }
}

const withLabels = <K extends MetricKey.MetricKey.Untyped>(key: K, names: ReadonlyArray<string>, values: ReadonlyArray<string>): K =>
  MetricKey.taggedWithLabels(key, names.map((name, i) => MetricLabel.make(name, values[i] ?? ""))) as K

const requestCounter = byLabels((v) => Metric.fromMetricKey(withLabels(REQUESTS_TOTAL, ["route", "method", "status"], v)))
const requestHistogram = byLabels((v) => Metric.fromMetricKey(withLabels(REQUEST_DURATION, ["route", "method"], v)))
const quoteCounter = byLabels((v) => Metric.fromMetricKey(withLabels(QUOTES_TOTAL, ["mode"], v)))

/** Records one answered request, outside any fiber (the Node host's hot routes). */
export const unsafeRecordRequest = (route: string, method: string, status: number, durationMs: number): void => {
  requestCounter(route, method, String(status)).unsafeUpdate(1, [])
  requestHistogram(route, method).unsafeUpdate(durationMs / 1000, [])
}

/** Records one answered request. */
export const recordRequest = (route: string, method: string, status: number, durationMs: number): Effect.Effect<void> =>
  Effect.sync(() => unsafeRecordRequest(route, method, status, durationMs))

/** Counts one quote by mode, outside any fiber step (it runs inside the quote's `map`). */
export const unsafeRecordQuote = (mode: string): void => quoteCounter(mode).unsafeUpdate(1, [])

// --- Prometheus text format -------------------------------------------------------------

const metricName = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[a-zA-Z_:]/.test(cleaned) ? cleaned : `_${cleaned}`
}

const labelName = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}

const escapeLabel = (value: string): string => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")

const escapeHelp = (value: string): string => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const labels = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.length === 0 ? "" : `{${pairs.map(([k, v]) => `${labelName(k)}="${escapeLabel(v)}"`).join(",")}}`

const num = (n: number | bigint): string =>
  typeof n === "bigint" ? n.toString() : Number.isNaN(n) ? "NaN" : n === Infinity ? "+Inf" : n === -Infinity ? "-Inf" : String(n)

type Kind = "counter" | "gauge" | "histogram" | "summary"

interface Family {
  readonly name: string
  readonly kind: Kind
  readonly help: string | undefined
  readonly lines: Array<string>
}

const tagsOf = (key: MetricKey.MetricKey.Untyped): Array<readonly [string, string]> =>
  key.tags.map((t) => [t.key, t.value] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/**
 * Effect's counters come in two kinds: incremental ones only go up, the others accept any
 * delta (Effect's own `effect_fiber_active` counts fibers up and down). Prometheus assumes a
 * counter never decreases and reads a decrease as a process restart, so only the incremental
 * ones are typed `counter`; the others are gauges.
 */
const counterKind = (key: MetricKey.MetricKey.Untyped): Kind => {
  const keyType: unknown = key.keyType
  return typeof keyType === "object" && keyType !== null && "incremental" in keyType && keyType.incremental === true
    ? "counter"
    : "gauge"
}

/**
 * Effect's runtime registers these without a description; a scraper's reader (and
 * `promtool check metrics`) expects every family to say what it counts.
 */
const RUNTIME_HELP: Readonly<Record<string, string>> = {
  effect_fiber_active: "Effect runtime: fibers running now",
  effect_fiber_started: "Effect runtime: fibers started",
  effect_fiber_successes: "Effect runtime: fibers that ended with a success",
  effect_fiber_failures: "Effect runtime: fibers that ended with a failure",
  effect_fiber_lifetimes: "Effect runtime: fiber lifetimes in milliseconds"
}

/**
 * Renders metric pairs as Prometheus text (format 0.0.4): one family per metric name, each
 * with at most one HELP and exactly one TYPE line followed by all of its samples.
 */
export const renderPrometheus = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, Family>()
  /**
   * Effect keys a metric by name, type and tags, so one name can carry two types (a counter
   * and a gauge both called `x`). A family has one type, so a later type gets its own family,
   * named after the kind, rather than mixing samples under a TYPE line that lies about them.
   */
  const family = (rawName: string, kind: Kind, description: Option.Option<string>): Family => {
    const cleaned = metricName(rawName)
    // A counter's name ends in `_total` by Prometheus convention (Effect's `effect_fiber_started`
    // does not); queries and alerts written for Prometheus expect it.
    const base = kind === "counter" && !cleaned.endsWith("_total") ? `${cleaned}_total` : cleaned
    for (let name = base, n = 0;; name = `${base}_${kind}${n === 1 ? "" : `_${n}`}`) {
      n++
      const existing = families.get(name)
      if (existing === undefined) {
        const help = Option.getOrElse(description, () => RUNTIME_HELP[rawName])
        const created: Family = { name, kind, help, lines: [] }
        families.set(name, created)
        return created
      }
      if (existing.kind === kind) return existing
    }
  }
  for (const pair of pairs) {
    const key = pair.metricKey
    const tags = tagsOf(key)
    const state: unknown = pair.metricState
    if (MetricState.isCounterState(state)) {
      const f = family(key.name, counterKind(key), key.description)
      f.lines.push(`${f.name}${labels(tags)} ${num(state.count)}`)
    } else if (MetricState.isGaugeState(state)) {
      const f = family(key.name, "gauge", key.description)
      f.lines.push(`${f.name}${labels(tags)} ${num(state.value)}`)
    } else if (MetricState.isHistogramState(state)) {
      const f = family(key.name, "histogram", key.description)
      // Effect's buckets are already cumulative, and its boundaries end with +Inf (added by
      // MetricBoundaries). The +Inf bucket is written once, from the count, whatever the
      // boundaries hold: a second one would make the whole exposition unparseable.
      for (const [bound, count] of state.buckets) {
        if (bound === Infinity) continue
        f.lines.push(`${f.name}_bucket${labels([...tags, ["le", num(bound)]])} ${count}`)
      }
      f.lines.push(`${f.name}_bucket${labels([...tags, ["le", "+Inf"]])} ${state.count}`)
      f.lines.push(`${f.name}_sum${labels(tags)} ${num(state.sum)}`)
      f.lines.push(`${f.name}_count${labels(tags)} ${state.count}`)
    } else if (MetricState.isSummaryState(state)) {
      const f = family(key.name, "summary", key.description)
      for (const [q, value] of state.quantiles) {
        f.lines.push(
          `${f.name}${labels([...tags, ["quantile", num(q)]])} ${Option.match(value, { onNone: () => "NaN", onSome: num })}`
        )
      }
      f.lines.push(`${f.name}_sum${labels(tags)} ${num(state.sum)}`)
      f.lines.push(`${f.name}_count${labels(tags)} ${state.count}`)
    } else if (MetricState.isFrequencyState(state)) {
      // A frequency counts occurrences per value, which only grow: one counter sample per value.
      const f = family(key.name, "counter", key.description)
      for (const [value, count] of state.occurrences) {
        f.lines.push(`${f.name}${labels([...tags, ["key", value]])} ${count}`)
      }
    }
  }
  const out: Array<string> = []
  for (const [name, f] of [...families].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (f.help !== undefined) out.push(`# HELP ${name} ${escapeHelp(f.help)}`)
    out.push(`# TYPE ${name} ${f.kind}`)
    out.push(...f.lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/** The whole registry, rendered. */
export const prometheusText: Effect.Effect<string> = Effect.map(Metric.snapshot, renderPrometheus)
