// Prints the quoted p5 / p50 / p95 and the version of each published-fare comparison trip.
// Usage: node packages/server/bin/ridequote.js backtest --input tools/markets/published/trips.jsonl --output OUT --quiet
//        node tools/markets/published/summary.mjs OUT
import { readFileSync } from "node:fs"
for (const line of readFileSync(process.argv[2] ?? "/dev/stdin", "utf8").split("\n")) {
  if (line.trim() === "") continue
  const q = JSON.parse(line)
  if (q.error !== undefined) { console.log(`${q.id}\tERROR ${q.error.code}: ${q.error.message}`); continue }
  for (const [key, p] of Object.entries(q.marketPrices)) {
    const o = q.offers[key] ?? {}
    const notes = [o.level?.evidence, o.tariff?.note].filter((x) => x !== undefined).map((x) => String(x).slice(0, 160))
    console.log(`${q.id}\t${key}\t${q.distanceKm} km ${q.durationMinutes} min\t${q.currency} ${p.p5} / ${p.p50} / ${p.p95}\tfrom ${o.tariff?.effectiveFrom}${notes.length ? "\t" + notes.join(" | ") : ""}`)
  }
}
