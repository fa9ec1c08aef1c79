/**
 * The Node host answers a quote only once its audit record is durable (the port's `submit`
 * reported it), and 503 when the record could not be written; the HttpApi host, which waits
 * for `append` in the fiber, gives the same answers. Over real HTTP.
 */
import { describe, expect, layer } from "@effect/vitest"
import { AuditLog, StorageUnavailable } from "@ridequote/core"
import type { AuditDone } from "@ridequote/core"
import { InMemoryStorageLive, makeInMemoryAuditLog } from "@ridequote/core/testing"
import { Effect, Fiber, Layer, Option } from "effect"
import { call, errorCode, makeTestApp, signedIn } from "./harness.js"

/** An in-memory audit log whose `submit` keeps each record's `done` until the test settles it. */
const held: Array<AuditDone> = []
const heldAudit = () => {
  const { log } = makeInMemoryAuditLog()
  return Layer.succeed(AuditLog, {
    ...log,
    submit: (record, done) =>
      held.push((failure) => {
        // Stored only when it "committed", as a real adapter would.
        if (failure === undefined) Effect.runSync(log.append(record))
        done(failure)
      })
  })
}

const quoteBody = { pickup: { latitude: 52.52, longitude: 13.405 }, destination: { latitude: 52.5, longitude: 13.3 }, distanceKm: 12.4, durationMinutes: 27 }

/** Waits (real time) until `n` records are held, or gives up. */
const heldCount = (n: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500 && held.length < n; i++) yield* Effect.sleep("2 millis")
    return held.length
  })

describe("Node host: the quote's answer waits for its record", () => {
  layer(makeTestApp(() => Layer.merge(InMemoryStorageLive, heldAudit())), { excludeTestServices: true })((it) => {
    it.effect("no answer before the record is durable, 200 after; 503 when it fails", () =>
      Effect.gen(function*() {
        held.length = 0
        const { token } = yield* signedIn()
        const first = yield* Effect.fork(call("POST", "/v1/quote", { token, json: quoteBody }))
        expect(yield* heldCount(1)).toBe(1)
        // Submitted, not durable: the caller has nothing yet.
        yield* Effect.sleep("50 millis")
        expect(Option.isNone(yield* Fiber.poll(first))).toBe(true)
        held[0]!(undefined)
        const ok = yield* Fiber.join(first)
        expect(ok.status).toBe(200)

        const second = yield* Effect.fork(call("POST", "/v1/quote", { token, json: quoteBody }))
        expect(yield* heldCount(2)).toBe(2)
        held[1]!(new StorageUnavailable({ message: "disk full" }))
        const failed = yield* Fiber.join(second)
        expect(failed.status).toBe(503)
        expect(errorCode(failed)).toBe("result:unavailable")
        // Only the durable record is in the audit.
        const page = yield* call("GET", "/v1/audit/recent", { token })
        expect(page.status).toBe(200)
        expect((page.json as ReadonlyArray<{ readonly requestId: string }>).map((e) => e.requestId)).toEqual([
          (ok.json as { readonly requestId: string }).requestId
        ])
      }))
  })
})
