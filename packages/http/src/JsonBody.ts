/**
 * Reading a JSON request body under the contract's rules (§1): a content type other than
 * JSON is 415, more than the body limit is 413 (declared by Content-Length or found while
 * reading a chunked body), bytes that are not UTF-8 or text that is not JSON are 400, and a
 * body that does not match the schema is 400 with one detail per field. Unknown fields are
 * refused, so a misspelt optional field cannot silently change a price.
 *
 * Handlers call this after authentication, which is what puts 401 before 400/413/415.
 */
import type { HttpServerRequest } from "@effect/platform"
import { InvalidRequest } from "@ridequote/core"
import { Effect, Schema, Stream } from "effect"
import { invalidRequestFromParseError } from "./FieldIssues.js"
import { PayloadTooLarge, UnsupportedMediaType } from "./HttpErrors.js"

/**
 * An oversized chunked body is still read (and thrown away) up to this many bytes, so the
 * client receives its 413; past it the connection is dropped instead.
 */
const DRAIN_LIMIT_FACTOR = 16

/** `application/json` or any `application/*+json`, parameters (charset) ignored. */
export const isJsonMediaType = (contentType: string): boolean => {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase()
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type)
}

const tooLarge = (maxBytes: number) =>
  new PayloadTooLarge({ message: `request body exceeds ${maxBytes} bytes` })

interface Read {
  readonly chunks: Array<Uint8Array>
  readonly bytes: number
}

const readBounded = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<Uint8Array, PayloadTooLarge | InvalidRequest> =>
  request.stream.pipe(
    Stream.runFoldWhile(
      { chunks: [], bytes: 0 } as Read,
      (read) => read.bytes <= maxBytes * DRAIN_LIMIT_FACTOR,
      (read, chunk): Read => {
        const bytes = read.bytes + chunk.length
        // Past the limit only the count grows: the bytes are not kept.
        if (bytes <= maxBytes) read.chunks.push(chunk)
        return { chunks: read.chunks, bytes }
      }
    ),
    Effect.mapError(() => new InvalidRequest({ message: "the request body could not be read" })),
    Effect.flatMap((read) => {
      if (read.bytes > maxBytes) return Effect.fail(tooLarge(maxBytes))
      const out = new Uint8Array(read.bytes)
      let at = 0
      for (const c of read.chunks) {
        out.set(c, at)
        at += c.length
      }
      return Effect.succeed(out)
    })
  )

/** No body of this API nests deeper than a few levels; deeper input is refused before decoding. */
const MAX_JSON_DEPTH = 32

/** Nesting depth of a parsed JSON value, without recursion (the input is untrusted). */
export const jsonDepth = (value: unknown): number => {
  let max = 0
  const stack: Array<readonly [unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const next = stack.pop()
    if (next === undefined) break
    const [v, depth] = next
    if (typeof v !== "object" || v === null) continue
    if (depth > max) max = depth
    if (max > MAX_JSON_DEPTH) return max
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1])
  }
  return max
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

const parseJson = (bytes: Uint8Array): Effect.Effect<unknown, InvalidRequest> =>
  Effect.try({
    try: () => JSON.parse(utf8.decode(bytes)) as unknown,
    catch: (e) =>
      new InvalidRequest({
        message: e instanceof TypeError ? "the request body is not valid UTF-8" : "the request body is not valid JSON"
      })
  })

export const readJsonBody = <A, I>(
  request: HttpServerRequest.HttpServerRequest,
  schema: Schema.Schema<A, I>,
  maxBytes: number
): Effect.Effect<A, InvalidRequest | PayloadTooLarge | UnsupportedMediaType> =>
  Effect.gen(function*() {
    const contentType = request.headers["content-type"]
    if (contentType !== undefined && !isJsonMediaType(contentType)) {
      return yield* new UnsupportedMediaType({ message: "send the body as Content-Type: application/json" })
    }
    const declared = request.headers["content-length"]
    if (declared !== undefined && /^[0-9]+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
      return yield* tooLarge(maxBytes)
    }
    const bytes = yield* readBounded(request, maxBytes)
    if (bytes.length === 0) {
      return yield* new InvalidRequest({ message: "a JSON request body is required" })
    }
    if (contentType === undefined) {
      return yield* new UnsupportedMediaType({ message: "send the body as Content-Type: application/json" })
    }
    const json = yield* parseJson(bytes)
    // Effect's issue formatting recurses into the offending value: keep that bounded.
    if (jsonDepth(json) > MAX_JSON_DEPTH) {
      return yield* new InvalidRequest({ message: `the request body nests deeper than ${MAX_JSON_DEPTH} levels` })
    }
    return yield* Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "error" })(json).pipe(
      Effect.mapError((e) => invalidRequestFromParseError("the request body", e))
    )
  })
