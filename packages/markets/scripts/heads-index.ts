/**
 * The shipped heads index as the tariff files give it: every tariff file of a folder that
 * defines a market, its head decoded by the schema (the generator, scripts/heads.ts, and the
 * test that keeps models/heads.jsonl current share it).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Either } from "effect"
import { HEADS_INDEX_FILE, rawHeadOf, renderHeadsIndex } from "../src/internal/tariff/HeadsIndex.js"
import type { IndexedHead } from "../src/internal/tariff/HeadsIndex.js"
import { decodeTariffHead, definesMarket, isTariffJson } from "../src/internal/tariff/TariffFile.js"

export const headsIndexOfFolder = (dir: string): { readonly text: string; readonly path: string; readonly entries: ReadonlyArray<IndexedHead> } => {
  const entries: Array<IndexedHead> = []
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const json = JSON.parse(readFileSync(join(dir, file), "utf8")) as unknown
    if (!isTariffJson(json) || !definesMarket(json)) continue
    const head = decodeTariffHead(file, json)
    if (Either.isLeft(head)) throw new Error(head.left.message)
    entries.push({ file, raw: rawHeadOf(json), head: head.right })
  }
  return { text: renderHeadsIndex(entries), path: join(dir, HEADS_INDEX_FILE), entries }
}
