/**
 * How a failure inside the engine becomes a `RidequoteError` (RidequoteError.ts): its body is
 * the error body the HTTP API would answer with. The codes come from the error classes themselves (each of core's errors carries
 * its `code`): there is no second table here, and no HTTP status (`@ridequote/http` keeps those).
 */
import { StorageAdapterMissing } from "@ridequote/compose"
import { CoreErrors } from "@ridequote/core"
import { Cause, Option, Schema } from "effect"
import type { ErrorBody, ErrorCode } from "./FacadeTypes.js"
import { isRidequoteError, RidequoteError } from "./RidequoteError.js"

/** Every error class whose instances the facade turns into a body, by tag. */
const errorClasses: ReadonlyMap<string, Schema.Schema<any, any>> = new Map<string, Schema.Schema<any, any>>(
  [...CoreErrors, StorageAdapterMissing].map((errorClass) => [errorClass._tag, errorClass])
)

type Tagged = { readonly _tag: string; readonly code: ErrorCode; readonly message: string }

const isTagged = (u: unknown): u is Tagged =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && "code" in u &&
  typeof u.code === "string" && u.code.startsWith("result:")

/** The error body of one of our typed errors: its own encoding, without the tag. */
export const bodyOf = (error: Tagged): ErrorBody => {
  const errorClass = errorClasses.get(error._tag)
  if (errorClass === undefined) return { code: error.code, message: error.message } as ErrorBody
  const { _tag: _, ...body } = Schema.encodeSync(errorClass)(error) as Record<string, unknown>
  // An Error's `message` is not enumerable: read it explicitly.
  return { ...body, code: error.code, message: error.message } as ErrorBody
}

const unexpected = (cause: unknown): RidequoteError =>
  new RidequoteError({ code: "result:internal", message: "unexpected failure inside the engine (see cause)" }, { cause })

/** A typed failure without a wire code (a market model file that does not load): its message says what to fix. */
const isDeclared = (u: unknown): u is { readonly _tag: string; readonly message: string } =>
  u instanceof Error && "_tag" in u && typeof u._tag === "string"

/**
 * The RidequoteError for a typed error: its own code and body; a typed error without a code is
 * `result:internal` with its message. Anything else (a defect) is `result:internal` with a
 * generic message. The original is attached as `cause` either way.
 */
export const toRidequoteError = (error: unknown, requestId?: string): RidequoteError => {
  if (isRidequoteError(error)) return error
  if (!isTagged(error)) {
    return isDeclared(error)
      ? new RidequoteError({ code: "result:internal", message: error.message }, { cause: error })
      : unexpected(error)
  }
  const body = bodyOf(error)
  return new RidequoteError(requestId === undefined ? body : { ...body, requestId }, { cause: error })
}

/** The RidequoteError for a failed effect's cause: its typed failure, else the defect. */
export const fromCause = (cause: Cause.Cause<unknown>, requestId?: string): RidequoteError =>
  Option.match(Cause.failureOption(cause), {
    onSome: (error) => toRidequoteError(error, requestId),
    onNone: () => unexpected(Cause.squash(cause))
  })
