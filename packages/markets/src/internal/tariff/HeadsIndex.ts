/**
 * The shipped folder's tariff heads, decoded ahead of time (`models/heads.jsonl`).
 *
 * `serve` reads the shipped folder by heads (a city's `define`, zones and airports at start-up,
 * its rules on first use). Decoding fifty-five heads through the schema at start-up cost ~40 ms
 * of a ~0.8 s start (profiled on a 2-core host; the decoder runs cold there, about 1 ms a head),
 * most of what every city added to `serve`'s start over the ten markets of before. So the
 * package ships the heads already decoded: one JSON line per tariff file that defines a market,
 * `{ "file", "raw", "head" }` — the head's fields as the file writes them, and the head the
 * schema decodes from them.
 *
 * The index only saves work, it never decides anything: a head is taken from it only when the
 * file's own head fields are, value for value, the line's `raw`; any other file (edited, added,
 * or an index missing or unreadable) is decoded as before. What the lines say is checked by the
 * markets tests, which decode every shipped head and compare the index with what
 * `renderHeadsIndex` writes (`pnpm markets:heads` regenerates it after a tariff file changes).
 */
import { isDeepStrictEqual } from "node:util"
import { Either } from "effect"
import { TariffHead } from "./TariffFile.js"
import type { TariffInvalid } from "./TariffFile.js"

/** The index's name in a markets folder (not `*.json`: the folder's loader reads only those). */
export const HEADS_INDEX_FILE = "heads.jsonl"

/** A line of the index. */
export interface IndexedHead {
  readonly file: string
  readonly raw: Readonly<Record<string, unknown>>
  readonly head: TariffHead
}

/** The fields of a tariff file its head is decoded from (TariffHead's), as written; absent ones left out. */
export const rawHeadOf = (json: object): Record<string, unknown> => {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(TariffHead.fields)) {
    if (key in json) raw[key] = (json as Record<string, unknown>)[key]
  }
  return raw
}

/** Structural equality of two parsed JSON values (key order aside): Node's own deep equality. */
export const sameJson = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a, b)

/**
 * The index's lines by file name. Text that is not the index's shape gives an empty index (the
 * folder is then decoded head by head): the index is an optimisation, not a source of truth.
 */
export const parseHeadsIndex = (text: string): ReadonlyMap<string, IndexedHead> => {
  const lines = new Map<string, IndexedHead>()
  try {
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue
      const entry = JSON.parse(line) as Partial<IndexedHead>
      if (typeof entry.file !== "string" || typeof entry.raw !== "object" || entry.raw === null || typeof entry.head !== "object") {
        return new Map()
      }
      lines.set(entry.file, entry as IndexedHead)
    }
  } catch {
    return new Map()
  }
  return lines
}

/**
 * The head of a tariff file that defines a market: the index's, when its line for `file` holds
 * the very fields `json` has, else decoded (`decode`, the schema's).
 */
export const indexedHead = (
  index: ReadonlyMap<string, IndexedHead>,
  file: string,
  json: object,
  decode: () => Either.Either<TariffHead, TariffInvalid>
): Either.Either<TariffHead, TariffInvalid> => {
  const line = index.get(file)
  return line !== undefined && sameJson(line.raw, rawHeadOf(json)) ? Either.right(line.head) : decode()
}

/** The index's text for decoded heads: one line per file, in file-name order, ending in a newline. */
export const renderHeadsIndex = (entries: ReadonlyArray<IndexedHead>): string =>
  [...entries]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((e) => JSON.stringify({ file: e.file, raw: e.raw, head: e.head }))
    .join("\n") + "\n"
