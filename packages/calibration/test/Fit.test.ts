import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { arbitraryTrip } from "@ridequote/core/testing"
import { calibratedMarket, priceQuantile, renderModel, wallClock } from "@ridequote/markets"
import { evaluate, fitMarket } from "@ridequote/calibration"
import { fitOptions, syntheticTable, trueQuantile } from "./synthetic.js"

const table = syntheticTable(30_000)
const model = Either.getOrThrow(fitMarket(table, fitOptions))
// One date, one fee schedule: the synthetic market has a single tariff regime.
const regime = model.regimes[0]!

describe("fitting a market from trip records", () => {
  it("recovers known price quantiles of generated trips within 6 %", () => {
    const trips = [
      { km: 2, minutes: 8 },
      { km: 5, minutes: 15 },
      { km: 10, minutes: 30 },
      { km: 16, minutes: 48 }
    ]
    for (const provider of [0, 1]) {
      for (const { km, minutes } of trips) {
        for (const hour of [3, 8, 13, 18, 22]) {
          const quantileAt = priceQuantile(model, regime, provider, "supplied", km, minutes, wallClock(hour, 0, 3))
          for (const q of [0.05, 0.25, 0.5, 0.75, 0.95]) {
            const truth = trueQuantile(km, minutes, q)
            expect(Math.abs(quantileAt(q) / truth - 1)).toBeLessThan(0.06)
          }
        }
      }
    }
  })

  it("learns the route profile: the detour factor the trips were generated with", () => {
    expect(model.routeProfile.detourFactor).toBeCloseTo(1.3, 2)
    expect(model.routeProfile.speedKmhByHour).toHaveLength(24)
  })

  it("held-out coverage is within 3 points of nominal for supplied routes and 5 for inferred", () => {
    const result = evaluate(model, table)
    const nominal = { p5: 0.05, p25: 0.25, p50: 0.5, p75: 0.75, p95: 0.95 }
    for (const route of result.routes) {
      expect(route.rows).toBeGreaterThan(4000)
      const tolerance = route.route === "supplied" ? 0.03 : 0.05
      for (const [name, q] of Object.entries(nominal)) {
        expect(Math.abs((route.coverage[name] ?? Number.NaN) - q)).toBeLessThanOrEqual(tolerance)
      }
      expect(route.improvement).toBeGreaterThan(0.25)
    }
  })

  it("never fits on held-out rows: the held-out part is the same size and disjoint from training", () => {
    expect(model.provenance.trainingRows + model.provenance.heldOutRows).toBe(30_000)
    expect(model.provenance.heldOutRows / 30_000).toBeCloseTo(0.2, 1)
    expect(model.regimes).toHaveLength(1)
    const total = regime.providers.reduce((n, p) => n + p.trainingRows.supplied, 0)
    expect(total).toBe(model.provenance.trainingRows)
  })

  it("is deterministic: the same records give the same model file, byte for byte", () => {
    const again = Either.getOrThrow(fitMarket(syntheticTable(30_000), fitOptions))
    expect(renderModel(again)).toBe(renderModel(model))
  })

  it("pools providers below the minimum row count as \"other\"", () => {
    const small = syntheticTable(3_000, 7, ["big", "big", "big", "big", "big", "big", "big", "big", "tiny", ""])
    const fitted = Either.getOrThrow(fitMarket(small, { ...fitOptions, minProviderRows: 300 }))
    expect(fitted.providers.map((p) => p.provider)).toEqual(["big", "other"])
  })

  it("quantiles never cross, for any trip, route source and pair of levels", () => {
    const market = calibratedMarket(model)
    fc.assert(
      fc.property(arbitraryTrip, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (trip, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        for (const offer of market.offers(trip)) {
          const pLo = offer.distribution.quantile(lo)
          const pHi = offer.distribution.quantile(hi)
          expect(Number.isFinite(pLo) && pLo >= 0).toBe(true)
          expect(pHi).toBeGreaterThanOrEqual(pLo)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("widens the distribution for resolved routes (route uncertainty)", () => {
    const supplied = priceQuantile(model, regime, 0, "supplied", 8, 25, wallClock(13, 0, 3))
    const resolved = priceQuantile(model, regime, 0, "resolved", 8, 25, wallClock(13, 0, 3))
    expect(resolved(0.95) - resolved(0.05)).toBeGreaterThan(supplied(0.95) - supplied(0.05))
  })
})
