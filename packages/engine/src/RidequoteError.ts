/**
 * The facade's one error type. Every rejection of a `createRidequote` method is a
 * `RidequoteError` whose `body` is the error body the HTTP API would answer with
 * (`{code, message, details?, …}`), so a service can pass it on unchanged or switch on
 * `body.code`. Plain JavaScript: how a failure inside the engine becomes one is FacadeErrors.ts.
 */
import type { ErrorBody, ErrorCode } from "./FacadeTypes.js"

/** A failed call of the facade: `body` is the contract's error body, `code` its code. */
export class RidequoteError extends Error {
  override readonly name = "RidequoteError"
  /** The wire code (`result:…`), the same as `body.code`. */
  readonly code: ErrorCode
  /** The error body, discriminated by `code` (details of an invalid request, status of a blocked account, …). */
  readonly body: ErrorBody

  constructor(body: ErrorBody, options?: { readonly cause?: unknown }) {
    super(body.message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.code = body.code
    this.body = body
  }

  /** The body as JSON (what `JSON.stringify(error)` writes). */
  toJSON(): ErrorBody {
    return this.body
  }
}

/** True for a rejection of the facade. */
export const isRidequoteError = (u: unknown): u is RidequoteError => u instanceof RidequoteError

