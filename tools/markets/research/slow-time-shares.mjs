// The table of `packages/markets/src/internal/tariff/SlowTime.ts`: the share of a trip's time
// spent below a meter's crossover speed, by average speed ÷ crossover, from the NYC yellow-taxi
// trips of 2019 (standard rate, the 2012 meter: $2.50 + $0.50 per 1/5 mile or per 60 s below
// 12 mph). Each trip's slow minutes follow from its fare: units = (fare − 2.50) ÷ 0.50 =
// 5 × fast miles + slow minutes, with fast miles = miles − slow minutes × 6 mph ÷ 60 (half the
// crossover as the pace of slow time, as `meterReading` assumes), so slow = (units − 5 × miles) ÷ 0.5.
// Prints, per knot of the table (trips binned halfway between knots): the number of trips, the
// raw 10th/50th/90th percentiles of the share, the same clamped to [0, 1], and the clamped
// percentiles made non-increasing in speed (pool-adjacent-violators, weighted by trips): a
// faster trip cannot spend a larger share of its time below the crossover than a slower one of
// the same population; where the raw values rise with speed it is the records' distance noise
// (a fare below what the distance alone costs gives a negative share). Research only.
//   node tools/markets/research/slow-time-shares.mjs
import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"

const FILE = new URL("../../../packages/calibration/fares/nyc-yellow-2019-monthly-10k-samples-zones.csv.gz", import.meta.url)
const RATIO = [0.05, 0.35, 0.55, 0.65, 0.75, 0.85, 0.95, 1.05, 1.25, 1.45, 1.65, 1.85, 2.05, 2.45, 2.85, 3.2]

const [head, ...lines] = gunzipSync(readFileSync(FILE)).toString("utf8").trim().split("\n")
const col = Object.fromEntries(head.split(",").map((name, i) => [name, i]))
const minutesBetween = (a, b) => (Date.parse(`${b.replace(" ", "T")}Z`) - Date.parse(`${a.replace(" ", "T")}Z`)) / 60_000

const trips = []
for (const line of lines) {
  const c = line.split(",")
  if (c[col.rate_code_id] !== "1") continue // the standard metered rate only
  const miles = Number(c[col.trip_distance]), fare = Number(c[col.fare_amount])
  const minutes = minutesBetween(c[col.pickup_datetime], c[col.dropoff_datetime])
  if (!(miles > 0) || !(minutes > 0) || !(fare >= 2.5)) continue
  const units = (fare - 2.5) / 0.5
  const slow = (units - 5 * miles) / 0.5
  trips.push({ ratio: miles / (minutes / 60) / 12, share: slow / minutes })
}

const quantile = (xs, q) => {
  const s = [...xs].sort((x, y) => x - y), i = (s.length - 1) * q, lo = Math.floor(i)
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo)
}
const clamp = (x) => Math.min(1, Math.max(0, x))
/** Weighted pool-adjacent-violators: the closest non-increasing sequence. */
const nonIncreasing = (values, weights) => {
  const blocks = []
  values.forEach((v, i) => {
    blocks.push({ value: v, weight: weights[i], count: 1 })
    while (blocks.length > 1 && blocks[blocks.length - 2].value < blocks[blocks.length - 1].value) {
      const b = blocks.pop(), a = blocks.pop()
      const weight = a.weight + b.weight
      blocks.push({ value: (a.value * a.weight + b.value * b.weight) / weight, weight, count: a.count + b.count })
    }
  })
  return blocks.flatMap((b) => Array(b.count).fill(b.value))
}

const bins = RATIO.map((r, i) => {
  const lo = i === 0 ? 0 : (RATIO[i - 1] + r) / 2
  const hi = i === RATIO.length - 1 ? r + (r - RATIO[i - 1]) / 2 : (r + RATIO[i + 1]) / 2
  return trips.filter((t) => t.ratio >= lo && t.ratio < hi).map((t) => t.share)
})
const levels = { p10: 0.1, p50: 0.5, p90: 0.9 }
const raw = Object.fromEntries(Object.entries(levels).map(([k, q]) => [k, bins.map((b) => quantile(b, q))]))
const fitted = Object.fromEntries(Object.keys(levels).map((k) => [k, nonIncreasing(raw[k].map(clamp), bins.map((b) => b.length))]))

const f = (x) => x.toFixed(2).padStart(6)
console.log(`${trips.length} trips (standard rate, 2019)`)
console.log("ratio      n |   raw p10    p50    p90 | clamped, non-increasing p10    p50    p90")
RATIO.forEach((r, i) => {
  console.log(
    `${r.toFixed(2).padStart(5)} ${String(bins[i].length).padStart(6)} | ${f(raw.p10[i])} ${f(raw.p50[i])} ${f(raw.p90[i])} |                    ${f(fitted.p10[i])} ${f(fitted.p50[i])} ${f(fitted.p90[i])}`
  )
})
console.log("\nAs SlowTime.ts's SHARE (two decimals):")
for (const k of Object.keys(levels)) console.log(`  ${k}: [${fitted[k].map((x) => Number(x.toFixed(2))).join(", ")}],`)
