/**
 * A small RFC 4180 reader for one line at a time: quoted fields with doubled quotes, CRLF
 * tolerated. Trip records never embed line breaks in a field, so lines are records.
 */

export const parseCsvLine = (line: string): Array<string> => {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line
  if (!text.includes('"')) return text.split(",")
  const out: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i++
        } else quoted = false
      } else field += c
    } else if (c === '"') quoted = true
    else if (c === ",") {
      out.push(field)
      field = ""
    } else field += c
  }
  out.push(field)
  return out
}

/** Column positions by lower-cased header name, so sources can accept several spellings. */
export const headerIndex = (header: ReadonlyArray<string>): ReadonlyMap<string, number> =>
  new Map(header.map((h, i) => [h.trim().toLowerCase(), i] as const))

/** Position of the first of `names` present in the header, or -1. */
export const column = (index: ReadonlyMap<string, number>, ...names: ReadonlyArray<string>): number => {
  for (const n of names) {
    const i = index.get(n.toLowerCase())
    if (i !== undefined) return i
  }
  return -1
}

/** A numeric field; blank or malformed is NaN (callers decide whether that rejects the row). */
export const numberAt = (fields: ReadonlyArray<string>, i: number): number => {
  if (i < 0) return Number.NaN
  const raw = fields[i]
  if (raw === undefined) return Number.NaN
  const s = raw.trim()
  return s === "" ? Number.NaN : Number(s)
}

/** A numeric field where blank means zero (surcharges that did not exist yet). */
export const amountAt = (fields: ReadonlyArray<string>, i: number): number => {
  const x = numberAt(fields, i)
  return Number.isNaN(x) ? 0 : x
}

export const textAt = (fields: ReadonlyArray<string>, i: number): string => (i < 0 ? "" : (fields[i] ?? "").trim())

/** 32-bit FNV-1a of a string: the deterministic key of a row for the train/held-out split. */
export const fnv1a = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
