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

type Direction = "encode" | "decode"

const codecOf = (ast: SchemaAST.AST, direction: Direction): (value: unknown) => unknown => {
  if (!transforms(ast)) return identity
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
