/**
 * `ridequote markets list` (docs/operations.md, "Markets"): the markets `serve` would price on
 * with the same `--markets` and `--sample-fallback`, each with its area, currency, time zone and
 * what each offer's prices rest on; `--json` the listing of `GET /v1/markets` as one object.
 * Run in-process with a captured console.
 */
import { describe, expect, it } from "vitest"
import { runInProcess as run } from "./support/InProcessCli.js"

interface Listing {
  readonly at: string
  readonly markets: ReadonlyArray<{
    readonly id: string
    readonly sampleData: boolean
    readonly currency: string
    readonly timeZone: string
    readonly area: { readonly south: number; readonly west: number; readonly north: number; readonly east: number }
    readonly offers: ReadonlyArray<{ readonly key: string; readonly source: Record<string, unknown> }>
  }>
}

const listing = (stdout: string): Listing => {
  const lines = stdout.trim().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0] ?? "") as Listing
}

describe("ridequote markets list", () => {
  it("lists the shipped markets serve prices on by default, and no sample market unless the fallback is on", async () => {
    const r = await run(["markets", "list"])
    expect(r.ok, r.stderr).toBe(true)
    for (const line of ["nyc  New York City", "chicago  Chicago", "boston  Boston", "time zone America/New_York"]) {
      expect(r.stdout).toContain(line)
    }
    expect(r.stdout).toMatch(/yellow-taxi\/Standard\s+Yellow taxi; trips \d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d/)
    // What each offer rests on is written out: the rule with its date, how current the level is.
    expect(r.stdout).not.toContain("[object Object]")
    expect(r.stdout).toMatch(/yellow-taxi\/Standard .*tariff: TLC taximeter rate of fare \(2022\) \(from 2022-12-19\)/)
    expect(r.stdout).toMatch(/uber\/Standard .*level as of 2025-06-30 ×1\.354/)
    // A rule whose text was not read says what is unconfirmed (Chicago's 2026 rates, known from copies of the City's notice).
    expect(r.stdout).toMatch(/chicago-taxi\/Standard .*level as of 2026-07-01 \(caveat: The BACP notice .*last checked 2026-12-06\)/)
    // A product priced on flat fares alone is listed, though no plain trip gets it: Chicago's shared airport ride.
    expect(r.stdout).toMatch(/chicago-taxi\/Shared\s+Shared taxi from the airport cab stands \(per person\); tariff: .*\(from 2026-07-01\)/)
    expect(r.stdout).not.toContain("global-sample")
    // Each market's reach and airports, as GET /v1/markets lists them.
    expect(r.stdout).toMatch(/nyc  New York City\n  currency USD, time zone America\/New_York, area [^\n]*, reach 150 km\n  airports JFK New York John F\. Kennedy International \(40\.6413, -73\.7781\), LGA New York LaGuardia \(40\.7769, -73\.874\), EWR Newark Liberty International \(40\.6895, -74\.1745\)\n/)
    expect(r.stdout).toContain("airports SFO San Francisco International (37.6189, -122.375)")
    // The markets defined by a published tariff alone, each with its currency and time zone.
    for (const line of [
      "san-francisco  San Francisco", "tokyo  Tokyo", "berlin  Berlin", "toronto  Toronto", "singapore  Singapore",
      "amsterdam  Amsterdam and Schiphol", "hong-kong  Hong Kong", "currency EUR, time zone Europe/Amsterdam", "currency HKD, time zone Asia/Hong_Kong"
    ]) {
      expect(r.stdout).toContain(line)
    }
    expect(r.stdout).toMatch(/hk-taxi\/Standard\s+Urban taxi \(red\); tariff: Hong Kong urban taxi fare of 2024-07-14 .*\(from 2024-07-14\)/)
    expect(r.stdout).toMatch(/amsterdam-taxi\/XL\s+Taxibus .*\(from 2026-01-01\)/)
    const withFallback = await run(["markets", "list", "--sample-fallback", "on"])
    expect(withFallback.stdout).toContain("global-sample  Global sample market (sample data) (SAMPLE DATA: invented prices)")
    // The environment variables serve reads work here too.
    const fromEnv = await run(["markets", "list"], { RIDEQUOTE_SAMPLE_FALLBACK: "on" })
    expect(fromEnv.stdout).toContain("global-sample")
  })

  it("--json: one object {at, markets}, each market as GET /v1/markets gives it", async () => {
    const r = await run(["markets", "list", "--json", "--at", "2024-03-01T12:00:00+01:00"])
    expect(r.ok, r.stderr).toBe(true)
    const { at, markets } = listing(r.stdout)
    expect(at).toBe("2024-03-01T11:00:00.000Z")
    const nyc = markets.find((m) => m.id === "nyc")
    expect(nyc).toMatchObject({ sampleData: false, currency: "USD", timeZone: "America/New_York" })
    expect(nyc?.area.south).toBeLessThan(40.758)
    expect(nyc?.area.north).toBeGreaterThan(40.758)
    expect(nyc?.offers.map((o) => o.key)).toContain("yellow-taxi/Standard")
    expect(nyc).toMatchObject({ reachKm: 150, airports: [{ iata: "JFK" }, { iata: "LGA" }, { iata: "EWR" }] })
    // Hong Kong in March 2024 is on its 2022 scale: the basis is the rule of --at.
    const hk = markets.find((m) => m.id === "hong-kong")
    expect(hk).toMatchObject({ sampleData: false, currency: "HKD", timeZone: "Asia/Hong_Kong" })
    expect(hk?.offers.map((o) => [o.key, (o.source["tariff"] as { effectiveFrom?: string } | undefined)?.effectiveFrom])).toEqual([["hk-taxi/Standard", "2022-07-17"]])
    // A product priced on flat fares alone is not listed before its earliest rule (Chicago's shared ride: 2025-09-01).
    expect(markets.find((m) => m.id === "chicago")?.offers.map((o) => o.key)).toEqual(["chicago-taxi/Standard"])
  })

  it("--markets none: the sample market alone, on every place of the Earth", async () => {
    const r = await run(["markets", "list", "--markets", "none", "--json"])
    expect(r.ok, r.stderr).toBe(true)
    expect(listing(r.stdout).markets.map((m) => [m.id, m.timeZone, m.area])).toEqual([
      ["global-sample", "solar", { south: -90, west: -180, north: 90, east: 180 }]
    ])
  })

  it("an --at without a zone, or a folder that cannot be read, fails with the reason on stderr", async () => {
    const noZone = await run(["markets", "list", "--at", "2024-03-01T12:00:00"])
    expect(noZone.ok).toBe(false)
    expect(noZone.stderr).toContain("--at must be an ISO 8601 instant with a zone")
    const missing = await run(["markets", "list", "--markets", "/nonexistent/ridequote-markets"])
    expect(missing.ok).toBe(false)
    expect(missing.stderr).toContain("/nonexistent/ridequote-markets")
    expect(missing.stdout).toBe("")
  })
})
