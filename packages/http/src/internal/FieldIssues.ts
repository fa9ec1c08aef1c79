/**
 * Turning schema failures into `details` of a 400: core's `fieldIssues` (one implementation
 * for every entrance, values never echoed), plus the HttpApi decode error's own issues.
 */
import type { HttpApiError } from "@effect/platform"
import { fieldIssues, InvalidRequest } from "@ridequote/core"

export { fieldIssues, fieldPath, invalidRequestFromParseError } from "@ridequote/core"

export const invalidRequestFromDecodeError = (error: HttpApiError.HttpApiDecodeError): InvalidRequest =>
  new InvalidRequest({ message: "the request is invalid", details: fieldIssues(error.issues) })
