/**
 * The storage contract's test data, and the one thing a dialect supplies to run it: a
 * `StorageUnderTest`, which opens fresh databases (a SQLite file, a PostgreSQL schema).
 */
import { createHash } from "node:crypto"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { AccountId, ApiKey, AuditRecord, Decision, Jti, QuoteRequest, RequestId, SecretHash, StoredCredentials } from "@ridequote/core"
import { Account, AccountId as AccountIdSchema, AccountStore, Decision as DecisionSchema, QuoteRequest as QuoteRequestSchema, ApiKey as ApiKeySchema, Jti as JtiSchema, RequestId as RequestIdSchema, uuidV4FromBytes } from "@ridequote/core"
import type { StorageUnavailable } from "@ridequote/core"
import { DateTime, Effect, Layer, Schema } from "effect"
import type { SqlStorageOptions, StoragePorts } from "../src/index.js"

/** Where one test database lives (a file path, a schema name): opaque to the contract. */
export type DatabaseRef = string & { readonly _DatabaseRef: unique symbol }

/** Settings a contract test may pass to `StorageUnderTest.storage`; the dialect supplies its own access feed. */
export type StorageSettings = Omit<SqlStorageOptions, "accessFeed">

/** A dialect under the contract. Every database it opens is empty until first opened (then migrated). */
export interface StorageUnderTest {
  /** "SQLite", "PostgreSQL": named in every describe. */
  readonly name: string
  /** A new, empty database; removed when the test run ends. */
  readonly newDatabase: (label: string) => DatabaseRef
  /** The production storage layer on it (migrates on start). */
  readonly storage: (db: DatabaseRef, settings?: StorageSettings) => Layer.Layer<StoragePorts, StorageUnavailable>
  /** A plain client on it, for looking at rows from "another process". */
  readonly client: (db: DatabaseRef) => Layer.Layer<SqlClient.SqlClient, StorageUnavailable>
}

/** Ports plus a SqlClient on the same, fresh database. */
export const storageWithClient = (
  h: StorageUnderTest,
  label: string,
  settings?: StorageSettings
): Layer.Layer<StoragePorts | SqlClient.SqlClient, StorageUnavailable> => {
  const db = h.newDatabase(label)
  return Layer.merge(h.storage(db, settings), h.client(db))
}

/** Deterministic, never-repeating test bytes: SHA-256 of a counter. */
let counter = 0
const bytes = (n: number): Uint8Array => {
  const digest = createHash("sha256").update(`storage contract ${++counter}`).digest()
  return new Uint8Array(digest.subarray(0, n))
}
const uuid = (): string => uuidV4FromBytes(bytes(16))

/** A fresh, valid account id (never repeats within a run). */
export const newAccountId = (): AccountId => AccountIdSchema.make(uuid())
/** A fresh, valid token id (never repeats within a run). */
export const newJti = (): Jti => JtiSchema.make(uuid())
/** A fresh, valid request id, e.g. for an audit entry (never repeats within a run). */
export const newRequestId = (): RequestId => RequestIdSchema.make(uuid())

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

/** A fresh API key and secret hash in their stored forms (not derived from a real secret). */
export const newCredentials = (): StoredCredentials => ({
  apiKey: ApiKeySchema.make(`rqk_${base64url(bytes(18))}`) satisfies ApiKey,
  secretHash: Buffer.from(bytes(32)).toString("hex") as SecretHash
})

/** An Active account with a fresh id, created at a fixed date; `overrides` are encoded fields. */
export const makeAccount = (overrides: Partial<Schema.Schema.Encoded<typeof Account>> = {}): Account =>
  Schema.decodeUnknownSync(Account)({
    id: newAccountId(),
    name: "Acme Rides",
    status: "Active",
    tokenTtlSeconds: 86_400,
    pricing: { defaultBehavior: "market-median", enabledBehaviors: [] },
    createdAt: "2026-11-22T10:00:00.000Z",
    ...overrides
  })

/** A rejected decision (blocked account), for audit entries without a request. */
export const rejected: Decision = Schema.decodeUnknownSync(DecisionSchema)({
  outcome: "rejected",
  code: "result:account-blocked",
  message: "account is Blocked"
})

/** A full quoted decision (one vehicle class, three recommendations, market percentiles). */
export const quoted: Decision = Schema.decodeUnknownSync(DecisionSchema)({
  outcome: "quoted",
  mode: "Realtime",
  currency: "USD",
  market: "global-sample",
  route: { source: "supplied", distanceKm: 12.5, durationMinutes: 24 },
  behavior: "market-median",
  recommendations: {
    Standard: [{ price: 21.5, label: "saver" }, { price: 24, label: "balanced" }, { price: 27.25, label: "priority" }]
  },
  marketPrices: { "acme/Standard": { p5: 18, p25: 21, p50: 24, p75: 27, p95: 31.5 } }
})

/** The decoded request a quoted entry carries (rejected ones here carry none, as when a body did not decode). */
export const sampleRequest: QuoteRequest = Schema.decodeUnknownSync(QuoteRequestSchema)({
  pickup: { latitude: 40.7484, longitude: -73.9857 },
  destination: { latitude: 40.6413, longitude: -73.7781 },
  distanceKm: 12.5,
  durationMinutes: 24,
  scheduledAt: "2026-11-22T12:00:00.000Z"
})

/**
 * An audit record of `accountId` received at `receivedAtMs`, with a fresh request id; a quoted
 * `decision` also carries `sampleRequest`.
 */
export const auditRecord = (accountId: AccountId, receivedAtMs: number, decision: Decision = rejected): AuditRecord => ({
  accountId,
  requestId: newRequestId(),
  receivedAt: DateTime.unsafeMake(receivedAtMs),
  ...(decision.outcome === "quoted" ? { request: sampleRequest } : {}),
  decision
})


/** `xs[i]`, failing the test when it is missing (instead of a non-null assertion). */
export const at = <A>(xs: ReadonlyArray<A>, i: number): A => {
  const x = xs[i]
  if (x === undefined) throw new Error(`no element at ${i} (length ${xs.length})`)
  return x
}

/** The contract suites' clock: a fixed moment, and a day in milliseconds. */
export const NOW = Date.UTC(2026, 10, 22, 10, 0, 0)
/** A day in milliseconds. */
export const DAY = 86_400_000

/** A fresh Active account stored through the port under test; its id. */
export const newAccount = Effect.gen(function*() {
  const account = makeAccount()
  yield* (yield* AccountStore).insert(account, newCredentials())
  return account.id
})
