/**
 * A markets folder (`--markets DIR`) is refused as a whole, with the file and the reason, when
 * its files do not fit together: an operator who adds a city learns what to fix before the
 * service starts, rather than a market silently missing or priced in the wrong currency.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadMarketModels, SHIPPED_MARKETS_DIR } from "@ridequote/markets"

/** A folder with some shipped files, each optionally rewritten (JSON in, JSON out), and extra files. */
const folder = (
  files: ReadonlyArray<string>,
  edit: Record<string, (doc: Record<string, unknown>) => unknown> = {},
  extra: Record<string, string> = {}
): string => {
  const dir = mkdtempSync(join(tmpdir(), "ridequote-markets-folder-"))
  for (const f of files) {
    const change = edit[f]
    if (change === undefined) copyFileSync(join(SHIPPED_MARKETS_DIR, f), join(dir, f))
    else writeFileSync(join(dir, f), JSON.stringify(change(JSON.parse(readFileSync(join(SHIPPED_MARKETS_DIR, f), "utf8")))))
  }
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text)
  return dir
}

/** The refusal's message (the test fails if the folder loads). */
const refusal = (dir: string) =>
  Effect.gen(function*() {
    const result = yield* Effect.either(loadMarketModels(dir))
    rmSync(dir, { recursive: true, force: true })
    if (Either.isRight(result)) throw new Error(`the folder loaded ${result.right.length} markets`)
    return result.left.message
  }).pipe(Effect.provide(NodeFileSystem.layer))

describe("a markets folder is refused with the file and the reason", () => {
  it.effect("serves a consistent folder (the control: the files below load as shipped)", () =>
    Effect.gen(function*() {
      const dir = folder(["chicago.json", "chicago-tariff.json", "tokyo-tariff.json"])
      const markets = yield* loadMarketModels(dir)
      rmSync(dir, { recursive: true, force: true })
      expect(markets.map((m) => m.id)).toEqual(["chicago", "tokyo"])
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("a folder that cannot be read", () =>
    Effect.gen(function*() {
      const message = yield* refusal(join(tmpdir(), "ridequote-no-such-folder-4f1c"))
      expect(message).toContain("cannot read the markets folder")
    }))

  it.effect("a file that is not JSON names the file", () =>
    Effect.gen(function*() {
      const message = yield* refusal(folder(["chicago.json"], {}, { "broken.json": "{ not json" }))
      expect(message).toContain("broken.json")
    }))

  it.effect("a model whose routes between places are malformed (checked in one pass) names the table", () =>
    Effect.gen(function*() {
      type Doc = { placePairs: { routes: Array<Array<Array<number>>> } }
      const withRoute = (row: Array<number>) => (doc: Record<string, unknown>) => {
        const d = doc as unknown as Doc
        d.placePairs.routes[0]?.splice(0, 1, row)
        return d
      }
      const good = (yield* Effect.either(loadMarketModels(folder(["boston.json"])))).pipe(Either.map((ms) => ms.map((m) => m.id)))
      expect(good).toEqual(Either.right(["boston"]))
      for (const bad of [[0, 1, 0, 3, 1.1], [0, 1, 4.2, 3, -1], [0.5, 1, 4.2, 3, 1.1], [0, 1, 4.2, 3]]) {
        const message = yield* refusal(folder(["boston.json"], { "boston.json": withRoute(bad) }))
        expect(message).toContain("boston.json")
        expect(message).toContain(`Expected RouteRow, actual ${JSON.stringify(bad)}`)
        // The row, not the whole table: the message stays readable.
        expect(message.length).toBeLessThan(2000)
      }
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("two tariff files for one market", () =>
    Effect.gen(function*() {
      const dir = folder(["chicago.json", "chicago-tariff.json"], {}, {
        "chicago-tariff-copy.json": readFileSync(join(SHIPPED_MARKETS_DIR, "chicago-tariff.json"), "utf8")
      })
      expect(yield* refusal(dir)).toContain(`a second tariff file for market "chicago"`)
    }))

  it.effect("a tariff for a market no model in the folder is", () =>
    Effect.gen(function*() {
      expect(yield* refusal(folder(["chicago-tariff.json"]))).toContain(`prices market "chicago", which no model in the folder is`)
    }))

  it.effect("a tariff for a provider the market does not have", () =>
    Effect.gen(function*() {
      const dir = folder(["chicago.json", "chicago-tariff.json"], {
        "chicago-tariff.json": (doc) => ({
          ...doc,
          tariffs: (doc["tariffs"] as Array<Record<string, unknown>>).map((t) => ({ ...t, provider: "other-cab" }))
        })
      })
      expect(yield* refusal(dir)).toContain(`tariff other-cab/Standard: market "chicago" has no such provider`)
    }))

  it.effect("a tariff in another currency than its market's", () =>
    Effect.gen(function*() {
      const dir = folder(["chicago.json", "chicago-tariff.json"], { "chicago-tariff.json": (doc) => ({ ...doc, currency: "EUR" }) })
      expect(yield* refusal(dir)).toContain("currency EUR is not the market's (USD)")
    }))

  it.effect("a tariff that defines a market a model already is", () =>
    Effect.gen(function*() {
      const dir = folder(["chicago.json", "tokyo-tariff.json"], { "tokyo-tariff.json": (doc) => ({ ...doc, market: "chicago" }) })
      expect(yield* refusal(dir)).toContain(`defines market "chicago", which a model in the folder already is`)
    }))
})
