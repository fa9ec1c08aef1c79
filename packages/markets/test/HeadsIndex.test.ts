/**
 * The shipped folder's heads decoded ahead of time (models/heads.jsonl, HeadsIndex.ts): the
 * checked-in index is what the tariff files give, a folder read by heads gives the same heads
 * with it as without it, and a line that no longer matches its file is not used.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { loadMarketModels, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HEADS_INDEX_FILE, parseHeadsIndex, sameJson } from "../src/internal/tariff/HeadsIndex.js"
import type { TariffHead } from "../src/internal/tariff/TariffFile.js"
import { headsIndexOfFolder } from "../scripts/heads-index.js"

const loadByHeads = (dir: string) => loadMarketModels(dir, { rulesOnFirstUse: true }).pipe(Effect.provide(NodeFileSystem.layer))

/** Each tariff-defined market's id and head, as a folder read by heads gives them. */
const headsOf = (dir: string) =>
  loadByHeads(dir).pipe(Effect.map((markets) => new Map<string, TariffHead>(markets.flatMap((m) => ("head" in m ? [[m.id, m.head] as const] : [])))))

/** A copy of the shipped folder's files (the index too, unless `withIndex` is false). */
const copyShipped = (withIndex: boolean): string => {
  const dir = mkdtempSync(join(tmpdir(), "rq-heads-"))
  for (const f of readdirSync(SHIPPED_MARKETS_DIR)) {
    if (f.endsWith(".json") || (withIndex && f === HEADS_INDEX_FILE)) copyFileSync(join(SHIPPED_MARKETS_DIR, f), join(dir, f))
  }
  return dir
}

describe("the shipped heads index", () => {
  it("is what the tariff files give (after changing a tariff file: pnpm markets:heads)", () => {
    const { entries, path, text } = headsIndexOfFolder(SHIPPED_MARKETS_DIR)
    expect(readFileSync(path, "utf8"), "models/heads.jsonl is stale: run pnpm markets:heads").toBe(text)
    // Every tariff file that defines a market has its line: fifty-five of the fifty-eight markets.
    const defining = readdirSync(SHIPPED_MARKETS_DIR).filter((f) => f.endsWith(".json") && "define" in (JSON.parse(readFileSync(join(SHIPPED_MARKETS_DIR, f), "utf8")) as object))
    expect(entries.map((e) => e.file)).toEqual(defining)
    expect(defining.length).toBeGreaterThanOrEqual(55)
  })

  it.effect("gives the same heads as decoding each file", () =>
    Effect.gen(function*() {
      const without = copyShipped(false)
      try {
        const indexed = yield* headsOf(SHIPPED_MARKETS_DIR)
        const decoded = yield* headsOf(without)
        expect(indexed.size).toBe(decoded.size)
        for (const [id, head] of decoded) expect(indexed.get(id), id).toEqual(head)
      } finally {
        rmSync(without, { recursive: true, force: true })
      }
    }))

  it.effect("is not used for a file whose head changed since, nor when it cannot be read", () =>
    Effect.gen(function*() {
      const dir = copyShipped(true)
      try {
        // Paris's area grows by 0.1° to the north; the index still has the old one.
        const file = join(dir, "paris-tariff.json")
        const json = JSON.parse(readFileSync(file, "utf8")) as { define: { area: { kind: string; north?: number } } }
        expect(json.define.area.kind).toBe("bbox")
        const north = (json.define.area.north ?? 0) + 0.1
        json.define.area.north = north
        writeFileSync(file, JSON.stringify(json))
        const heads = yield* headsOf(dir)
        expect((heads.get("paris")?.define.area as { north?: number }).north).toBe(north)
        // Other cities still read from the index: the same heads as the shipped folder's.
        expect(heads.get("madrid")).toEqual((yield* headsOf(SHIPPED_MARKETS_DIR)).get("madrid"))

        // And a line is taken as it stands when its file matches: the index is read, not re-derived
        // (which is why the first test keeps it equal to what the files decode to).
        const lines = readFileSync(join(dir, HEADS_INDEX_FILE), "utf8").split("\n").map((line) =>
          line.includes('"file":"madrid-tariff.json"') ? line.replace(/"head":\{(.*)"define":\{"name":"[^"]*"/, '"head":{$1"define":{"name":"Madrid (from the index)"') : line
        )
        writeFileSync(join(dir, HEADS_INDEX_FILE), lines.join("\n"))
        expect((yield* headsOf(dir)).get("madrid")?.define.name).toBe("Madrid (from the index)")

        // An index that is not the index's shape is ignored: every head decoded, the same heads.
        writeFileSync(join(dir, HEADS_INDEX_FILE), "{ not json\n")
        expect(parseHeadsIndex("{ not json\n").size).toBe(0)
        const again = yield* headsOf(dir)
        expect(again.get("paris")).toEqual(heads.get("paris"))
        expect(again.size).toBe(heads.size)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }))

  it("compares parsed JSON by value, key order aside", () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true)
    expect(sameJson([1, 2], [2, 1])).toBe(false)
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(sameJson({ a: [] }, { a: {} })).toBe(false)
    expect(sameJson(null, {})).toBe(false)
    expect(sameJson({ a: 0.1 + 0.2 }, { a: 0.3 })).toBe(false)
  })
})
