/**
 * The market of a pickup is found through a 1° cell index (`marketFinder`): the same market a
 * scan of every loaded market in order finds, wherever the point is — inside a market, at the
 * edges of its box, in a zone a defined market also serves beyond its area (SFO), or nowhere.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Coordinates } from "@ridequote/core"
import { loadMarketModels, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { boxOf, contains } from "../src/internal/Area.js"
import { marketFinder } from "../src/internal/MarketsLive.js"
import type { ServedMarket } from "../src/internal/MarketsLive.js"
import { parseTariff } from "../src/internal/tariff/TariffFile.js"
import { definedMarket } from "../src/internal/tariff/TariffMarket.js"

const markets = await Effect.runPromise(loadMarketModels(SHIPPED_MARKETS_DIR).pipe(Effect.provide(NodeFileSystem.layer)))

/**
 * The oracle: every market in order, each asked whether it serves the point — a defined market
 * by its own `serves`, a fitted one in its model's area or at an airport its tariff lists (in
 * that airport's zone: Logan lies outside Boston's box).
 */
const scan = (p: Coordinates): ServedMarket | undefined =>
  markets.find((m) => {
    if (!("model" in m)) return m.serves(p)
    const zones = m.tariffs?.locate(p)
    return contains(m.model.area, p) || (m.tariffs?.document.airports ?? []).some((a) => zones?.has(a.zone) === true)
  })

const find = marketFinder(markets)

describe("the market of a pickup, through the cell index", () => {
  it("is the one a scan of every market finds: around each market's box, and anywhere on Earth", () => {
    const near = markets.map((m) => {
      const box = boxOf("model" in m ? m.model.area : m.area)
      // A degree around the box: the edges, the cells beside it, and zones beyond the area.
      return fc.record({
        latitude: fc.double({ min: Math.max(-90, box.south - 1), max: Math.min(90, box.north + 1), noNaN: true }),
        longitude: fc.double({ min: Math.max(-180, box.west - 1), max: Math.min(180, box.east + 1), noNaN: true })
      })
    })
    const anywhere = fc.record({
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true })
    })
    fc.assert(fc.property(fc.oneof(anywhere, ...near), (p) => find(p)?.id === scan(p)?.id), { numRuns: 20_000 })
  })

  it("lists a market in the cells of the zones it also serves beyond its area, however far (an airport two degrees away)", () => {
    const json = JSON.parse(readFileSync(join(SHIPPED_MARKETS_DIR, "san-francisco-tariff.json"), "utf8")) as {
      zones: Record<string, { latitude?: number; longitude?: number }>
    }
    // The SFO zone moved two degrees south-east: another cell than the city's.
    json.zones["sfo"] = { ...json.zones["sfo"], latitude: 35.6189, longitude: -120.375 }
    const moved = definedMarket(Either.getOrThrow(parseTariff("sf-moved", JSON.stringify(json))))
    if (moved === undefined) throw new Error("not a defined market")
    const airport = { latitude: 35.6189, longitude: -120.375 }
    expect(moved.serves(airport)).toBe(true)
    expect(marketFinder([moved])(airport)?.id).toBe("san-francisco")
    expect(marketFinder([moved])({ latitude: 35.6189, longitude: -121.5 })).toBeUndefined()
  })

  it("lists a market in the cells of every member of a union zone it also serves (two airports, in two far cells)", () => {
    const json = JSON.parse(readFileSync(join(SHIPPED_MARKETS_DIR, "san-francisco-tariff.json"), "utf8")) as {
      zones: Record<string, unknown>
      define: { alsoServes: Array<string> }
    }
    // SFO moved a degree and a half south, Oakland's airport as a second circle two degrees east;
    // the market also serves their union, and neither member by name.
    json.zones["sfo"] = { kind: "circle", latitude: 36.1189, longitude: -122.375, radiusKm: 2 }
    json.zones["oak"] = { kind: "circle", latitude: 37.7126, longitude: -120.2197, radiusKm: 2 }
    json.zones["airports"] = { kind: "union", of: ["sfo", "oak"] }
    json.define.alsoServes = ["airports"]
    const parsed = parseTariff("sf-union", JSON.stringify(json))
    if (Either.isLeft(parsed)) throw new Error(String(parsed.left))
    const market = definedMarket(parsed.right)
    if (market === undefined) throw new Error("not a defined market")
    const findIn = marketFinder([market])
    for (const airport of [{ latitude: 36.1189, longitude: -122.375 }, { latitude: 37.7126, longitude: -120.2197 }]) {
      expect(market.serves(airport)).toBe(true)
      expect(findIn(airport)?.id).toBe("san-francisco")
    }
    // 10 km from each airport, in the same cells: not served.
    expect(findIn({ latitude: 36.21, longitude: -122.375 })).toBeUndefined()
    expect(findIn({ latitude: 37.7126, longitude: -120.1 })).toBeUndefined()
  })

  it("finds a fitted market at an airport its tariff lists outside its box (Logan for Boston), as the scan does", () => {
    // The point the random search once found (fast-check seed −2039535386): in Logan's zone, east of Boston's box.
    const logan = { latitude: 42.3479, longitude: -71.0053 }
    expect(find(logan)?.id).toBe("boston")
    expect(scan(logan)?.id).toBe("boston")
  })

  it("finds a defined market's zone beyond its area (SFO for San Francisco) and each market's own centre", () => {
    const sfo = { latitude: 37.6152, longitude: -122.39 }
    expect(find(sfo)?.id).toBe("san-francisco")
    for (const m of markets) {
      const box = boxOf("model" in m ? m.model.area : m.area)
      const centre = { latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2 }
      expect(find(centre)?.id, m.id).toBe(scan(centre)?.id)
    }
    expect(find({ latitude: 90, longitude: 180 })).toBeUndefined()
    expect(find({ latitude: -90, longitude: -180 })).toBeUndefined()
  })
})
