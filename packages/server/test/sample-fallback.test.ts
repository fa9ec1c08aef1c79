/**
 * `serve` prices only where a real market's data does, unless the operator turns the sample
 * fallback on (`--sample-fallback on` / RIDEQUOTE_SAMPLE_FALLBACK=on): a London pickup is a
 * 422 result:market-not-served by default, naming the nearest markets, and with the fallback a quote marked as sample data.
 * Every quote names its market; a Boston one its products and the records behind them.
 */
import { afterAll, describe, expect, it } from "vitest"
import { codeOf, createAccountWithCli, field, issueToken, quote, tokenOf } from "./support/Api.js"
import { PROCESS_TEST_TIMEOUT_MS, startServe, stopAll, tempDir } from "./support/Processes.js"

const dir = tempDir("sample-fallback")
afterAll(async () => {
  await stopAll()
  dir.remove()
})

const LONDON = { pickup: { latitude: 51.5072, longitude: -0.1276 }, destination: { latitude: 51.5155, longitude: -0.0922 } }
const BOSTON = { pickup: { latitude: 42.3647, longitude: -71.0542 }, destination: { latitude: 42.3467, longitude: -71.0972 } }

describe("serve and the sample market", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("default: a place no market covers is a 422 naming the nearest markets; the fallback on prices it as sample data; Boston quotes name their products", async () => {
    const database = dir.file("fallback.db")
    const account = await createAccountWithCli(database, "Fallback")
    const [strict, lenient] = await Promise.all([
      startServe({ RIDEQUOTE_DATABASE: database }),
      startServe({ RIDEQUOTE_DATABASE: database, RIDEQUOTE_SAMPLE_FALLBACK: "on" })
    ])
    const token = tokenOf(await issueToken(strict.url, account.apiKey, account.apiSecret))

    const refused = await quote(strict.url, token, LONDON)
    expect(refused.status).toBe(422)
    expect(codeOf(refused)).toBe("result:market-not-served")
    expect(String(field(refused.body, "message"))).toMatch(/^no market serves \(51\.5072, -0\.1276\); nearest: /)
    const nearest = field(refused.body, "nearest") as ReadonlyArray<{ id: string; name: string; distanceKm: number }>
    // Three markets, nearest first; from London the shipped Brussels, Paris (fixed fares from its
    // airports) and Amsterdam markets, ~310, ~335 and ~345 km to their boxes.
    expect(nearest).toHaveLength(3)
    expect(nearest.map((m) => m.distanceKm)).toEqual([...nearest.map((m) => m.distanceKm)].sort((a, b) => a - b))
    expect(nearest.map((m) => m.id).sort()).toEqual(["amsterdam", "brussels", "paris"])
    for (const m of nearest) {
      expect(m.distanceKm).toBeGreaterThan(280)
      expect(m.distanceKm).toBeLessThan(400)
    }

    const sample = await quote(lenient.url, token, LONDON)
    expect(sample.status).toBe(200)
    expect(field(sample.body, "market")).toMatchObject({ id: "global-sample", sampleData: true })

    const boston = await quote(strict.url, token, BOSTON)
    expect(boston.status).toBe(200)
    expect(field(boston.body, "market")).toMatchObject({ id: "boston", sampleData: false })
    const offers = field(boston.body, "offers") as Record<string, { product?: string; records?: { kind: string } }>
    expect(offers["uber/Standard"]?.product).toBe("UberX")
    expect(offers["lyft/Premium"]?.product).toBe("Lux Black")
    expect(offers["uber/Standard"]?.records?.kind).toBe("quotes")
    const recommendations = field(boston.body, "recommendations") as Record<string, unknown>
    expect(Object.keys(recommendations)).toEqual(["Shared", "Standard", "Comfort", "XL", "Premium", "PremiumXL", "Accessible"])
  })
})
