// How the generic route profile's durations (TARIFF_ROUTE_PROFILE = core's SAMPLE_ROUTE_PROFILE:
// great-circle km x 1.35, 1 min + km at the hour's speed) compare with real trip durations, by
// band of resolved distance, on the bundled records with points (NYC yellow 2016 with GPS,
// Chicago 2013-2016 between census-tract centroids). Research only: nothing reads its output.
//   node tools/markets/research/resolved-durations-by-distance.mjs
// Recorded in docs/notes/2026-12-06-resolved-durations-by-distance.md.
import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"

const FARES = new URL("../../../packages/calibration/fares/", import.meta.url)
// SAMPLE_ROUTE_PROFILE's speeds by local hour (km/h) and detour factor (docs/route-resolution.md).
const SPEED = [30, 32, 33, 34, 34, 32, 26, 21, 19, 20, 21, 21, 21, 21, 21, 20, 19, 18, 19, 21, 24, 26, 27, 29]
const DETOUR = 1.35
const BANDS = [[0, 2], [2, 5], [5, 10], [10, 20], [20, 40]]

const rows = (name) => {
  const [head, ...lines] = gunzipSync(readFileSync(new URL(name, FARES))).toString("utf8").trim().split("\n")
  const cols = head.split(",")
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])))
}
const greatCircleKm = (a, b, c, d) => {
  const rad = Math.PI / 180, dp = (c - a) * rad, dl = (d - b) * rad
  const h = Math.sin(dp / 2) ** 2 + Math.cos(a * rad) * Math.cos(c * rad) * Math.sin(dl / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h))
}
const quantile = (xs, q) => {
  const s = [...xs].sort((x, y) => x - y), i = (s.length - 1) * q, lo = Math.floor(i)
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo)
}

/** { band: [ratio real ÷ generic duration, real km/h] } for trips of 2–180 min, ends ≥ 0.3 km apart. */
const collect = (trips) => {
  const out = new Map(BANDS.map((b) => [b, []]))
  for (const t of trips) {
    if (!(t.minutes >= 2 && t.minutes <= 180) || ![t.a, t.b, t.c, t.d].every((x) => Number.isFinite(x) && x !== 0)) continue
    const km = greatCircleKm(t.a, t.b, t.c, t.d) * DETOUR
    if (km < 0.3) continue
    const generic = 1 + (km / SPEED[t.hour]) * 60
    const band = BANDS.find(([lo, hi]) => km >= lo && km < hi)
    if (band !== undefined) out.get(band).push([t.minutes / generic, (t.realKm / (t.minutes - 1)) * 60])
  }
  return out
}

const nyc = ["01", "02", "03"].flatMap((m) => rows(`nyc-yellow-2016-${m}-head-sample-coords.csv.gz`)).map((r) => ({
  a: Number(r.pickup_latitude), b: Number(r.pickup_longitude), c: Number(r.dropoff_latitude), d: Number(r.dropoff_longitude),
  minutes: (Date.parse(r.tpep_dropoff_datetime.replace(" ", "T") + "Z") - Date.parse(r.tpep_pickup_datetime.replace(" ", "T") + "Z")) / 60000,
  hour: Number(r.tpep_pickup_datetime.slice(11, 13)), realKm: Number(r.trip_distance) * 1.609344
}))
const chicago = rows("chicago-taxi-2013-2016-tfx-sample-15k.csv.gz").map((r) => ({
  a: Number(r.pickup_latitude), b: Number(r.pickup_longitude), c: Number(r.dropoff_latitude), d: Number(r.dropoff_longitude),
  minutes: Number(r.trip_seconds) / 60, hour: Number(r.trip_start_hour), realKm: Number(r.trip_miles) * 1.609344
}))

console.log("| city | resolved km | trips | real ÷ generic duration p10 / p50 / p90 | real speed p50 km/h |")
console.log("|---|---|---:|---|---:|")
for (const [city, trips] of [["nyc", nyc], ["chicago", chicago]]) {
  for (const [band, xs] of collect(trips)) {
    const r = xs.map((x) => x[0]), v = xs.map((x) => x[1])
    console.log(`| ${city} | ${band[0]}–${band[1]} | ${xs.length} | ${[0.1, 0.5, 0.9].map((q) => quantile(r, q).toFixed(2)).join(" / ")} | ${quantile(v, 0.5).toFixed(1)} |`)
  }
}
