import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { MODEL_VERSION, parseModel, renderModel } from "@ridequote/markets"
import { fitMarket } from "@ridequote/calibration"
import { fitOptions, syntheticTable } from "./synthetic.js"

const model = Either.getOrThrow(fitMarket(syntheticTable(3_000), fitOptions))
const text = renderModel(model)

const edited = (edit: (json: Record<string, unknown>) => void): string => {
  const json = JSON.parse(text) as Record<string, unknown>
  edit(json)
  return JSON.stringify(json)
}

describe("the market model file", () => {
  it("round-trips: render then parse gives the same model", () => {
    const parsed = Either.getOrThrow(parseModel("m.json", text))
    expect(parsed).toEqual(model)
    expect(renderModel(parsed)).toBe(text)
  })

  it("declares its format and version", () => {
    const json = JSON.parse(text) as Record<string, unknown>
    expect(json["format"]).toBe("ridequote-market")
    expect(json["version"]).toBe(3)
  })

  it("rejects a model of another version, saying which and how to get a current one", () => {
    for (const version of [MODEL_VERSION - 1, MODEL_VERSION + 1]) {
      const result = parseModel("m.json", edited((j) => { j["version"] = version }))
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left.message).toContain(`unsupported model version ${version}`)
        expect(result.left.message).toContain("market fit")
      }
    }
  })

  it("rejects regimes out of date order", () => {
    const result = parseModel("m.json", edited((j) => {
      const regimes = j["regimes"] as Array<{ effectiveFrom: string }>
      regimes.push({ ...(regimes[0] as { effectiveFrom: string }), effectiveFrom: "2000-01-01" })
    }))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("must start after the regime before it")
  })

  it("rejects a regime date that is not a calendar date", () => {
    const result = parseModel("m.json", edited((j) => {
      ;(j["regimes"] as Array<{ effectiveFrom: string }>)[0]!.effectiveFrom = "2019-02-30"
    }))
    expect(Either.isLeft(result)).toBe(true)
  })

  it("rejects a file of another format", () => {
    expect(Either.isLeft(parseModel("m.json", edited((j) => { j["format"] = "something-else" })))).toBe(true)
  })

  it("rejects crossing quantiles", () => {
    const result = parseModel("m.json", edited((j) => {
      const providers = (j["regimes"] as Array<{ providers: Array<{ residuals: { supplied: Array<Array<number>> } }> }>)[0]?.providers ?? []
      const row = providers[0]?.residuals.supplied[0]
      if (row !== undefined) row[0] = (row[row.length - 1] ?? 1) + 1
    }))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("quantiles cross")
  })

  it("rejects a negative or non-numeric residual ratio, and a malformed route cell pair", () => {
    for (const bad of [-0.5, "1.0", null]) {
      const result = parseModel("m.json", edited((j) => {
        const regimes = j["regimes"] as Array<{ providers: Array<{ residuals: { resolved: Array<Array<unknown>> } }> }>
        const row = regimes[0]?.providers[0]?.residuals.resolved[3]
        if (row !== undefined) row[0] = bad
      }))
      expect(Either.isLeft(result), String(bad)).toBe(true)
    }
    const pair = parseModel("m.json", edited((j) => {
      const routing = j["routing"] as { odCells: { pairs: Array<unknown> } }
      routing.odCells.pairs.push(["1:2", "1:3", 9, -1, 1])
    }))
    expect(Either.isLeft(pair)).toBe(true)
  })

  it("rejects a route profile whose roads are shorter than the great circle (detour factor < 1)", () => {
    const result = parseModel("m.json", edited((j) => { (j["routeProfile"] as { detourFactor: number }).detourFactor = 0.9 }))
    expect(Either.isLeft(result)).toBe(true)
  })

  it("rejects an unknown time zone", () => {
    const result = parseModel("m.json", edited((j) => { j["timeZone"] = "Mars/Olympus_Mons" }))
    expect(Either.isLeft(result)).toBe(true)
    // Asked twice: a refusal is not remembered as a success.
    expect(Either.isLeft(parseModel("m.json", edited((j) => { j["timeZone"] = "Mars/Olympus_Mons" })))).toBe(true)
  })

  it("accepts a time zone Intl knows by an alias its list of zones lacks (US/Eastern, Asia/Calcutta)", () => {
    for (const tz of ["US/Eastern", "Asia/Calcutta", "Asia/Kolkata", "America/New_York"]) {
      const result = parseModel("m.json", edited((j) => { j["timeZone"] = tz }))
      expect(Either.isRight(result), tz).toBe(true)
    }
  })

  it("rejects text that is not JSON, naming the file", () => {
    const result = parseModel("markets/broken.json", "{ not json")
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("markets/broken.json")
  })
})
