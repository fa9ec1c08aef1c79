/**
 * The reliability plot: observed coverage against nominal level for each percentile, one
 * line per split and route source, per market, as a self-contained SVG (no fonts or scripts
 * from elsewhere). A calibrated model sits on the diagonal; the shaded bands are the targets
 * (±3 points with a supplied route, ±5 inferred).
 */
import type { Evaluation } from "./Evaluation.js"
import type { RideHailEvaluation } from "./RideHailEvaluation.js"
import { EVALUATION_LEVELS, routeName } from "./Evaluation.js"

const W = 360, H = 360, M = { left: 48, right: 16, top: 36, bottom: 44 }
const PLOT_W = W - M.left - M.right, PLOT_H = H - M.top - M.bottom
const x = (q: number) => M.left + q * PLOT_W
const y = (c: number) => M.top + (1 - c) * PLOT_H
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const COLORS = { supplied: "#1f6fb4", resolved: "#d1631a" } as const

/** The shaded target band of ± `tolerance` around the diagonal, clipped to the plot. */
const targetBand = (tolerance: number, fill: string): string => {
  const pts = [[0, tolerance], [1, 1 + tolerance], [1, 1 - tolerance], [0, -tolerance]].map(([a, b]) =>
    `${x(a ?? 0).toFixed(1)},${y(Math.min(1, Math.max(0, b ?? 0))).toFixed(1)}`
  )
  return `<polygon points="${pts.join(" ")}" fill="${fill}" stroke="none"/>`
}

/** A panel's frame, diagonal, percentile ticks on both axes and the nominal axis's label. */
const axes = (): Array<string> => {
  const parts = [
    `<rect x="${M.left}" y="${M.top}" width="${PLOT_W}" height="${PLOT_H}" fill="none" stroke="#444"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#888" stroke-dasharray="4 3"/>`
  ]
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<text x="${x(t)}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="10">${t * 100}</text>`)
    parts.push(`<text x="${M.left - 6}" y="${y(t) + 3}" text-anchor="end" font-size="10">${t * 100}</text>`)
  }
  parts.push(`<text x="${M.left + PLOT_W / 2}" y="${H - 8}" text-anchor="middle" font-size="11">nominal percentile</text>`)
  return parts
}

/** The SVG document: panels side by side on white, the legend underneath. */
const svgDocument = (width: number, panels: ReadonlyArray<string>, legend: ReadonlyArray<string>): string =>
  [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H + 44}" viewBox="0 0 ${width} ${H + 44}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...panels,
    ...legend,
    "</svg>",
    ""
  ].join("\n")

const panel = (market: string, evaluations: ReadonlyArray<Evaluation>, dx: number): string => {
  const parts: Array<string> = [`<g transform="translate(${dx},0)">`]
  parts.push(`<text x="${M.left + PLOT_W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(market)}</text>`)
  // Target bands around the diagonal: ±5 (inferred) under ±3 (supplied).
  parts.push(targetBand(0.05, "#f6e3d6"), targetBand(0.03, "#d9e6f2"))
  parts.push(...axes())
  parts.push(
    `<text transform="translate(12,${M.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" font-size="11">share of real prices at or below (%)</text>`
  )
  for (const e of evaluations) {
    for (const r of e.routes) {
      const color = COLORS[r.route]
      const dash = e.split === "random" ? ` stroke-dasharray="2 2"` : ""
      const pts = EVALUATION_LEVELS.map(([name, q]) => `${x(q).toFixed(1)},${y(r.coverage[name] ?? 0).toFixed(1)}`)
      const title = esc(`${e.split} ${e.scoredOn.from} ${routeName(r.route)}`)
      parts.push(`<polyline points="${pts.join(" ")}" fill="none" stroke="${color}" stroke-width="1.2" opacity="0.8"${dash}><title>${title}</title></polyline>`)
      for (const p of pts) {
        const [px, py] = p.split(",")
        parts.push(`<circle cx="${px}" cy="${py}" r="2" fill="${color}"/>`)
      }
    }
  }
  parts.push("</g>")
  return parts.join("\n")
}

/** One panel per market, a legend underneath. */
export const reliabilitySvg = (evaluations: ReadonlyArray<Evaluation>): string => {
  const markets = [...new Set(evaluations.map((e) => e.market))]
  const width = Math.max(1, markets.length) * W
  const legendY = H + 14
  const legend = [
    `<line x1="20" y1="${legendY}" x2="44" y2="${legendY}" stroke="${COLORS.supplied}" stroke-width="2"/>`,
    `<text x="50" y="${legendY + 4}" font-size="11">supplied route (target ±3 points)</text>`,
    `<line x1="250" y1="${legendY}" x2="274" y2="${legendY}" stroke="${COLORS.resolved}" stroke-width="2"/>`,
    `<text x="280" y="${legendY + 4}" font-size="11">inferred route (target ±5 points)</text>`,
    `<text x="20" y="${legendY + 22}" font-size="11">solid: forward splits (one line per cut date); dotted: random split</text>`
  ]
  return svgDocument(width, markets.map((m, i) => panel(m, evaluations.filter((e) => e.market === m), i * W)), legend)
}

/** Distinct colours for the service levels of one provider's panel. */
const LEVEL_COLORS = ["#1f6fb4", "#d1631a", "#2a9d3a", "#b5179e", "#7a5c00", "#00838f", "#c62828", "#555"] as const

/**
 * Reliability per provider of a ride-hail market: one panel per provider, one line per
 * service level (solid: route inferred from the coordinates; dotted: the provider's own
 * route distance); shaded: the ±5 point target.
 */
export const productReliabilitySvg = (evaluation: RideHailEvaluation): string => {
  const providers = [...new Set(evaluation.products.map((p) => p.provider))]
  const levels = [...new Set(evaluation.products.map((p) => p.serviceLevel))]
  const colorOf = (level: string) => LEVEL_COLORS[levels.indexOf(level) % LEVEL_COLORS.length] ?? "#000"
  const panels = providers.map((provider, k) => {
    const parts: Array<string> = [`<g transform="translate(${k * W},0)">`]
    parts.push(`<text x="${M.left + PLOT_W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(`${evaluation.market}: ${provider}`)}</text>`)
    parts.push(targetBand(0.05, "#e8e8e8"))
    parts.push(...axes())
    for (const p of evaluation.products.filter((e) => e.provider === provider)) {
      const color = colorOf(p.serviceLevel)
      const dash = p.route === "supplied" ? ` stroke-dasharray="2 2"` : ""
      const line = EVALUATION_LEVELS.map(([name, q]) => `${x(q).toFixed(1)},${y(p.coverage[name] ?? 0).toFixed(1)}`)
      parts.push(`<polyline points="${line.join(" ")}" fill="none" stroke="${color}" stroke-width="1.2"${dash}><title>${esc(`${p.provider}/${p.serviceLevel} (${p.product}) ${routeName(p.route)}`)}</title></polyline>`)
    }
    parts.push("</g>")
    return parts.join("\n")
  })
  const width = Math.max(1, providers.length) * W
  const legendY = H + 14
  const legend = levels.map((level, i) =>
    `<line x1="${20 + i * 90}" y1="${legendY}" x2="${36 + i * 90}" y2="${legendY}" stroke="${colorOf(level)}" stroke-width="2"/><text x="${40 + i * 90}" y="${legendY + 4}" font-size="11">${esc(level)}</text>`
  )
  legend.push(`<text x="20" y="${legendY + 22}" font-size="11">solid: route inferred from the coordinates; dotted: the provider's route distance; shaded: ±5 points</text>`)
  return svgDocument(width, panels, legend)
}
