/**
 * Checks that a text is valid Prometheus exposition (text format 0.0.4), beyond what a line
 * parser sees: `parse-prometheus-text-format` rejects malformed lines, and the checks below
 * reject what a scraper refuses or misreads although every line parses (a family typed twice
 * or split in two, a histogram with two +Inf buckets, buckets that are not cumulative).
 */
import parsePrometheusTextFormat from "parse-prometheus-text-format"

export interface Sample {
  readonly name: string
  readonly labels: ReadonlyArray<readonly [string, string]>
  readonly value: number
}

export interface CheckedFamily {
  readonly name: string
  readonly type: string
  readonly samples: Array<Sample>
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y

const parseValue = (raw: string): number =>
  raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : raw === "NaN" ? NaN : Number(raw)

const parseLabels = (raw: string | undefined, line: string): Array<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  if (raw === undefined || raw.trim() === "") return out
  LABEL.lastIndex = 0
  while (LABEL.lastIndex < raw.length) {
    const m = LABEL.exec(raw)
    if (m === null) throw new Error(`bad labels in: ${line}`)
    out.push([m[1] ?? "", m[2] ?? ""])
  }
  return out
}

/** Which family a sample name belongs to, given the families typed so far. */
const familyOf = (sample: string, current: CheckedFamily | undefined): boolean => {
  if (current === undefined) return false
  if (sample === current.name) return current.type !== "histogram"
  const suffixes = current.type === "histogram"
    ? ["_bucket", "_sum", "_count"]
    : current.type === "summary"
    ? ["_sum", "_count"]
    : []
  return suffixes.some((s) => sample === `${current.name}${s}`)
}

const key = (labels: ReadonlyArray<readonly [string, string]>, without: string): string =>
  JSON.stringify(labels.filter(([k]) => k !== without))

/** Throws with a reason when `text` is not valid exposition; returns its families otherwise. */
export const checkExposition = (text: string): Array<CheckedFamily> => {
  // 1. Every line must parse.
  const parsed = parsePrometheusTextFormat(text)
  // 2. Families: one TYPE each, declared before its samples, all samples contiguous.
  const families: Array<CheckedFamily> = []
  const seen = new Set<string>()
  let current: CheckedFamily | undefined
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ")) continue
    if (line.startsWith("# TYPE ")) {
      const [name = "", type = ""] = line.slice("# TYPE ".length).split(" ")
      if (seen.has(name)) throw new Error(`family ${name} has more than one TYPE line`)
      seen.add(name)
      current = { name, type, samples: [] }
      families.push(current)
      continue
    }
    if (line.startsWith("#")) continue
    const m = SAMPLE.exec(line)
    if (m === null) throw new Error(`not a sample line: ${line}`)
    const name = m[1] ?? ""
    if (!familyOf(name, current)) throw new Error(`sample ${name} is outside the family declared for it`)
    const labels = parseLabels(m[2], line)
    if (new Set(labels.map(([k]) => k)).size !== labels.length) throw new Error(`repeated label in: ${line}`)
    current?.samples.push({ name, labels, value: parseValue(m[3] ?? "") })
  }
  const parsedNames = parsed.map((f) => f.name)
  const typedNames = families.map((f) => f.name)
  if (JSON.stringify(parsedNames) !== JSON.stringify(typedNames)) {
    throw new Error(`the parser sees families ${parsedNames.join(",")} but the TYPE lines say ${typedNames.join(",")}`)
  }
  // 3. Histograms: per series, buckets in increasing `le`, cumulative, +Inf exactly once and
  //    equal to _count, and a _sum.
  for (const f of families.filter((f) => f.type === "histogram")) {
    const series = new Map<string, Array<Sample>>()
    for (const s of f.samples.filter((s) => s.name === `${f.name}_bucket`)) {
      const k = key(s.labels, "le")
      series.set(k, [...(series.get(k) ?? []), s])
    }
    for (const [k, buckets] of series) {
      const les = buckets.map((b) => parseValue(b.labels.find(([l]) => l === "le")?.[1] ?? "NaN"))
      const infinities = les.filter((le) => le === Infinity).length
      if (infinities !== 1) throw new Error(`${f.name}${k}: ${infinities} +Inf buckets`)
      for (let i = 1; i < buckets.length; i++) {
        if (!((les[i] ?? NaN) > (les[i - 1] ?? NaN))) throw new Error(`${f.name}${k}: le not increasing`)
        if ((buckets[i]?.value ?? NaN) < (buckets[i - 1]?.value ?? NaN)) throw new Error(`${f.name}${k}: buckets not cumulative`)
      }
      const count = f.samples.find((s) => s.name === `${f.name}_count` && key(s.labels, "") === k)
      if (count === undefined || count.value !== buckets[buckets.length - 1]?.value) {
        throw new Error(`${f.name}${k}: +Inf bucket differs from _count`)
      }
      if (!f.samples.some((s) => s.name === `${f.name}_sum` && key(s.labels, "") === k)) {
        throw new Error(`${f.name}${k}: no _sum`)
      }
    }
  }
  return families
}
