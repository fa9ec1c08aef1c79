/**
 * Identity of the request being served: its id (the `X-Request-Id` header, and for a quote
 * also its `requestId` and audit key) and when it was received. The edge sets it for the
 * whole request; handlers read it.
 */
import { Randomness, RequestId } from "@ridequote/core"
import { Clock, DateTime, Effect, FiberRef, Option } from "effect"

export interface RequestIdentity {
  readonly requestId: RequestId
  readonly receivedAt: DateTime.Utc
}

export const CurrentRequest: FiberRef.FiberRef<Option.Option<RequestIdentity>> = FiberRef.unsafeMake(
  Option.none<RequestIdentity>()
)

/** A fresh identity: a UUID v4 from `Randomness` and the time from `Clock`. */
export const newRequestIdentity: Effect.Effect<RequestIdentity, never, Randomness> = Effect.gen(function*() {
  const randomness = yield* Randomness
  // A v4 UUID by Randomness's contract: the brand's pattern is not re-checked per request.
  const requestId = RequestId.make(yield* randomness.uuidV4, { disableValidation: true })
  const receivedAt = DateTime.unsafeMake(yield* Clock.currentTimeMillis)
  return { requestId, receivedAt }
})

/**
 * The identity the edge assigned; a host that composes the handlers without our edge still
 * gets a fresh one, so a quote always has a request id.
 */
export const currentRequest: Effect.Effect<RequestIdentity, never, Randomness> = Effect.flatMap(
  FiberRef.get(CurrentRequest),
  Option.match({ onNone: () => newRequestIdentity, onSome: Effect.succeed })
)

/**
 * A caller's own `X-Request-Id` is well-formed when it is 1 to 128 characters of
 * `A–Z a–z 0–9 . _ : -` (a UUID, a ULID, `trace-42:7`…): enough for any id scheme, and
 * nothing that needs escaping in a header, a JSON body or a log line.
 */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The caller's `X-Request-Id` when it is well-formed, else undefined (a malformed one is
 * ignored, never an error). Hosts answer with it — response header, error body, log line —
 * instead of the request's own id, so that callers can correlate; the request keeps its own
 * id for what the service identifies by it (a quote's `requestId`, its audit key).
 */
export const callerRequestId = (header: string | undefined): string | undefined =>
  header !== undefined && WELL_FORMED_REQUEST_ID.test(header) ? header : undefined
