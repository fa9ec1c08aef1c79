/**
 * Route accuracy of a routing server, measured by `market evaluate --routes osrm=URL`: against
 * a local server on 127.0.0.1 that speaks the OSRM protocol and answers every route as 2 km
 * longer and 3 minutes slower than the trip records (but one pair, which it has no route for).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { measureOsrm } from "@ridequote/calibration"
import type { ObservedTrip } from "@ridequote/calibration"
import { PICKUP_DROPOFF_MINUTES } from "@ridequote/routes"
import { syntheticTable } from "./synthetic.js"

const trips: ReadonlyArray<ObservedTrip> = syntheticTable(50, 5).trips
const UNROUTABLE = trips[7] as ObservedTrip
const byDestination = new Map(trips.map((t) => [`${t.destination.longitude},${t.destination.latitude}`, t]))

let server: Server
let baseUrl = ""

beforeAll(async () => {
  server = createServer((req, res) => {
    const m = /;([-\d.e]+),([-\d.e]+)\?/.exec(req.url ?? "")
    const trip = m === null ? undefined : byDestination.get(`${m[1]},${m[2]}`)
    res.writeHead(200, { "content-type": "application/json" })
    if (trip === undefined || trip === UNROUTABLE) return res.end(JSON.stringify({ code: "NoRoute" }))
    const seconds = (trip.durationMinutes - PICKUP_DROPOFF_MINUTES + 3) * 60
    res.end(JSON.stringify({ code: "Ok", routes: [{ distance: (trip.distanceKm + 2) * 1000, duration: seconds }] }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("a routing server's accuracy", () => {
  it.live("is the median absolute error of its own answers; trips it cannot route are counted, not filled in", () =>
    Effect.gen(function*() {
      const accuracy = yield* measureOsrm(baseUrl, trips, 1000)
      expect(accuracy.rows).toBe(trips.length - 1)
      expect(accuracy.unanswered).toBe(1)
      expect(accuracy.distanceMedianAbsErrorKm).toBeCloseTo(2, 1)
      expect(accuracy.durationMedianAbsErrorMinutes).toBeCloseTo(3, 0)
    }))

  it.live("samples every n-th trip when there are more than the limit", () =>
    Effect.gen(function*() {
      const accuracy = yield* measureOsrm(baseUrl, trips, 10)
      expect(accuracy.rows + accuracy.unanswered).toBe(10)
    }))
})
