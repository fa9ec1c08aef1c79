/**
 * The Promise facade's in-process quote (`createRidequote`'s `quote`, @ridequote/engine)
 * against the Effect API doing the same work on the same engine: verify the bearer token,
 * price the request, record the audit, each as one `runPromise` on the engine's runtime.
 *
 * The engine is `composeEngine` with in-memory storage, the sample market, the offline
 * resolver and an audit sink emptied before each timed batch (as in quotes.ts), so the
 * figure is the facade's own cost: the caller check, the request's validation against core's
 * schema (its fast path for the plain shape), the Exit → Promise step and the response's
 * encoding.
 */
import { Clock, DateTime, Effect, Layer, ManagedRuntime, Runtime } from "effect"
import type { AuditRecord, QuoteRequest, QuoteResponse } from "../packages/core/src/index.js"
import { AuditLog, Quotes, Randomness, RequestId, Tokens } from "../packages/core/src/index.js"
import { InMemoryStorageLive } from "../packages/core/src/testing/index.js"
import { composeEngine, MarketDataLive, RoutesLive } from "../packages/compose/src/index.js"
import { facadeOn } from "../packages/engine/src/Facade.js"
import type { Quote } from "../packages/engine/src/index.js"
import type { Suite } from "./harness.js"

/** Both variants append here; emptied before each timed batch so memory stays flat. */
const sink: Array<AuditRecord> = []
const SinkAuditLog = Layer.succeed(AuditLog, {
  append: (record) => Effect.sync(() => { sink.push(record) }),
  page: () => Effect.die("not used by the benchmark"),
  pageJson: () => Effect.die("not used by the benchmark")
})

const engine = composeEngine({
  storage: Layer.merge(InMemoryStorageLive, SinkAuditLog),
  markets: MarketDataLive("sample"),
  routes: RoutesLive("offline")
})

/** The same request twice: typed for the Effect API, as JSON for the facade. */
const scheduledAt = new Date(Date.now() + 2 * 3_600_000).toISOString()
const json = {
  pickup: { latitude: 52.520008, longitude: 13.404954 },
  destination: { latitude: 52.5, longitude: 13.3 },
  distanceKm: 12.4,
  durationMinutes: 27,
  scheduledAt
}
const typed: QuoteRequest = { ...json, scheduledAt: DateTime.unsafeMake(scheduledAt) }

export interface FacadeBench {
  readonly suite: Suite
  readonly close: () => Promise<void>
}

/** Builds the engine (once) and both variants on it. */
export const makeFacadeSuite = async (): Promise<FacadeBench> => {
  const managed = ManagedRuntime.make(engine)
  const runtime = await managed.runtime()
  const { quotes, randomness, tokens } = await managed.runPromise(
    Effect.all({ quotes: Quotes, tokens: Tokens, randomness: Randomness })
  )
  const rq = facadeOn(runtime, () => Promise.resolve())
  const created = await rq.accounts.create({ name: "bench" })
  const { token } = await rq.tokens.issue(created.apiKey, created.apiSecret)

  // The built runtime's own runPromise (not ManagedRuntime's, which checks its state per call):
  // the Effect API at its best, so that the ratio is the facade's own cost.
  const runPromise = Runtime.runPromise(runtime)
  /** What an Effect program writes: the typed request, its own request id and time, one runPromise. */
  const quoteWithEffect = (): Promise<QuoteResponse> =>
    runPromise(
      Effect.flatMap(tokens.verify(token), (caller) =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
          quotes.quote(caller.account, typed, {
            requestId: RequestId.make(randomness.unsafeUuidV4(), { disableValidation: true }),
            receivedAt: DateTime.unsafeMake(nowMs)
          })))
    )
  const quoteWithFacade = (): Promise<Quote> => rq.quote({ token }, json)

  /** The answer without its request id (each call gets its own). */
  const comparable = (q: QuoteResponse | Quote): string => JSON.stringify({ ...q, requestId: undefined })

  const suite: Suite = {
    name: "in-process quote through the Promise facade vs the Effect API (same engine, bearer token, in-memory audit)",
    unit: "quote",
    baseline: {
      name: "Effect API: Tokens.verify + Quotes.quote, runPromise",
      reset: () => { sink.length = 0 },
      run: async (n) => { for (let i = 0; i < n; i++) await quoteWithEffect() }
    },
    variants: [{
      name: "facade: ridequote.quote({ token }, json)",
      reset: () => { sink.length = 0 },
      run: async (n) => { for (let i = 0; i < n; i++) await quoteWithFacade() }
    }],
    check: async () => {
      const a = comparable(await quoteWithEffect())
      const b = comparable(await quoteWithFacade())
      if (a !== b) throw new Error(`variants disagree:\n${a}\n${b}`)
      if (sink.length !== 2) throw new Error(`expected two audit records, found ${sink.length}`)
      sink.length = 0
    }
  }
  return { suite, close: () => managed.dispose() }
}
