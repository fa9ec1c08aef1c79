/**
 * The one table from error to HTTP answer, derived from the error classes themselves: every
 * class in core's `CoreErrors` and the edge's `HttpErrors` is a row, with the body schema
 * made from the class's own fields (`{code, message, requestId?, …}`), the status of its code,
 * and the encoder. Built once, at module load. The endpoint definitions declare these body
 * schemas (`errorWire(Class)`: OpenAPI and the typed client read them), and both hosts render
 * every failure through `failureHead` (Edge.ts), so the two cannot drift apart.
 *
 * Adding an error: define its class (with its `code`) in core's Errors.ts or in HttpErrors.ts
 * and add it to that file's list; a new code also needs its status in `STATUS_OF_CODE`.
 */
import { HttpApiSchema } from "@effect/platform"
import { CoreErrors, errorCodeOf, FieldIssue } from "@ridequote/core"
import type { ErrorCode } from "@ridequote/core"
import { Schema } from "effect"
import { HttpErrors } from "./HttpErrors.js"

/**
 * The HTTP status of each wire code (the table in docs/api.md, "Errors"). Exhaustive over
 * `ErrorCode`: a new code does not compile until it has a status.
 */
export const STATUS_OF_CODE: { readonly [C in ErrorCode]: number } = {
  "result:invalid-request": 400,
  "result:route-metadata-incomplete": 400,
  // Well-formed, but no market of this deployment serves the place (RFC 9110 §15.5.21).
  "result:market-not-served": 422,
  "result:invalid-credentials": 401,
  "result:unauthorized": 401,
  "result:token-invalid": 401,
  "result:token-expired": 401,
  "result:token-revoked": 401,
  "result:account-blocked": 403,
  "result:not-found": 404,
  "result:method-not-allowed": 405,
  "result:payload-too-large": 413,
  "result:unsupported-media-type": 415,
  "result:rate-limited": 429,
  "result:internal": 500,
  "result:unavailable": 503
}

/** Every error class the HTTP service can answer with: core's and the edge's. */
export const RenderableErrors = [...CoreErrors, ...HttpErrors] as const
/** The class of any error the HTTP service can answer with (an element of `RenderableErrors`). */
export type RenderableErrorClass = (typeof RenderableErrors)[number]
/** Every error the HTTP service can answer with. */
export type RenderableError = InstanceType<RenderableErrorClass>

/** Fields every error body may carry besides `code` and the error's own fields. */
const commonFields = {
  message: Schema.String.annotations({ description: "Human-readable explanation; never contains secrets or tokens" }),
  requestId: Schema.optional(Schema.String.annotations({
    description: "The request's id, equal to X-Request-Id (and, on POST /v1/quote, to the audit entry's requestId)"
  }))
}

/** The body of an error response, whatever its code. */
export const ErrorBody = Schema.Struct({
  code: Schema.String,
  ...commonFields,
  details: Schema.optional(Schema.Array(FieldIssue))
}).annotations({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type

/** What every error body holds, as JSON: `code`, `message`, and the error's own fields. */
export interface WireBody {
  readonly code: ErrorCode
  readonly message: string
  readonly requestId?: string
  readonly [field: string]: unknown
}

type Json = { readonly [field: string]: unknown }

/** The body schema of one error: its JSON body ↔ the error; annotated with its status. */
export type ErrorWire<E> = Schema.Schema<E, Json>

/** What the table needs of an error class; every class of `RenderableErrors` has it. */
interface ErrorClass<E extends RenderableError> {
  readonly _tag: E["_tag"]
  readonly identifier: string
  readonly fields: Schema.Struct.Fields
  readonly prototype: E
  /** The constructor (a method, so that each class's own constructor argument is accepted). */
  make(props: Json): NoInfer<E>
}

/**
 * The body schema of an error class, for an endpoint's `.addError(…)`: `{code, message,
 * requestId?}` and the class's other fields as they encode (AccountBlocked's `status` is
 * `accountStatus`, by its own field's key); its status is its code's.
 */
export const errorWire = <E extends RenderableError>(errorClass: ErrorClass<E>): ErrorWire<E> => {
  const { _tag: _, code, message: __, ...own } = errorClass.fields
  if (code === undefined) throw new Error(`${errorClass._tag} has no code field`)
  const names = Object.keys(own)
  // Error fields are plain data and need no context: the body is JSON on both sides.
  const body = Schema.make<Json, Json, never>(Schema.Struct({ code, ...commonFields, ...own }).ast)
  const error = Schema.declare((u): u is E =>
    u instanceof Error && "_tag" in u && u._tag === errorClass._tag
  )
  return Schema.transform(body, error, {
    strict: true,
    // The body schema is the class's own fields plus `requestId`: its type, without
    // `requestId`, is the constructor's argument.
    decode: ({ requestId: _, ...props }) => errorClass.make(props),
    encode: (e) => {
      // An Error's `message` is not enumerable: read it explicitly, never spread.
      const out: Record<string, unknown> = { code: e.code, message: e.message }
      for (const name of names) {
        const value: unknown = Reflect.get(e, name)
        if (value !== undefined) out[name] = value
      }
      return out
    }
  }).annotations({
    ...HttpApiSchema.annotations({ status: STATUS_OF_CODE[errorCodeOf(errorClass)] }),
    identifier: errorClass.identifier
  })
}

/** How the service answers one error class: status, body schema and encoder (see `errorTable`). */
export interface ErrorRow {
  /** The status of the error's code. */
  readonly status: number
  /** The body schema the endpoints declare. */
  readonly wire: ErrorWire<RenderableError>
  /** The body, through `wire`. */
  readonly encode: (error: RenderableError) => WireBody
}

const makeRow = <E extends RenderableError>(errorClass: ErrorClass<E>): ErrorRow => {
  const wire: ErrorWire<RenderableError> = errorWire<RenderableError>(errorClass)
  const encode = Schema.encodeSync(wire)
  return {
    status: HttpApiSchema.getStatusError(wire),
    wire,
    // The encoded body, with the two fields every body has typed as such (same values, same order).
    encode: (error) => ({ ...encode(error), code: error.code, message: error.message })
  }
}

/** Error tag → status, body schema and encoder: one row per class of `RenderableErrors`, made at module load. */
export const errorTable: ReadonlyMap<RenderableError["_tag"], ErrorRow> = new Map(
  RenderableErrors.map((errorClass) => [errorClass._tag, makeRow<RenderableError>(errorClass)] as const)
)

const rowOf = (tag: RenderableError["_tag"]): ErrorRow => {
  const row = errorTable.get(tag)
  // Unreachable: the table has a row for every class of RenderableErrors.
  if (row === undefined) throw new Error(`no error table row for ${tag}`)
  return row
}

const renderableTags: ReadonlySet<string> = new Set(errorTable.keys())

/**
 * Whether a failure is one of `RenderableErrors` (it has a row in the error table), so a host
 * renders it with its status and body; anything else is answered as a 500 `InternalError`.
 */
export const isRenderableError = (u: unknown): u is RenderableError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && renderableTags.has(u._tag) &&
  u instanceof Error

/** Status of an error, from the table. */
export const errorStatus = (e: RenderableError): number => rowOf(e._tag).status

/** The status and JSON body for an error, with the request's id when given. */
export const errorBody = (
  e: RenderableError,
  requestId?: string
): { readonly status: number; readonly body: WireBody } => {
  const row = rowOf(e._tag)
  const encoded = row.encode(e)
  return { status: row.status, body: requestId === undefined ? encoded : { ...encoded, requestId } }
}
