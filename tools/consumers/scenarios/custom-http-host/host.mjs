// ridequote's API on a host of the team's own: Node's http server, SQLite storage in a
// temporary file, the shipped markets and the offline route resolver. It serves on a free
// port, creates an account, exchanges it for a token over HTTP, quotes, and reads the audit.
import { createServer } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import assert from "node:assert/strict"
import { HttpServer } from "@effect/platform"
import { NodeContext, NodeHttpServer } from "@effect/platform-node"
import { Accounts, makeEngineLive, RandomnessLive } from "@ridequote/core"
import { HttpHostLive, rateLimitPerSecond } from "@ridequote/http"
import { MarketsLive, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import { OfflineRouteResolverLive } from "@ridequote/routes"
import { SqliteStorageLive } from "@ridequote/storage-sqlite"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"

const dir = mkdtempSync(join(tmpdir(), "ridequote-host-"))
const engine = makeEngineLive().pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      MarketsLive({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false }).pipe(Layer.provide(NodeContext.layer)),
      OfflineRouteResolverLive,
      RandomnessLive
    )
  ),
  Layer.provideMerge(SqliteStorageLive({ filename: join(dir, "ridequote.db") }))
)
const host = HttpHostLive({ rateLimit: rateLimitPerSecond(50) }).pipe(
  Layer.provideMerge(engine),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)
const runtime = ManagedRuntime.make(host)
try {
  const address = await runtime.runPromise(HttpServer.addressFormattedWith((url) => Effect.succeed(url)))
  const created = await runtime.runPromise(Effect.flatMap(Accounts, (a) => a.create({ name: "Host" })))
  const tokenResponse = await fetch(`${address}/v1/auth/token`, {
    method: "POST",
    headers: { "X-API-KEY": created.apiKey, "X-API-SECRET": Redacted.value(created.apiSecret) }
  })
  assert.equal(tokenResponse.status, 200, `${tokenResponse.status} ${await tokenResponse.clone().text()}`)
  const { token } = await tokenResponse.json()
  const quoteResponse = await fetch(`${address}/v1/quote`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ pickup: { latitude: 40.758, longitude: -73.9855 }, destination: { latitude: 40.6413, longitude: -73.7781 } })
  })
  const quote = await quoteResponse.json()
  assert.equal(quoteResponse.status, 200, JSON.stringify(quote))
  assert.ok(Object.keys(quote.marketPrices).length > 0)
  const audit = await fetch(`${address}/v1/audit/recent`, { headers: { authorization: `Bearer ${token}` } })
  assert.equal(audit.status, 200)
  const entries = await audit.json()
  assert.ok(Array.isArray(entries) && entries.length === 1, JSON.stringify(entries))
  assert.equal(entries[0].requestId, quoteResponse.headers.get("x-request-id"))
  console.log(`custom host on ${address}: token 200, quote 200 (${Object.keys(quote.marketPrices).join(", ")}), audit 1 entry`)
} finally {
  await runtime.dispose()
  rmSync(dir, { recursive: true, force: true })
}
