/**
 * Reading a JSON request body under the API's rules (docs/api.md, "Errors"): a content type other than
 * JSON is 415, more than the body limit is 413 (declared by Content-Length or found while
 * reading a chunked body), bytes that are not UTF-8 or text that is not JSON are 400, and a
 * body that does not match the schema is 400 with one detail per field. Unknown fields are
 * refused, so a misspelt optional field cannot silently change a price.
 *
 * Handlers call this after authentication, which is what puts 401 before 400/413/415.
 */
import type { HttpServerRequest } from "@effect/platform"
import { InvalidRequest } from "@ridequote/core"
import { Effect, Either, Schema, Stream } from "effect"
import { duplicateKey, noRepeatedKeys } from "./DuplicateKeys.js"
import type { DuplicateKey } from "./DuplicateKeys.js"
import { fieldPath, invalidRequestFromParseError } from "./FieldIssues.js"
import { PayloadTooLarge, UnsupportedMediaType } from "../HttpErrors.js"

/**
 * An oversized chunked body is still read (and thrown away) up to this many bytes, so the
 * client receives its 413; past it the connection is dropped instead.
 */
const DRAIN_LIMIT_FACTOR = 16

/** `application/json` or any `application/*+json`, parameters (charset) ignored. */
export const isJsonMediaType = (contentType: string): boolean => {
  if (contentType === "application/json") return true
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase()
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type)
}

const tooLarge = (maxBytes: number) => new PayloadTooLarge({ message: `request body exceeds ${maxBytes} bytes` })

/**
 * A body being read under the limit, whatever transport delivers its chunks (Effect's
 * request stream, Node's `data` events): bytes up to the limit are kept, past it only
 * counted, and past DRAIN_LIMIT_FACTOR times the limit reading should stop.
 */
export const boundedBody = (maxBytes: number) => {
  const chunks: Array<Uint8Array> = []
  let bytes = 0
  return {
    /** Takes a chunk; false once reading should stop (the body is then too large anyway). */
    add: (chunk: Uint8Array): boolean => {
      bytes += chunk.length
      if (bytes <= maxBytes) chunks.push(chunk)
      return bytes <= maxBytes * DRAIN_LIMIT_FACTOR
    },
    /** The whole body, or 413 when it went past the limit. */
    result: (): Either.Either<Uint8Array, PayloadTooLarge> => {
      if (bytes > maxBytes) return Either.left(tooLarge(maxBytes))
      // A small body arrives in one chunk: it is the body.
      if (chunks.length === 1 && chunks[0] !== undefined) return Either.right(chunks[0])
      const out = new Uint8Array(bytes)
      let at = 0
      for (const c of chunks) {
        out.set(c, at)
        at += c.length
      }
      return Either.right(out)
    }
  }
}

const readBounded = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<Uint8Array, PayloadTooLarge | InvalidRequest> =>
  Effect.suspend(() => {
    const body = boundedBody(maxBytes)
    return request.stream.pipe(
      Stream.runFoldWhile(true, (more) => more, (_, chunk) => body.add(chunk)),
      Effect.mapError(() => new InvalidRequest({ message: "the request body could not be read" })),
      Effect.flatMap(() => body.result())
    )
  })

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

/** 400 naming the repeated key (when it looks like a field name: keys are the client's text, see FieldIssues). */
const duplicateKeyError = ({ key, path }: DuplicateKey): InvalidRequest => {
  const [named] = fieldPath([key])
  const shown = named === "<field>" ? "a key" : `the key "${key}"`
  return new InvalidRequest({
    message: `${shown} appears more than once in the same JSON object; send each key once`,
    details: [{ path: fieldPath([...path, key]), message: "repeated key" }]
  })
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

/**
 * The charset a JSON content type declares, if it declares one other than UTF-8 (RFC 8259 §8.1:
 * JSON exchanged between systems is UTF-8). Read as declared rather than as UTF-8 regardless,
 * so that a proxy that decoded `charset=latin1` and we never see different text.
 */
export const foreignCharset = (contentType: string): string | undefined => {
  const params = contentType.indexOf(";")
  if (params < 0) return undefined
  for (const param of contentType.slice(params + 1).split(";")) {
    const eq = param.indexOf("=")
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "charset") continue
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/s, "$1").toLowerCase()
    if (value !== "utf-8" && value !== "utf8") return value
  }
  return undefined
}

/**
 * A body error found from the headers alone, before any byte is read: 415 (not JSON, a charset
 * other than UTF-8, a content coding) or a declared 413. A compressed body is refused rather
 * than decoded: a request body is a few hundred bytes, and decoding would need its own limit
 * on the inflated size (a 64 KiB gzip bomb inflates to gigabytes).
 */
export const jsonHeadProblem = (
  contentType: string | undefined,
  contentLength: string | undefined,
  maxBytes: number,
  contentEncoding?: string | undefined
): UnsupportedMediaType | PayloadTooLarge | undefined => {
  if (contentType !== undefined && contentType !== "application/json") {
    if (!isJsonMediaType(contentType)) {
      return new UnsupportedMediaType({ message: "send the body as Content-Type: application/json" })
    }
    const charset = foreignCharset(contentType)
    if (charset !== undefined) {
      return new UnsupportedMediaType({ message: "send the JSON body in UTF-8 (charset=utf-8, or no charset)" })
    }
  }
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== "identity") {
    return new UnsupportedMediaType({ message: "send the body without Content-Encoding (identity): compressed bodies are not accepted" })
  }
  if (contentLength !== undefined && /^[0-9]+$/.test(contentLength.trim()) && Number(contentLength.trim()) > maxBytes) {
    return tooLarge(maxBytes)
  }
  return undefined
}

/**
 * The rules applied to a body read whole (within the limit): empty, no content type, not
 * UTF-8, not JSON, too deep, or not matching the schema. Pure, so every transport that reads
 * bodies (the HttpApi handlers, the Node host) applies exactly these rules.
 */
export const decodeJsonBytes = <A, I>(
  schema: Schema.Schema<A, I>,
  /** Accepts common valid shapes without the schema's parser; undefined = ask the schema (e.g. core's `acceptPlainQuoteRequest`). */
  accept?: (json: unknown) => A | undefined
) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
  return (bytes: Uint8Array, contentType: string | undefined): Either.Either<A, InvalidRequest | UnsupportedMediaType> => {
    if (bytes.length === 0) return Either.left(new InvalidRequest({ message: "a JSON request body is required" }))
    if (contentType === undefined) {
      return Either.left(new UnsupportedMediaType({ message: "send the body as Content-Type: application/json" }))
    }
    let json: unknown
    let text: string
    try {
      text = utf8.decode(bytes)
      json = JSON.parse(text)
    } catch (e) {
      return Either.left(
        new InvalidRequest({
          message: e instanceof TypeError ? "the request body is not valid UTF-8" : "the request body is not valid JSON"
        })
      )
    }
    // JSON.parse keeps a repeated key's last value, other readers its first: refused (DuplicateKeys.ts).
    if (!noRepeatedKeys(text, json)) {
      const duplicate = duplicateKey(text)
      if (duplicate !== undefined) return Either.left(duplicateKeyError(duplicate))
    }
    const accepted = accept?.(json)
    if (accepted !== undefined) return Either.right(accepted)
    // Effect's issue formatting recurses into the offending value: keep that bounded.
    if (jsonDepth(json) > MAX_JSON_DEPTH) {
      return Either.left(new InvalidRequest({ message: `the request body nests deeper than ${MAX_JSON_DEPTH} levels` }))
    }
    return Either.mapLeft(decode(json), (e) => invalidRequestFromParseError("the request body", e))
  }
}

export const readJsonBody = <A, I>(
  request: HttpServerRequest.HttpServerRequest,
  schema: Schema.Schema<A, I>,
  maxBytes: number,
  accept?: (json: unknown) => A | undefined
): Effect.Effect<A, InvalidRequest | PayloadTooLarge | UnsupportedMediaType> => {
  const decode = decodeJsonBytes(schema, accept)
  return Effect.gen(function*() {
    const contentType = request.headers["content-type"]
    const problem = jsonHeadProblem(
      contentType,
      request.headers["content-length"],
      maxBytes,
      request.headers["content-encoding"]
    )
    if (problem !== undefined) return yield* problem
    const bytes = yield* readBounded(request, maxBytes)
    return yield* decode(bytes, contentType)
  })
}
