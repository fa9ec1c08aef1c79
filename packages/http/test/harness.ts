/**
 * Test harness: the whole HTTP application on a real (test) HTTP server, over the in-process
 * engine and a storage layer the caller chooses, plus a storage switch to take that storage
 * "down" for the 503 rows. Requests go over real HTTP, so statuses, headers and bodies are
 * what a client sees.
 */
import { OfflineRouteResolverLive } from "@ridequote/routes"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import {
  AccessFeed,
  Accounts,
  AccountStore,
  AuditLog,
  makeEngineLive,
  RandomnessLive,
  SampleMarketLive,
  SigningKeys,
  StorageHealth,
  StorageUnavailable,
  TokenStore
} from "@ridequote/core"
import type { AccountStatus, CreatedAccount, IssuedToken, MarketData, Randomness, StoragePorts } from "@ridequote/core"
import { Context, Effect, Layer, LogLevel, Logger, Redacted } from "effect"
import { HttpHostLive } from "../src/index.js"
import { answerClientErrors, markOddRequestLines, NODE_SERVER_OPTIONS, NodeHost, NodeHostLive } from "../src/node/index.js"

export type { StoragePorts }
import type { RidequoteHttpOptions } from "../src/index.js"


/** Takes the storage "down" (every operation fails with StorageUnavailable) and back up. */
export interface StorageSwitch {
  readonly setAvailable: (available: boolean) => Effect.Effect<void>
}
export const StorageSwitch = Context.GenericTag<StorageSwitch>("test/StorageSwitch")

/**
 * Wraps any storage so that it can be switched off. Signing keys are not gated: the port
 * promises to answer from memory.
 */
export const GatedStorage: Layer.Layer<StoragePorts | StorageSwitch, never, StoragePorts> = Layer.effectContext(
  Effect.gen(function*() {
    const accounts = yield* AccountStore
    const tokens = yield* TokenStore
    const feed = yield* AccessFeed
    const audit = yield* AuditLog
    const health = yield* StorageHealth
    const keys = yield* SigningKeys
    let available = true
    const down = new StorageUnavailable({ message: "storage switched off by the test" })
    const gate = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageUnavailable, R> =>
      Effect.suspend((): Effect.Effect<A, E | StorageUnavailable, R> => (available ? effect : Effect.fail(down)))
    return Context.make(AccountStore, {
      insert: (a, c) => gate(accounts.insert(a, c)),
      findById: (id) => gate(accounts.findById(id)),
      findByApiKey: (k) => gate(accounts.findByApiKey(k)),
      findApiKey: (id) => gate(accounts.findApiKey(id)),
      list: gate(accounts.list),
      update: (id, f) => gate(accounts.update(id, f)),
      replaceCredentials: (id, c) => gate(accounts.replaceCredentials(id, c))
    }).pipe(
      Context.add(TokenStore, {
        record: (t) => gate(tokens.record(t)),
        revoke: (a, j, at) => gate(tokens.revoke(a, j, at)),
        revokeAll: (a, at) => gate(tokens.revokeAll(a, at))
      }),
      Context.add(AccessFeed, { start: (n) => gate(feed.start(n)), since: (c) => gate(feed.since(c)) }),
      Context.add(AuditLog, {
        append: (r) => gate(audit.append(r)),
        // Kept when the storage has it (SQLite, PostgreSQL): the Node host then answers quotes
        // from it, and that path is the one under test.
        submit: audit.submit === undefined
          ? undefined
          : (r, done) => (available ? audit.submit!(r, done) : done(down)),
        page: (q) => gate(audit.page(q)),
        pageJson: (q) => gate(audit.pageJson(q))
      }),
      Context.add(StorageHealth, { ping: gate(health.ping) }),
      Context.add(SigningKeys, keys),
      Context.add(StorageSwitch, { setAvailable: (up) => Effect.sync(() => void (available = up)) })
    )
  })
)

export type MakeStorageLayer = () => Layer.Layer<StoragePorts, unknown, Randomness>

/**
 * Which host serves the application: `node`, the Node listener `ridequote serve` runs
 * (`NodeHostLive` on a `node:http` server); `httpapi`, `HttpHostLive` on Effect's HTTP server,
 * as a custom host composes it.
 */
export type Host = "node" | "httpapi"

/** The port the application under test listens on (127.0.0.1), for tests that speak raw HTTP. */
export class TestServerPort extends Context.Tag("test/TestServerPort")<TestServerPort, number>() {}

/** `NodeHostLive` on a `node:http` server of its own, with an `HttpClient` aimed at it. */
const NodeHostTestServer = (options?: Partial<RidequoteHttpOptions>) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const listener = yield* NodeHost
      // As `ridequote serve` creates it (GracefulHttpServer), without its limits.
      const server = createServer(NODE_SERVER_OPTIONS, listener)
      answerClientErrors(server)
      const port = yield* Effect.acquireRelease(
        Effect.async<number>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
        }),
        () =>
          Effect.async<void>((resume) => {
            server.close(() => resume(Effect.void))
            server.closeAllConnections()
          })
      )
      const client = yield* HttpClient.HttpClient
      return Context.make(HttpClient.HttpClient, HttpClient.mapRequest(client, HttpClientRequest.prependUrl(`http://127.0.0.1:${port}`))).pipe(
        Context.add(TestServerPort, port)
      )
    })
  ).pipe(Layer.provide(NodeHostLive(options)), Layer.provide(NodeHttpClient.layerUndici))

/**
 * A `node:http` server for the HttpApi lane, prepared as docs/api.md tells a custom host to
 * (Node's options, its parser's refusals answered, request lines read while their bytes are there).
 */
const preparedServer = () => {
  const server = createServer(NODE_SERVER_OPTIONS)
  answerClientErrors(server)
  markOddRequestLines(server)
  return server
}

/** `HttpHostLive` on Effect's Node server, with an `HttpClient` aimed at it (as `layerTest` makes). */
const HttpApiTestServer = (options?: Partial<RidequoteHttpOptions>) =>
  Layer.effect(
    TestServerPort,
    Effect.flatMap(HttpServer.HttpServer, (server) =>
      server.address._tag === "TcpAddress" ? Effect.succeed(server.address.port) : Effect.dieMessage("not on TCP"))
  ).pipe(
    Layer.provideMerge(HttpHostLive(options)),
    Layer.provideMerge(
      HttpServer.layerTestClient.pipe(
        Layer.provide(NodeHttpClient.layerWithoutAgent),
        Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
        Layer.provideMerge(NodeHttpServer.layer(preparedServer, { port: 0 }))
      )
    )
  )

/**
 * The application under test: the chosen host on a test server, the engine, gated storage,
 * the markets given (default: the sample market, which serves every point).
 * With `logger`, every log line (Info and up) goes to it instead of the default logger.
 */
export const makeTestApp = (
  makeStorage: MakeStorageLayer,
  options?: Partial<RidequoteHttpOptions>,
  host: Host = "node",
  logger?: Logger.Logger<unknown, void>,
  markets: Layer.Layer<MarketData> = SampleMarketLive
) => {
  const storage = GatedStorage.pipe(Layer.provide(makeStorage()))
  const ports = Layer.mergeAll(storage, markets, OfflineRouteResolverLive)
  const engine = makeEngineLive().pipe(Layer.provideMerge(ports))
  const served = host === "node" ? NodeHostTestServer(options) : HttpApiTestServer(options)
  return served.pipe(
    Layer.provideMerge(engine),
    Layer.provideMerge(RandomnessLive),
    // One info line per request would bury the test report; warnings and errors still show.
    Layer.provide(
      logger === undefined
        ? Logger.minimumLogLevel(LogLevel.Warning)
        : Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.Info))
    )
  )
}

export interface WireResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown
}

export interface CallOptions {
  readonly token?: string
  readonly headers?: Record<string, string>
  /** Sent as JSON with Content-Type application/json. */
  readonly json?: unknown
  /** Sent as is, with `contentType` when given. */
  readonly body?: string | Uint8Array
  readonly contentType?: string
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** One request over real HTTP. */
export const call = (method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS", url: string, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(url)
    if (options.token !== undefined) request = HttpClientRequest.bearerToken(request, options.token)
    if (options.headers !== undefined) request = HttpClientRequest.setHeaders(request, options.headers)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    if (options.body !== undefined) {
      request = typeof options.body === "string"
        ? HttpClientRequest.bodyText(request, options.body, options.contentType)
        : HttpClientRequest.bodyUint8Array(request, options.body, options.contentType)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    const headers: Record<string, string | undefined> = { ...response.headers }
    const wire: WireResponse = { status: response.status, headers, text, json: parse(text) }
    return wire
  }).pipe(Effect.scoped, Effect.orDie)

/** A new account (Active unless told otherwise) and its credentials. */
export const newAccount = (options: { readonly status?: AccountStatus; readonly tokenTtlSeconds?: number } = {}) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const created: CreatedAccount = yield* accounts.create({
      name: "Test account",
      status: options.status ?? "Active",
      ...(options.tokenTtlSeconds !== undefined ? { tokenTtlSeconds: options.tokenTtlSeconds } : {})
    })
    return created
  }).pipe(Effect.orDie)

export const credentialHeaders = (created: CreatedAccount): Record<string, string> => ({
  "x-api-key": created.apiKey,
  "x-api-secret": Redacted.value(created.apiSecret)
})

/** Issues a token over HTTP; dies unless the answer is 200. */
export const issueToken = (created: CreatedAccount) =>
  Effect.flatMap(call("POST", "/v1/auth/token", { headers: credentialHeaders(created) }), (r) =>
    r.status === 200
      ? Effect.succeed(r.json as IssuedToken & { readonly expiresAt: string })
      : Effect.dieMessage(`token issue answered ${r.status}: ${r.text}`))

/** An Active account with a token. */
export const signedIn = (options: { readonly tokenTtlSeconds?: number } = {}) =>
  Effect.gen(function*() {
    const created = yield* newAccount(options)
    const issued = yield* issueToken(created)
    return { created, token: issued.token, jti: issued.jti }
  })

export const errorCode = (r: WireResponse): unknown =>
  typeof r.json === "object" && r.json !== null && "code" in r.json ? r.json.code : undefined
