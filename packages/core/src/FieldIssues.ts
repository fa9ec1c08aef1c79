/**
 * Turning schema failures into `details` of an invalid request: `{path, message}` per
 * offending field. Messages never repeat the offending value (Effect's default "…, actual
 * <value>" would echo whatever the caller sent, secrets included), and the list is capped.
 * One implementation for every entrance that decodes outside input: the HTTP hosts
 * (`@ridequote/http`) and the Promise facade (`@ridequote/engine`).
 */
import { ParseResult } from "effect"
import { InvalidRequest } from "./Errors.js"
import type { FieldIssue } from "./Errors.js"

/** At most this many `details` per error: a huge malformed body must not make a huge answer. */
export const MAX_FIELD_ISSUES = 50

const withoutValue = (message: string): string => message.replace(/,? actual [\s\S]*$/, "").trim()

/**
 * Field names are the caller's text too (an unknown key can be anything, a pasted secret
 * included): names that do not look like a field name are not echoed.
 */
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,31}$/

const pathSegment = (p: PropertyKey): string | number =>
  typeof p === "number" ? p : typeof p === "string" && FIELD_NAME.test(p) ? p : "<field>"

/** A path as `details` shows it: numbers as they are, names only when they look like one. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>): Array<string | number> => path.map(pathSegment)

const toFieldIssue = (issue: { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }): FieldIssue => ({
  path: fieldPath(issue.path),
  message: withoutValue(issue.message)
})

/** Schema issues (`ParseResult.ArrayFormatter`'s or HttpApi's) as `details`, values never echoed. */
export const fieldIssues = (
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
): ReadonlyArray<FieldIssue> => issues.slice(0, MAX_FIELD_ISSUES).map(toFieldIssue)

/** An InvalidRequest saying `what` is invalid, with one detail per problem the schema found. */
export const invalidRequestFromParseError = (what: string, error: ParseResult.ParseError): InvalidRequest =>
  new InvalidRequest({
    message: `${what} is invalid`,
    details: fieldIssues(ParseResult.ArrayFormatter.formatErrorSync(error))
  })
