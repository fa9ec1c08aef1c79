/**
 * A JSON object that names a key twice (`{"latitude":999,"latitude":40.7}`) is read by
 * `JSON.parse` as its last value, by other parsers as its first, and refused by some: a proxy
 * or a WAF in front of the service may have checked the other value. Such a body is refused
 * (400 naming the key) so that there is one reading of it (docs/security.md).
 *
 * `JSON.parse` cannot tell (the duplicate is gone from its result). `noRepeatedKeys` proves the
 * common case by counting: in valid JSON every `:` is a member's separator or inside a string,
 * so when the text has no escapes and as many colons as the parsed value has members plus colons
 * in its strings, no member was lost, hence no key was repeated (~0.1 µs for a quote body). Only
 * otherwise is the text scanned (`duplicateKey`, ~1 µs), which also names the key.
 */

/** Keys of one object, a small array up to this many, a Set beyond (hostile bodies with thousands of keys stay linear). */
const SMALL_OBJECT = 8

interface ObjectFrame {
  /** The key this object is the value of in its parent object, for the error's path. */
  readonly at: string | number | undefined
  keys: Array<string> | Set<string>
  /** True right after `{` or `,`: the next string is a key. */
  expectKey: boolean
  /** The last key read (the member whose value is being read). */
  lastKey: string | undefined
}

interface ArrayFrame {
  readonly at: string | number | undefined
  index: number
}

type Frame = ObjectFrame | ArrayFrame

const QUOTE = 34
const BACKSLASH = 92
const OPEN_OBJECT = 123
const CLOSE_OBJECT = 125
const OPEN_ARRAY = 91
const CLOSE_ARRAY = 93
const COMMA = 44

/** A key given twice in one object: the key and where that object is (its path from the root). */
export interface DuplicateKey {
  readonly key: string
  readonly path: ReadonlyArray<string | number>
}

/** The index of the quote that closes the string opening at `start`. */
const stringEnd = (text: string, start: number): number => {
  let end = start
  for (;;) {
    end = text.indexOf("\"", end + 1)
    if (end < 0) return text.length
    let backslashes = 0
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return end
  }
}

const isObject = (frame: Frame | undefined): frame is ObjectFrame => frame !== undefined && "keys" in frame

/** Adds `key` to the object's keys; false when it was already there. */
const addKey = (frame: ObjectFrame, key: string): boolean => {
  const keys = frame.keys
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return false
    keys.push(key)
    if (keys.length > SMALL_OBJECT) frame.keys = new Set(keys)
    return true
  }
  if (keys.has(key)) return false
  keys.add(key)
  return true
}

/**
 * The first key that some object of `text` (valid JSON, already parsed) gives twice, compared
 * after unescaping (`"l\u0061titude"` is `"latitude"`); undefined when there is none.
 */
export const duplicateKey = (text: string): DuplicateKey | undefined => {
  // No object, no key: arrays and scalars are done at once.
  if (text.indexOf("{") < 0) return undefined
  const stack: Array<Frame> = []
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const end = stringEnd(text, i)
      const top = stack[stack.length - 1]
      if (isObject(top) && top.expectKey) {
        const spelt = text.slice(i + 1, end)
        const key = spelt.indexOf("\\") < 0 ? spelt : (JSON.parse(text.slice(i, end + 1)) as string)
        if (!addKey(top, key)) return { key, path: stack.map((f) => f.at).slice(1).filter((p) => p !== undefined) }
        top.expectKey = false
        top.lastKey = key
      }
      i = end
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const parent = stack[stack.length - 1]
      const at = parent === undefined ? undefined : isObject(parent) ? parent.lastKey : parent.index
      stack.push(c === OPEN_OBJECT ? { at, keys: [], expectKey: true, lastKey: undefined } : { at, index: 0 })
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop()
    } else if (c === COMMA) {
      const top = stack[stack.length - 1]
      if (top === undefined) continue
      if (isObject(top)) top.expectKey = true
      else top.index++
    }
  }
  return undefined
}

/** Objects and strings examined by `noRepeatedKeys` before it gives up (and the scan decides). */
const COUNT_BUDGET = 256

/**
 * True when `text` (valid JSON) provably repeats no key of any object, given `value`, its
 * parse: no backslash in the text (each string's text is its value), and colons in the text =
 * members of the parsed value + colons inside its keys and strings. A repeated key makes the
 * parsed side smaller (a member and its strings are gone), so the equality cannot hold. False
 * means "scan to find out" (escapes, colons in strings lost, or a value too large to count).
 */
export const noRepeatedKeys = (text: string, value: unknown): boolean => {
  if (text.indexOf("\\") >= 0) return false
  let textColons = 0
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) textColons++
  let counted = 0
  let budget = COUNT_BUDGET
  const pending: Array<unknown> = [value]
  while (pending.length > 0) {
    const v = pending.pop()
    if (typeof v === "string") {
      if (v.length > 0) for (let at = v.indexOf(":"); at >= 0; at = v.indexOf(":", at + 1)) counted++
      continue
    }
    if (typeof v !== "object" || v === null) continue
    if (--budget < 0) return false
    if (Array.isArray(v)) {
      for (const item of v) pending.push(item)
      continue
    }
    for (const key in v) {
      counted++
      if (key.indexOf(":") >= 0) pending.push(key)
      pending.push((v as Record<string, unknown>)[key])
    }
    if (counted > textColons) return false
  }
  return counted === textColons
}
