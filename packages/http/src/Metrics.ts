/**
 * The service's metrics, kept in Effect's metric registry, and their rendering in the
 * Prometheus text format (0.0.4) for GET /metrics. Everything in the registry is rendered,
 * so metrics other packages register (e.g. `ridequote_audit_queue_depth`) appear too.
 */
import { Effect, Metric, MetricBoundaries, MetricState, Option } from "effect"
import type { MetricKey, MetricPair } from "effect"

export const httpRequestsTotal = Metric.counter("ridequote_http_requests_total", {
  description: "HTTP requests answered, by route, method and status",
  incremental: true
})

export const httpRequestDuration = Metric.histogram(
  "ridequote_http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  "Time from receiving a request to its response, by route and method"
)

export const quotesTotal = Metric.counter("ridequote_quotes_total", {
  description: "Quotes priced, by mode (Realtime or Scheduled)",
  incremental: true
})

/** Records one answered request. */
export const recordRequest = (route: string, method: string, status: number, durationMs: number): Effect.Effect<void> =>
  Effect.zipRight(
    Metric.update(
      httpRequestsTotal.pipe(
        Metric.tagged("route", route),
        Metric.tagged("method", method),
        Metric.tagged("status", String(status))
      ),
      1
    ),
    Metric.update(
      httpRequestDuration.pipe(Metric.tagged("route", route), Metric.tagged("method", method)),
      durationMs / 1000
    )
  )

export const recordQuote = (mode: string): Effect.Effect<void> =>
  Metric.update(quotesTotal.pipe(Metric.tagged("mode", mode)), 1)

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
  readonly kind: Kind
  help: string | undefined
  readonly lines: Array<string>
}

const tagsOf = (key: MetricKey.MetricKey.Untyped): Array<readonly [string, string]> =>
  key.tags.map((t) => [t.key, t.value] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** Renders metric pairs as Prometheus text, one family (HELP, TYPE, samples) per metric name. */
export const renderPrometheus = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, Family>()
  const family = (name: string, kind: Kind, description: Option.Option<string>): Family => {
    let f = families.get(name)
    if (f === undefined) {
      f = { kind, help: Option.getOrUndefined(description), lines: [] }
      families.set(name, f)
    }
    return f
  }
  for (const pair of pairs) {
    const key = pair.metricKey
    const name = metricName(key.name)
    const tags = tagsOf(key)
    const state: unknown = pair.metricState
    if (MetricState.isCounterState(state)) {
      family(name, "counter", key.description).lines.push(`${name}${labels(tags)} ${num(state.count)}`)
    } else if (MetricState.isGaugeState(state)) {
      family(name, "gauge", key.description).lines.push(`${name}${labels(tags)} ${num(state.value)}`)
    } else if (MetricState.isHistogramState(state)) {
      const f = family(name, "histogram", key.description)
      for (const [bound, count] of state.buckets) {
        f.lines.push(`${name}_bucket${labels([...tags, ["le", num(bound)]])} ${count}`)
      }
      f.lines.push(`${name}_bucket${labels([...tags, ["le", "+Inf"]])} ${state.count}`)
      f.lines.push(`${name}_sum${labels(tags)} ${num(state.sum)}`)
      f.lines.push(`${name}_count${labels(tags)} ${state.count}`)
    } else if (MetricState.isSummaryState(state)) {
      const f = family(name, "summary", key.description)
      for (const [q, value] of state.quantiles) {
        f.lines.push(`${name}${labels([...tags, ["quantile", num(q)]])} ${Option.match(value, { onNone: () => "NaN", onSome: num })}`)
      }
      f.lines.push(`${name}_sum${labels(tags)} ${num(state.sum)}`)
      f.lines.push(`${name}_count${labels(tags)} ${state.count}`)
    } else if (MetricState.isFrequencyState(state)) {
      // A frequency counts occurrences per value: one counter sample per value.
      const f = family(name, "counter", key.description)
      for (const [value, count] of state.occurrences) {
        f.lines.push(`${name}${labels([...tags, ["key", value]])} ${count}`)
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
