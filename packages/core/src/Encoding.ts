/**
 * Encoders for values the engine produced itself (responses, audit entries), and decoders
 * for what it stored itself (audit entries read back), built once per schema.
 *
 * `Schema.encodeSync` walks the whole value and re-checks every refinement on the way out:
 * for a quote response (~20 prices, each a finite non-negative number) that cost five times
 * the `JSON.stringify` of the same value, the largest single item of a quote's CPU over HTTP
 * (docs/performance.md). Most of our schemas encode to exactly the value they hold — no
 * transformation anywhere — so their encoder is the identity; a struct with a transformation
 * in some fields (a `Timestamp`) encodes those fields with `Schema.encodeSync` and passes the
 * others through. The refinements are not re-checked on the way out: what we encode was
 * built by core, whose invariants the property tests check; what we decode from outside is
 * still checked in full.
 */
import { Schema, SchemaAST } from "effect"

/** True when encoding `ast` can change a value (a transformation or a declaration somewhere in it). */
export const transforms = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "Transformation":
    case "Declaration":
    case "Suspend":
      return true
    case "Refinement":
      return transforms(ast.from)
    case "Union":
      return ast.types.some(transforms)
    case "TupleType":
      return ast.elements.some((e) => transforms(e.type)) || ast.rest.some((r) => transforms(r.type))
    case "TypeLiteral":
      return ast.propertySignatures.some((p) => transforms(p.type)) ||
        ast.indexSignatures.some((s) => transforms(s.type))
    default:
      return false
  }
}

/** Strips refinements: a struct refined as a whole is still a struct underneath. */
const underlying = (ast: SchemaAST.AST): SchemaAST.AST => (ast._tag === "Refinement" ? underlying(ast.from) : ast)

const identity = (value: unknown): unknown => value

/**
 * Annotation for a transformation that knows a cheaper exact codec for trusted values (the
 * `Timestamp`: `Schema.encodeSync` ran its parser steps and `DateTime.formatIso` per field, ~2 %
 * of a quote). `encode` and `decode` must agree with the schema's own on every value core
 * builds and stores; the property tests in test/domain/Encoding.test.ts check that.
 */
export const TrustedCodecId: unique symbol = Symbol.for("@ridequote/core/TrustedCodec")

/** A cheaper exact encoder and decoder for values core built or stored itself (see TrustedCodecId). */
export interface TrustedCodec {
  readonly encode: (value: any) => unknown
  readonly decode: (stored: any) => unknown
}

type Direction = "encode" | "decode"

const codecOf = (ast: SchemaAST.AST, direction: Direction): (value: unknown) => unknown => {
  if (!transforms(ast)) return identity
  const trusted = ast.annotations[TrustedCodecId] as TrustedCodec | undefined
  if (trusted !== undefined) return direction === "encode" ? trusted.encode : trusted.decode
  const shape = underlying(ast)
  if (shape._tag === "TypeLiteral" && shape.indexSignatures.length === 0) {
    const fields = shape.propertySignatures.map((p) => ({ name: p.name, encode: codecOf(p.type, direction) }))
    return (value) => {
      const source = value as Record<PropertyKey, unknown>
      const out: Record<PropertyKey, unknown> = {}
      for (const { encode, name } of fields) {
        if (!(name in source)) continue
        const v = source[name]
        out[name] = v === undefined ? v : encode(v)
      }
      return out
    }
  }
  // An optional field's type: `X | undefined`.
  if (shape._tag === "Union" && shape.types.length === 2 && shape.types.some(SchemaAST.isUndefinedKeyword)) {
    const defined = shape.types.find((t) => !SchemaAST.isUndefinedKeyword(t))
    if (defined !== undefined) {
      const encode = codecOf(defined, direction)
      return (value) => (value === undefined ? value : encode(value))
    }
  }
  const schema = Schema.make<unknown, unknown, never>(ast)
  return direction === "encode" ? Schema.encodeSync(schema) : Schema.decodeUnknownSync(schema)
}

/**
 * The encoder of `schema` for trusted values: the identity when nothing in it transforms,
 * field by field through plain structs, `Schema.encodeSync` only for the parts that do.
 */
export const trustedEncoder = <A, I>(schema: Schema.Schema<A, I>): (value: A) => I =>
  codecOf(schema.ast, "encode") as (value: A) => I

/**
 * The decoder of `schema` for what `trustedEncoder` wrote to our own storage: transformations
 * are applied (a timestamp string becomes a `DateTime`), refinements are not re-checked. Never
 * for input from outside: requests are decoded with `Schema.decodeUnknown` in full.
 */
export const trustedDecoder = <A, I>(schema: Schema.Schema<A, I>): (stored: I) => A =>
  codecOf(schema.ast, "decode") as (stored: I) => A

// --- JSON text -------------------------------------------------------------------------------

type JsonWriter = (value: unknown) => string

/**
 * The JSON text of trusted values' largest parts (a quote's `recommendations` and
 * `marketPrices`, ~1.3 KB of numbers), per object. A quote writes the same objects twice — in
 * its audit entry, then in its response — and `JSON.stringify` of the two documents was ~8 % of
 * a quote's CPU. Sound because core's values are immutable once built (readonly all through);
 * a WeakMap, so a text lives exactly as long as its object.
 */
const sharedTexts = new WeakMap<object, string>()

const sharedJson = (value: unknown): string => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value)
  let text = sharedTexts.get(value)
  if (text === undefined) {
    text = JSON.stringify(value)
    sharedTexts.set(value, text)
  }
  return text
}

/** The property every member of a union of structs has as a distinct literal (`outcome`), if any. */
const discriminantOf = (members: ReadonlyArray<SchemaAST.AST>): string | undefined => {
  const structs = members.map(underlying)
  if (!structs.every((m) => m._tag === "TypeLiteral")) return undefined
  const first = structs[0] as SchemaAST.TypeLiteral
  for (const p of first.propertySignatures) {
    if (typeof p.name !== "string") continue
    const literals = structs.map((m) =>
      (m as SchemaAST.TypeLiteral).propertySignatures.find((q) => q.name === p.name && SchemaAST.isLiteral(q.type))
    )
    if (literals.every((q) => q !== undefined)) {
      const values = literals.map((q) => (q!.type as SchemaAST.Literal).literal)
      if (new Set(values).size === values.length) return p.name
    }
  }
  return undefined
}

const jsonWriterOf = (ast: SchemaAST.AST): JsonWriter => {
  const trusted = ast.annotations[TrustedCodecId] as TrustedCodec | undefined
  if (trusted !== undefined) return (value) => JSON.stringify(trusted.encode(value))
  const shape = underlying(ast)
  if (shape._tag === "TypeLiteral" && shape.indexSignatures.length === 0) {
    // Keys in the schema's order, as Schema.encodeSync writes them; an absent or undefined
    // field is left out, as JSON.stringify leaves out an undefined value.
    const fields = shape.propertySignatures.map((p) => ({
      name: p.name,
      key: `${JSON.stringify(String(p.name))}:`,
      write: jsonWriterOf(p.type)
    }))
    return (value) => {
      const source = value as Record<PropertyKey, unknown>
      let out = "{"
      for (const { key, name, write } of fields) {
        const v = source[name]
        if (v === undefined) continue
        out += out.length === 1 ? key : `,${key}`
        out += write(v)
      }
      return `${out}}`
    }
  }
  if (shape._tag === "Union") {
    const defined = shape.types.filter((t) => !SchemaAST.isUndefinedKeyword(t))
    if (defined.length === 1 && defined[0] !== undefined) return jsonWriterOf(defined[0])
    const tag = discriminantOf(defined)
    if (tag !== undefined) {
      const writers = new Map(defined.map((m) => {
        const literal = (underlying(m) as SchemaAST.TypeLiteral).propertySignatures.find((p) => p.name === tag)!
        return [(literal.type as SchemaAST.Literal).literal, jsonWriterOf(m)] as const
      }))
      const fallback = codecOf(ast, "encode")
      return (value) => {
        const write = writers.get((value as Record<string, unknown>)[tag] as SchemaAST.LiteralValue)
        return write !== undefined ? write(value) : JSON.stringify(fallback(value))
      }
    }
  }
  if (!transforms(ast)) {
    // Records and arrays of plain values: the parts worth sharing between documents.
    return shape._tag === "TypeLiteral" || shape._tag === "TupleType" ? sharedJson : (value) => JSON.stringify(value)
  }
  const encode = codecOf(ast, "encode")
  return (value) => JSON.stringify(encode(value))
}

/**
 * `JSON.stringify(trustedEncoder(schema)(value))`, written field by field in the schema's
 * order, with the text of records and arrays computed once per object and reused by every
 * document that contains the same object (see `sharedTexts`). For values core built.
 */
export const trustedJson = <A, I>(schema: Schema.Schema<A, I>): (value: A) => string =>
  jsonWriterOf(schema.ast) as (value: A) => string
