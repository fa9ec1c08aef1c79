/**
 * A trip dated before the earliest rule a market knows: priced on that rule with a note (the
 * default), or refused as `no-rule-for-date` where the file says the earlier rule is known to
 * differ (`define.beforeFirstRule: "refuse"`). The date is the trip's local date in the
 * market's time zone, and a market whose rules are read on first use refuses the same way.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { definedMarket, loadMarketModels, marketDataOf, parseTariff } from "@ridequote/markets"
import type { Market } from "@ridequote/core"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { suppliedTrip } from "./trips.js"

const AIRPORT = { latitude: 32.8968, longitude: -97.038 }
const DOWNTOWN = { latitude: 32.7767, longitude: -96.797 }

const fileText = (beforeFirstRule?: "refuse" | "price-on-first"): string =>
  JSON.stringify({
    format: "ridequote-tariff",
    version: 1,
    market: "before",
    currency: "USD",
    define: {
      name: "Before (one rule, first seen 2026-01-25)",
      timeZone: "America/Chicago",
      area: { kind: "bbox", south: 32.6, west: -97.2, north: 33.0, east: -96.5 },
      ...(beforeFirstRule === undefined ? {} : { beforeFirstRule })
    },
    zones: { airport: { kind: "circle", latitude: AIRPORT.latitude, longitude: AIRPORT.longitude, radiusKm: 2 } },
    tariffs: [{
      provider: "cab",
      serviceLevel: "Standard",
      versions: [{
        name: "rates seen 2026-01-25",
        effectiveFrom: "2026-01-25",
        source: { authority: "test", rule: "test", url: "https://example.org" },
        meter: {
          initial: 3, initialKm: 0, distance: [{ fromKm: 0, unitKm: 1, price: 2 }],
          time: { runs: "never", unitSeconds: 60, price: 0 }, units: "completed"
        },
        tolls: "included"
      }]
    }]
  })

const marketOf = (beforeFirstRule?: "refuse" | "price-on-first"): Market => {
  const m = definedMarket(Either.getOrThrow(parseTariff("before.json", fileText(beforeFirstRule))))
  if (m === undefined) throw new Error("no market")
  return m
}
const tripAt = (m: Market, iso: string) => suppliedTrip(m, AIRPORT, DOWNTOWN, 10, 20)(iso)

describe("a trip before the earliest rule", () => {
  it("refused where the file says so: no offer, and the market says why (no-rule-for-date, naming both dates)", () => {
    const m = marketOf("refuse")
    const before = tripAt(m, "2024-01-01T12:00:00-06:00")
    expect(m.offers(before)).toEqual([])
    const why = m.unoffered?.(before)
    expect(why?.reason).toBe("no-rule-for-date")
    expect(why?.message).toBe("market before knows no rule in force on 2024-01-01: its earliest known rule is in force from 2026-01-25")
    // On and after the first day: priced on the rule, with nothing to explain.
    const on = tripAt(m, "2026-01-25T00:30:00-06:00")
    expect(m.offers(on).map((o) => o.distribution.quantile(0.5))).toEqual([23])
    expect(m.unoffered?.(on)).toBeUndefined()
  })

  it("the local date decides: 2026-01-25 03:00 UTC is still 2026-01-24 in Dallas", () => {
    const m = marketOf("refuse")
    expect(m.offers(tripAt(m, "2026-01-25T03:00:00Z"))).toEqual([])
    expect(m.unoffered?.(tripAt(m, "2026-01-25T03:00:00Z"))?.message).toContain("no rule in force on 2026-01-24")
    expect(m.offers(tripAt(m, "2026-01-25T06:00:00Z"))).toHaveLength(1)
  })

  it("by default (and with price-on-first) priced on the earliest rule, the note saying so; no refusal of its own", () => {
    for (const m of [marketOf(), marketOf("price-on-first")]) {
      const [offer] = m.offers(tripAt(m, "2024-01-01T12:00:00-06:00"))
      expect(offer?.distribution.quantile(0.5)).toBe(23)
      expect(offer?.source?.level?.evidence).toContain("the trip's date 2024-01-01 is before the earliest rule known for this market")
      // It may explain other refusals (a change window), but not this date: it prices it.
      expect(m.unoffered?.(tripAt(m, "2024-01-01T12:00:00-06:00"))).toBeUndefined()
    }
  })

  it.effect("a market whose rules are read on first use refuses the same way", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "rq-before-"))
      try {
        writeFileSync(join(dir, "before-tariff.json"), fileText("refuse"))
        const data = marketDataOf(yield* loadMarketModels(dir, { rulesOnFirstUse: true }).pipe(Effect.provide(NodeFileSystem.layer)), undefined)
        const m = yield* data.marketAt(DOWNTOWN)
        const before = tripAt(m, "2024-01-01T12:00:00-06:00")
        expect(m.offers(before)).toEqual([])
        expect(m.unoffered?.(before)?.reason).toBe("no-rule-for-date")
        expect(m.offers(tripAt(m, "2026-12-08T11:00:00-06:00"))).toHaveLength(1)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }))
})
