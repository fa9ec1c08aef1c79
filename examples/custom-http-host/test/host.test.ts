import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Accounts } from "@ridequote/core"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { CustomHostLive } from "../src/host.js"

const TestHost = CustomHostLive.pipe(Layer.provideMerge(NodeHttpServer.layerTest))

layer(TestHost, { excludeTestServices: true })((it) => {
  describe("example: custom HTTP host", () => {
    it.effect("serves the team's own route next to the ridequote API", () =>
      Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const accounts = yield* Accounts
        const created = yield* accounts.create({ name: "Fleet Co" })

        const status = yield* client.get("/fleet/status")
        expect(status.status).toBe(200)
        expect(yield* status.json).toEqual({ service: "fleet", accounts: 1 })

        const issued = yield* client.execute(
          HttpClientRequest.post("/v1/auth/token").pipe(
            HttpClientRequest.setHeaders({ "x-api-key": created.apiKey, "x-api-secret": Redacted.value(created.apiSecret) })
          )
        )
        expect(issued.status).toBe(200)
        const { token } = (yield* issued.json) as { token: string }

        const quote = yield* client.execute(
          HttpClientRequest.post("/v1/quote").pipe(
            HttpClientRequest.bearerToken(token),
            HttpClientRequest.bodyUnsafeJson({
              // Lisbon: no shipped market; the example's host prices it on the sample market.
              pickup: { latitude: 38.7223, longitude: -9.1393 },
              destination: { latitude: 38.7436, longitude: -9.1602 },
              distanceKm: 4.2,
              durationMinutes: 14
            })
          )
        )
        expect(quote.status).toBe(200)
        const body = (yield* quote.json) as { requestId: string; distanceKm: number }
        expect(body.distanceKm).toBe(4.2)
        expect(quote.headers["x-request-id"]).toBe(body.requestId)
      }))

    it.effect("unknown paths still get the contract's JSON 404", () =>
      Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const response = yield* client.get("/nowhere")
        expect(response.status).toBe(404)
        expect(((yield* response.json) as { code: string }).code).toBe("result:not-found")
      }))
  })
})
