#!/usr/bin/env node
/**
 * The market catalogue, generated from the shipped tariff files (`pnpm docs:markets`):
 *
 * - `docs/markets.md`: one row per market (city, currency, authority, the rule in force and its
 *   effective date, source, airports with their fares), then ACI's fifty busiest airports of
 *   2024 (packages/markets/airports-aci-2024.json), served or not;
 * - `docs/img/markets-map.svg`: a world map (equirectangular: x = longitude, y = −latitude) with
 *   a 30° graticule, the markets, their airports, and the ACI airports no market serves.
 *
 * The date the rules are read at is an argument, never the wall clock: `--at YYYY-MM-DD`, or by
 * default the newest `effectiveFrom` of any version in the files (so the output changes only
 * when the files do). `--check` writes nothing and exits 1 if either file differs from what
 * would be generated (the test and CI use it; CI also regenerates and runs git diff).
 *
 * Plain Node (no TypeScript loader): it reads the JSON as written, the layout of
 * packages/markets/src/internal/tariff/TariffFile.ts, which the markets tests decode strictly.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const MODELS = join(ROOT, "packages/markets/models")
const ACI = join(ROOT, "packages/markets/airports-aci-2024.json")
const MARKDOWN = join(ROOT, "docs/markets.md")
const MAP = join(ROOT, "docs/img/markets-map.svg")
/** The reach a market has unless its file says otherwise (packages/markets, DEFAULT_REACH_KM). */
const DEFAULT_REACH_KM = 150

/** ISO 4217 minor units of the currencies a tariff may use (default 2). */
const MINOR_DIGITS = { JPY: 0, KRW: 0, IDR: 0, VND: 0, CLP: 0, ISK: 0, HUF: 2, TWD: 2 }

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"))

/** Every tariff file and every market model of the folder, by name order. */
const readFolder = (dir) => {
  const files = readdirSync(dir).filter((n) => n.endsWith(".json")).sort()
  const tariffs = []
  const models = new Map()
  for (const name of files) {
    const json = readJson(join(dir, name))
    if (json.format === "ridequote-tariff") tariffs.push({ file: name, doc: json })
    else if (json.format === "ridequote-market") models.set(json.id, json)
  }
  return { tariffs, models }
}

/** The newest effectiveFrom of any version: the default date. */
const newestVersionDate = (tariffs) =>
  tariffs.flatMap((t) => t.doc.tariffs.flatMap((p) => p.versions.map((v) => v.effectiveFrom))).sort().at(-1)

/** The version of a provider's rule in force on a local date (undefined before the first). */
const versionAt = (provider, date) => provider.versions.filter((v) => v.effectiveFrom <= date).at(-1)

/** A condition's dates hold on `date` (the other conditions are the trip's, not the day's). */
const datedIn = (when, date) => (when?.from === undefined || when.from <= date) && (when?.until === undefined || date < when.until)

const money = (currency, amount) => {
  const digits = MINOR_DIGITS[currency] ?? 2
  return `${currency} ${amount.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })}`
}

/** Markdown table cells carry no pipes or line breaks. */
const cell = (s) => String(s).replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ")

/** The zones a condition names at either end. */
const zonesOf = (when) => [
  ...(when?.pickupIn ?? []),
  ...(when?.dropoffIn ?? []),
  ...(when?.touches ?? []),
  ...(when?.between?.[0] ?? []),
  ...(when?.between?.[1] ?? [])
]

const hours = (when) => (when?.hours === undefined ? "" : ` ${when.hours.from}–${when.hours.to}`)

/** What a trip at an airport pays under one version: fixed fares, airport meters, surcharges and fees naming its zone. */
const airportRules = (version, zone, currency, date) => {
  const out = []
  const fares = (version.flatFares ?? []).filter((f) => (f.between[0].includes(zone) || f.between[1].includes(zone)) && datedIn(f.when, date))
  if (fares.length > 0 && fares.length <= 4) {
    for (const f of fares) out.push(`${f.name} ${money(currency, f.amount)}`)
  } else if (fares.length > 4) {
    const amounts = fares.map((f) => f.amount).sort((a, b) => a - b)
    out.push(`${fares.length} fixed fares, ${money(currency, amounts[0])}–${money(currency, amounts.at(-1))}`)
  }
  for (const m of version.meterVariants ?? []) if (zonesOf(m.when).includes(zone)) out.push(`meter: ${m.name}`)
  for (const c of [...(version.surcharges ?? []), ...(version.fees ?? [])]) {
    if (!zonesOf(c.when).includes(zone) || !datedIn(c.when, date)) continue
    const what = c.amount !== undefined ? money(currency, c.amount) : `+${c.percent} %`
    const end = c.when?.pickupIn?.includes(zone) ? " (pick-up)" : c.when?.dropoffIn?.includes(zone) ? " (drop-off)" : ""
    const open = c.unconfirmed === "flat" ? " (on a flat fare not confirmed: quoted with and without)" : c.unconfirmed === "all" ? " (not confirmed: quoted with and without)" : ""
    out.push(`${c.name}${end} ${what}${hours(c.when)}${open}`)
  }
  return [...new Set(out)]
}

/** One market: its name, area, currency, the rules in force on `date`, its airports with what they pay. */
const marketRow = ({ file, doc }, models, date) => {
  const model = models.get(doc.market)
  const name = doc.define?.name ?? model?.name ?? doc.market
  const area = doc.define?.area ?? model?.area
  const inForce = doc.tariffs.map((p) => ({ p, v: versionAt(p, date) }))
  const rules = [...new Map(inForce.filter(({ v }) => v !== undefined).map(({ p, v }) => [
    `${v.name}@${v.effectiveFrom}`,
    `${v.name} (from ${v.effectiveFrom}${v.changedAfter === undefined ? "" : v.between === "unread-version" ? `; a rule in force from ${v.changedAfter} was not read, trips between priced on both neighbours` : `; changed on a day not known after ${v.changedAfter}, trips between priced on both versions`})${v.caveat === undefined ? "" : ` — caveat: not everything confirmed (checked ${v.caveat.checked}; every offer carries what)`}`
  ])).values()]
  const authorities = [...new Set(inForce.filter(({ v }) => v !== undefined).map(({ v }) => v.source.authority))]
  const sources = [...new Set(inForce.filter(({ v }) => v !== undefined).map(({ v }) =>
    `${v.source.url}${v.source.reading === "secondary" ? " (secondary)" : ""}`))]
  const notYet = inForce.filter(({ v }) => v === undefined).map(({ p }) => `${p.provider}/${p.serviceLevel} (first rule ${p.versions[0].effectiveFrom})`)
  // Each provider's airport rules; labelled by provider where the market has several that differ.
  const airports = (doc.airports ?? []).map((a) => {
    const byProvider = inForce.filter(({ v }) => v !== undefined)
      .map(({ p, v }) => ({ provider: p.provider, rules: airportRules(v, a.zone, doc.currency, date) }))
      .filter((g) => g.rules.length > 0)
    const groups = new Map()
    for (const g of byProvider) {
      const key = g.rules.join(", ")
      groups.set(key, [...new Set([...(groups.get(key) ?? []), g.provider])])
    }
    const rules = groups.size <= 1
      ? byProvider[0]?.rules ?? []
      : [...groups].map(([text, providers]) => `${providers.join(", ")}: ${text}`)
    return { ...a, rules }
  })
  return {
    id: doc.market,
    file,
    name,
    currency: doc.currency,
    timeZone: doc.define?.timeZone ?? model?.timeZone ?? "",
    area,
    reachKm: doc.define?.reachKm ?? DEFAULT_REACH_KM,
    fitted: doc.define === undefined,
    rules,
    authorities,
    sources,
    notYet,
    airports
  }
}

/** The centre of an area (a box, or a polygon's bounding box). */
const centreOf = (area) => {
  if (area === undefined) return undefined
  if (area.kind === "bbox") return { latitude: (area.south + area.north) / 2, longitude: (area.west + area.east) / 2 }
  const lons = area.ring.map(([lon]) => lon)
  const lats = area.ring.map(([, lat]) => lat)
  return { latitude: (Math.min(...lats) + Math.max(...lats)) / 2, longitude: (Math.min(...lons) + Math.max(...lons)) / 2 }
}

const renderMarkdown = (rows, aci, date) => {
  const served = new Map(rows.flatMap((r) => r.airports.map((a) => [a.iata, r.id])))
  const lines = [
    "# Markets served",
    "",
    "<!-- Generated by tools/markets/catalogue.mjs (pnpm docs:markets) from packages/markets/models/*-tariff.json",
    "     and packages/markets/airports-aci-2024.json. Do not edit: CI regenerates it and fails on a difference. -->",
    "",
    `Rules in force on **${date}** (the newest effective date in the tariff files; \`pnpm docs:markets -- --at YYYY-MM-DD\``,
    "shows another day). A quote is priced on the rule in force at its own moment, whatever this page's date.",
    `${rows.length} markets in ${new Set(rows.map((r) => r.currency)).size} currencies; ` +
      `${aci.airports.filter((a) => served.has(a.iata)).length} of ACI's 50 busiest airports of 2024 served. ` +
      "How airports, \"at the airport\" and a market's reach work: [airports.md](airports.md). Map: [img/markets-map.svg](img/markets-map.svg).",
    "",
    "| Market | City | Currency | Authority | Rule in force (effective date) | Source | Airports and their fares | Reach |",
    "|---|---|---|---|---|---|---|---|"
  ]
  for (const r of rows) {
    const airports = r.airports.length === 0
      ? "—"
      : r.airports.map((a) => `**${a.iata}** ${a.name}${a.rules.length === 0 ? ": city meter" : `: ${a.rules.join("; ")}`}`).join("<br>")
    const rule = [...r.rules, ...r.notYet.map((n) => `not yet in force: ${n}`)].join("<br>")
    lines.push(`| \`${r.id}\` | ${cell(r.name)} | ${r.currency} | ${cell(r.authorities.join("; "))} | ${cell(rule)} | ${cell(r.sources.join(" "))} | ${cell(airports)} | ${r.reachKm} km |`)
  }
  lines.push(
    "",
    "## ACI's fifty busiest airports of 2024",
    "",
    `Source: ${aci.source.authority}, ${aci.source.publication} (${aci.source.reading} reading). ` +
      "Ranks 1–15 with ACI's published figures; below them, a rank is shown only where a dated report of ACI's ranking gives it " +
      `(${aci.airports.filter((a) => a.confirmed && a.rank > 15).map((a) => `${a.iata} ${a.rank}`).join(", ") || "none yet"}), and the rest of ranks 16–50 are a reconstruction whose order and ACI figures are not confirmed ` +
      "(listed by IATA code): see [airports.md](airports.md#the-list-and-its-source).",
    "",
    "| Rank | IATA | Airport | City | Passengers 2024 (M) | Served by |",
    "|---|---|---|---|---|---|"
  )
  for (const a of aci.airports) {
    const note = served.has(a.iata) ? undefined : cityNote(a.city)
    const notServed = note === undefined ? "not served" : `not served: [why](../packages/markets/models/sources/${note})`
    lines.push(`| ${a.rank ?? "—"} | ${a.iata} | ${cell(a.name)} | ${cell(a.city)} | ${a.passengersMillions ?? "—"} | ${served.has(a.iata) ? `\`${served.get(a.iata)}\`` : notServed} |`)
  }
  lines.push("")
  return lines.join("\n")
}

/**
 * The source note of a city (packages/markets/models/sources/<city>.md), which says why a city
 * researched and not shipped is not: by the city's name, then its first word ("Dallas–Fort
 * Worth" → dallas.md). Undefined where there is none.
 */
const cityNote = (city) => {
  const slug = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")
  const notes = new Set(readdirSync(join(MODELS, "sources")))
  for (const name of [slug(city), slug(city.split(/[\s–(-]/)[0] ?? "")]) if (notes.has(`${name}.md`)) return `${name}.md`
  return undefined
}

const W = 1440
const H = 720
const f1 = (n) => (Math.round(n * 10) / 10).toString()
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/**
 * A panel of the map: an equirectangular view of `bounds` (degrees) drawn at `left`, `top`,
 * `width` pixels wide, as tall as the bounds make it at that scale.
 */
const panel = (bounds, left, top, width) => {
  const scale = width / (bounds.east - bounds.west)
  const height = (bounds.north - bounds.south) * scale
  return {
    bounds, left, top, width, height,
    x: (longitude) => left + (longitude - bounds.west) * scale,
    y: (latitude) => top + (bounds.north - latitude) * scale,
    holds: (p) => p.longitude >= bounds.west && p.longitude <= bounds.east && p.latitude >= bounds.south && p.latitude <= bounds.north
  }
}

/** Where markets crowd, drawn again larger below the world: Europe, and East Asia. */
const INSETS = [
  { name: "Europe", bounds: { west: -10, east: 32, south: 35, north: 56 } },
  { name: "East Asia", bounds: { west: 100, east: 142, south: 18, north: 42 } }
]

/** One panel's points: ACI airports not served, markets, their airports; labels where `labelled` holds. */
const drawPoints = (out, view, rows, aci, served, labelled) => {
  const { x, y } = view
  for (const a of aci.airports.filter((a) => !served.has(a.iata) && view.holds(a))) {
    out.push(`<g class="aci-not-served"><title>${esc(`${a.iata} ${a.name} (ACI 2024${a.rank === null ? "" : ` #${a.rank}`}): not served`)}</title>` +
      `<circle cx="${f1(x(a.longitude))}" cy="${f1(y(a.latitude))}" r="3.5" fill="none" stroke="#999" stroke-width="1.2"/>` +
      (labelled(a) ? `<text x="${f1(x(a.longitude) + 5)}" y="${f1(y(a.latitude) + 3)}" fill="#999">${a.iata}</text>` : "") + "</g>")
  }
  for (const r of rows) {
    const c = centreOf(r.area)
    if (c !== undefined && view.holds(c)) {
      out.push(`<g class="market"><title>${esc(`${r.id}: ${r.name} (${r.currency})`)}</title>` +
        `<rect x="${f1(x(c.longitude) - 3.5)}" y="${f1(y(c.latitude) - 3.5)}" width="7" height="7" fill="#0b5fa5"/>` +
        (labelled(c) ? `<text x="${f1(x(c.longitude) - 5)}" y="${f1(y(c.latitude) - 6)}" fill="#0b5fa5" text-anchor="end" font-weight="bold">${esc(r.id)}</text>` : "") + "</g>")
    }
    r.airports.filter((a) => view.holds(a)).forEach((a, i) => {
      out.push(`<g class="airport-served"><title>${esc(`${a.iata} ${a.name}: served by ${r.id}`)}</title>` +
        `<circle cx="${f1(x(a.longitude))}" cy="${f1(y(a.latitude))}" r="3" fill="#d2691e"/>` +
        (labelled(a) ? `<text x="${f1(x(a.longitude) + 5)}" y="${f1(y(a.latitude) + 3 + i * 10)}" fill="#a0501a">${a.iata}</text>` : "") + "</g>")
    })
  }
}

const renderSvg = (rows, aci, date) => {
  const served = new Set(rows.flatMap((r) => r.airports.map((a) => a.iata)))
  const world = panel({ west: -180, east: 180, south: -90, north: 90 }, 0, 0, W)
  const gap = 20
  const insetWidth = (W - gap) / 2
  const insets = INSETS.map((inset, i) => ({ ...inset, view: panel(inset.bounds, i * (insetWidth + gap), H + gap, insetWidth) }))
  const insetsHeight = Math.max(...insets.map((i) => i.view.height))
  const total = H + gap + insetsHeight + 40
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${f1(total)}" width="${W}" height="${f1(total)}" font-family="sans-serif" font-size="10">`,
    `<title>ridequote markets and airports, rules in force on ${date}</title>`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#f4f8fb" stroke="#8aa"/>`
  ]
  // Graticule every 30°, the equator and the prime meridian a little stronger.
  for (let lon = -150; lon <= 150; lon += 30) {
    out.push(`<line x1="${f1(world.x(lon))}" y1="0" x2="${f1(world.x(lon))}" y2="${H}" stroke="${lon === 0 ? "#9bb" : "#d5e0e6"}" stroke-width="1"/>`)
  }
  for (let lat = -60; lat <= 60; lat += 30) {
    out.push(`<line x1="0" y1="${f1(world.y(lat))}" x2="${W}" y2="${f1(world.y(lat))}" stroke="${lat === 0 ? "#9bb" : "#d5e0e6"}" stroke-width="1"/>`)
  }
  for (let lon = -150; lon <= 150; lon += 30) out.push(`<text x="${f1(world.x(lon) + 2)}" y="${H - 4}" fill="#789">${lon}°</text>`)
  for (let lat = -60; lat <= 60; lat += 30) out.push(`<text x="2" y="${f1(world.y(lat) - 2)}" fill="#789">${lat}°</text>`)
  // The insets' frames on the world, named; points inside them are labelled in the insets only.
  for (const inset of insets) {
    const b = inset.bounds
    out.push(`<rect x="${f1(world.x(b.west))}" y="${f1(world.y(b.north))}" width="${f1(world.x(b.east) - world.x(b.west))}" ` +
      `height="${f1(world.y(b.south) - world.y(b.north))}" fill="none" stroke="#8aa" stroke-dasharray="3 2"/>`)
  }
  const inAnInset = (p) => insets.some((inset) => inset.view.holds(p))
  drawPoints(out, world, rows, aci, served, (p) => !inAnInset(p))
  for (const inset of insets) {
    const v = inset.view
    out.push(`<rect x="${f1(v.left)}" y="${f1(v.top)}" width="${f1(v.width)}" height="${f1(v.height)}" fill="#f4f8fb" stroke="#8aa"/>`)
    for (let lon = Math.ceil(v.bounds.west / 10) * 10; lon <= v.bounds.east; lon += 10) {
      out.push(`<line x1="${f1(v.x(lon))}" y1="${f1(v.top)}" x2="${f1(v.x(lon))}" y2="${f1(v.top + v.height)}" stroke="#d5e0e6"/>` +
        `<text x="${f1(v.x(lon) + 2)}" y="${f1(v.top + v.height - 4)}" fill="#789">${lon}°</text>`)
    }
    for (let lat = Math.ceil(v.bounds.south / 10) * 10; lat <= v.bounds.north; lat += 10) {
      out.push(`<line x1="${f1(v.left)}" y1="${f1(v.y(lat))}" x2="${f1(v.left + v.width)}" y2="${f1(v.y(lat))}" stroke="#d5e0e6"/>` +
        `<text x="${f1(v.left + 2)}" y="${f1(v.y(lat) - 2)}" fill="#789">${lat}°</text>`)
    }
    out.push(`<text x="${f1(v.left + v.width - 6)}" y="${f1(v.top + 14)}" text-anchor="end" font-size="12" font-weight="bold" fill="#567">${inset.name}</text>`)
    drawPoints(out, v, rows, aci, served, () => true)
  }
  // Legend.
  const ly = total - 16
  out.push(
    `<rect x="10" y="${f1(ly - 7)}" width="7" height="7" fill="#0b5fa5"/><text x="22" y="${f1(ly)}">market (centre of its area)</text>`,
    `<circle cx="200" cy="${f1(ly - 3.5)}" r="3" fill="#d2691e"/><text x="208" y="${f1(ly)}">airport served</text>`,
    `<circle cx="320" cy="${f1(ly - 3.5)}" r="3.5" fill="none" stroke="#999" stroke-width="1.2"/><text x="328" y="${f1(ly)}">ACI 2024 top 50, not served</text>`,
    `<text x="${W - 10}" y="${f1(ly)}" text-anchor="end" fill="#567">equirectangular projection, 30° graticule (insets 10°); rules in force on ${date}; generated by tools/markets/catalogue.mjs</text>`,
    "</svg>",
    ""
  )
  return out.join("\n")
}

/** The catalogue and the map for the files in `dir` at `date` (default: the newest version's date). */
export const render = ({ dir = MODELS, aciPath = ACI, at } = {}) => {
  const { tariffs, models } = readFolder(dir)
  const date = at ?? newestVersionDate(tariffs)
  const rows = tariffs.map((t) => marketRow(t, models, date)).sort((a, b) => (a.id < b.id ? -1 : 1))
  const aci = readJson(aciPath)
  return { date, markdown: renderMarkdown(rows, aci, date), svg: renderSvg(rows, aci, date) }
}

const main = (argv) => {
  const atIndex = argv.indexOf("--at")
  const at = atIndex >= 0 ? argv[atIndex + 1] : undefined
  if (at !== undefined && !/^\d{4}-\d\d-\d\d$/.test(at)) {
    console.error("--at takes a local date, YYYY-MM-DD")
    return 2
  }
  const { date, markdown, svg } = render({ at })
  if (argv.includes("--check")) {
    const stale = [[MARKDOWN, markdown], [MAP, svg]].filter(([path, text]) => {
      try {
        return readFileSync(path, "utf8") !== text
      } catch {
        return true
      }
    })
    for (const [path] of stale) console.error(`${path.slice(ROOT.length + 1)} is stale: run pnpm docs:markets and commit it`)
    return stale.length === 0 ? 0 : 1
  }
  mkdirSync(dirname(MAP), { recursive: true })
  writeFileSync(MARKDOWN, markdown)
  writeFileSync(MAP, svg)
  console.log(`docs/markets.md and docs/img/markets-map.svg: rules in force on ${date}`)
  return 0
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2))
}
