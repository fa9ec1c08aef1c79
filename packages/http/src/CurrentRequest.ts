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
  const requestId = RequestId.make(yield* randomness.uuidV4)
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
