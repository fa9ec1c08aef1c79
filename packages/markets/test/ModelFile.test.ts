import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { fitMarket, MODEL_VERSION, parseModel, renderModel } from "@ridequote/markets"
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
    expect(json["version"]).toBe(1)
  })

  it("rejects a model of another version, saying which", () => {
    const result = parseModel("m.json", edited((j) => { j["version"] = MODEL_VERSION + 1 }))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("unsupported model version 2")
  })

  it("rejects a file of another format", () => {
    expect(Either.isLeft(parseModel("m.json", edited((j) => { j["format"] = "something-else" })))).toBe(true)
  })

  it("rejects crossing quantiles", () => {
    const result = parseModel("m.json", edited((j) => {
      const providers = j["providers"] as Array<{ residuals: { supplied: Array<Array<number>> } }>
      const row = providers[0]?.residuals.supplied[0]
      if (row !== undefined) row[0] = (row[row.length - 1] ?? 1) + 1
    }))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("quantiles cross")
  })

  it("rejects a route profile whose roads are shorter than the great circle (detour factor < 1)", () => {
    const result = parseModel("m.json", edited((j) => { (j["routeProfile"] as { detourFactor: number }).detourFactor = 0.9 }))
    expect(Either.isLeft(result)).toBe(true)
  })

  it("rejects an unknown time zone", () => {
    const result = parseModel("m.json", edited((j) => { j["timeZone"] = "Mars/Olympus_Mons" }))
    expect(Either.isLeft(result)).toBe(true)
  })

  it("rejects text that is not JSON, naming the file", () => {
    const result = parseModel("markets/broken.json", "{ not json")
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("markets/broken.json")
  })
})
