/**
 * Every way storage can fail, folded into core's `StorageUnavailable` (→ 503). Ports promise
 * that error and nothing else, so no `SqlError` or row-decoding error leaves this package.
 */
import { SqlError } from "@effect/sql/SqlError"
import { StorageUnavailable } from "@ridequote/core"
import { Effect, Option, ParseResult } from "effect"

type StorageFailure = SqlError | ParseResult.ParseError

const isStorageFailure = <E>(e: E): e is Extract<E, StorageFailure> =>
  e instanceof SqlError || ParseResult.isParseError(e)

/** The driver's own words behind a statement's failure (e.g. "database is locked"), never its parameters. */
export const driverReason = (failure: SqlError): string => {
  const cause = failure.cause
  return cause instanceof Error ? cause.message : failure.message
}

const reason = (failure: StorageFailure): string =>
  failure instanceof SqlError
    ? driverReason(failure)
    : `a stored row does not match its schema (${failure.message.split("\n")[0] ?? ""})`

export const unavailable = (operation: string, failure: StorageFailure): StorageUnavailable =>
  new StorageUnavailable({ message: `storage failed during ${operation}: ${reason(failure)}` })

/**
 * Maps the storage failures of `operation` to `StorageUnavailable`, domain errors untouched.
 * A failed COMMIT reaches us as a *defect* (@effect/sql runs it under `orDie`): it is a
 * storage failure all the same, so it is mapped too.
 */
export const orUnavailable =
  (operation: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(
      Effect.catchIf(isStorageFailure, (failure) => Effect.fail(unavailable(operation, failure))),
      Effect.catchSomeDefect((defect) =>
        defect instanceof SqlError ? Option.some(Effect.fail(unavailable(operation, defect))) : Option.none()
      )
    )
