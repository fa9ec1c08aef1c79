/**
 * The OSRM client against a local server that speaks the protocol (`/route/v1/driving/…`),
 * on 127.0.0.1 only: a good answer, the cache, and the fallback when the server is slow, down
 * or answers without a route.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer } from "node:http"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DateTime, Effect, Either } from "effect"
import { sampleMarket } from "@ridequote/core"
import type { RouteQuery } from "@ridequote/core"
import { makeOsrmResolver, offlineRoute, parseOsrmRoute, PICKUP_DROPOFF_MINUTES } from "@ridequote/routes"

const A = { latitude: 40.758, longitude: -73.9855 }
const B = { latitude: 40.7128, longitude: -74.006 }
const query = (destination = B): RouteQuery => ({
  pickup: A,
  destination,
  departAt: DateTime.unsafeMake("2026-11-23T14:00:00Z"),
  market: sampleMarket
})

/** Paths the server was asked for, and how it answers: by the destination's longitude. */
const asked: Array<string> = []
let hold: Array<() => void> = []
let server: Server
let baseUrl = ""

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? ""
    asked.push(url)
    const m = /^\/route\/v1\/driving\/([-\d.]+),([-\d.]+);([-\d.]+),([-\d.]+)\?/.exec(url)
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (m === null) return reply(400, { code: "InvalidUrl" })
    const toLon = Number(m[3])
    if (toLon === -74.5) return void hold.push(() => reply(200, { code: "Ok", routes: [{ distance: 1, duration: 1 }] })) // slow
    if (toLon === -74.6) return reply(200, { code: "NoRoute", message: "Impossible route between points" })
    if (toLon === -74.7) return reply(500, { code: "InternalError" })
    reply(200, { code: "Ok", routes: [{ distance: 7345.6, duration: 912 }], waypoints: [] })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const release of hold) release()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const offline = (q: RouteQuery) => Either.getOrThrow(offlineRoute(q))

describe("OSRM client", () => {
  it("parses an OSRM answer: metres to km, seconds to minutes plus the pickup overhead", () => {
    expect(parseOsrmRoute({ code: "Ok", routes: [{ distance: 7345.6, duration: 912 }] })).toEqual({
      distanceKm: 7.35,
      durationMinutes: Number((PICKUP_DROPOFF_MINUTES + 15.2).toFixed(1))
    })
    expect(parseOsrmRoute({ code: "NoRoute" })).toBeUndefined()
    expect(parseOsrmRoute({ code: "Ok", routes: [] })).toBeUndefined()
  })

  it.effect("asks the server for the driving route, in longitude,latitude order, and uses its answer", () =>
    Effect.gen(function*() {
      const resolver = makeOsrmResolver({ baseUrl })
      const before = asked.length
      const route = yield* resolver.resolve(query())
      expect(route).toEqual({ distanceKm: 7.35, durationMinutes: 16.2 })
      expect(asked.slice(before)).toEqual([
        `/route/v1/driving/${A.longitude},${A.latitude};${B.longitude},${B.latitude}?overview=false&alternatives=false&steps=false`
      ])
    }))

  it.effect("caches answers: the same pair twice is one request", () =>
    Effect.gen(function*() {
      const resolver = makeOsrmResolver({ baseUrl })
      const before = asked.length
      const first = yield* resolver.resolve(query())
      const second = yield* resolver.resolve(query())
      expect(second).toEqual(first)
      expect(asked.length - before).toBe(1)
    }))

  it.effect("the cache keeps the most recently used pairs within its size", () =>
    Effect.gen(function*() {
      const resolver = makeOsrmResolver({ baseUrl, cacheSize: 1 })
      const other = { latitude: 40.7, longitude: -73.99 }
      const before = asked.length
      yield* resolver.resolve(query())
      yield* resolver.resolve(query(other))
      yield* resolver.resolve(query())
      expect(asked.length - before).toBe(3)
    }))

  // Live clock: the timeout must really elapse (the test clock would never move).
  it.live("falls back to the offline resolver when the server does not answer within the timeout", () =>
    Effect.gen(function*() {
      const resolver = makeOsrmResolver({ baseUrl, timeout: "200 millis" })
      const slow = query({ latitude: 40.7, longitude: -74.5 })
      expect(yield* resolver.resolve(slow)).toEqual(offline(slow))
    }))

  it.effect("falls back when the server has no route or fails", () =>
    Effect.gen(function*() {
      const resolver = makeOsrmResolver({ baseUrl })
      for (const lon of [-74.6, -74.7]) {
        const q = query({ latitude: 40.7, longitude: lon })
        expect(yield* resolver.resolve(q)).toEqual(offline(q))
      }
    }))

  it.effect("falls back when nothing listens at the address", () =>
    Effect.gen(function*() {
      const closed = createServer()
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve)))
      const port = (closed.address() as AddressInfo).port
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
      const resolver = makeOsrmResolver({ baseUrl: `http://127.0.0.1:${port}` })
      expect(yield* resolver.resolve(query())).toEqual(offline(query()))
    }))
})
