/**
 * Turning schema failures into `details` of a 400: `{path, message}` per offending field.
 * Messages never repeat the offending value (Effect's default "…, actual <value>" would echo
 * whatever the client sent, secrets included), and the list is capped.
 */
import type { HttpApiError } from "@effect/platform"
import type { FieldIssue } from "@ridequote/core"
import { InvalidRequest } from "@ridequote/core"
import { ParseResult } from "effect"

const MAX_DETAILS = 50

const withoutValue = (message: string): string => message.replace(/,? actual [\s\S]*$/, "").trim()

/**
 * Field names are the client's text too (an unknown key can be anything, a pasted secret
 * included): names that do not look like a field name are not echoed.
 */
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,31}$/

const pathSegment = (p: PropertyKey): string | number =>
  typeof p === "number" ? p : typeof p === "string" && FIELD_NAME.test(p) ? p : "<field>"

/** A path as `details` shows it: numbers as they are, names only when they look like one. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>): Array<string | number> => path.map(pathSegment)

const toFieldIssue = (issue: { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }): FieldIssue => ({
  path: issue.path.map(pathSegment),
  message: withoutValue(issue.message)
})

export const fieldIssues = (
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
): ReadonlyArray<FieldIssue> => issues.slice(0, MAX_DETAILS).map(toFieldIssue)

export const invalidRequestFromParseError = (what: string, error: ParseResult.ParseError): InvalidRequest =>
  new InvalidRequest({
    message: `${what} is invalid`,
    details: fieldIssues(ParseResult.ArrayFormatter.formatErrorSync(error))
  })

export const invalidRequestFromDecodeError = (error: HttpApiError.HttpApiDecodeError): InvalidRequest =>
  new InvalidRequest({ message: "the request is invalid", details: fieldIssues(error.issues) })
