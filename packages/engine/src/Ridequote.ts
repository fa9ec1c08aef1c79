/**
 * What a caller of `createRidequote` sees: the options and the running engine's methods, in
 * plain TypeScript. Nothing here names an Effect type, and the published declarations of
 * `@ridequote/engine` are this file, FacadeTypes.ts and RidequoteError.ts only (checked when
 * the package is built): a project on any Effect, or none, compiles against them.
 */
import type {
  Account,
  AccountStatus,
  AuditEntry,
  AuditPage,
  AuditQuery,
  Caller,
  CreatedAccount,
  IssuedToken,
  MarketSummary,
  NewAccount,
  Quote,
  QuoteRequest,
  StatusChange,
  VerifiedToken
} from "./FacadeTypes.js"

/**
 * The markets:
 * - `"shipped"` (default): the market files shipped with the engine, everywhere else the sample
 *   market;
 * - `"sample"`: the sample market alone, which serves every coordinate on Earth;
 * - `{ models, fallbackToSample }`: `models` is `"shipped"` or a folder of market files of one's
 *   own; places none of them serves are priced on the sample market when `fallbackToSample`
 *   (default: on for the shipped models, off for a folder of one's own), else refused with
 *   `result:market-not-served`.
 *
 * The same choice as `MarketsChoice` of `@ridequote/compose` (the tests check both ways).
 */
export type MarketsChoice =
  | "shipped"
  | "sample"
  | { readonly models: "shipped" | (string & {}); readonly fallbackToSample?: boolean | undefined }

/**
 * How a route is resolved when a request sends neither distance nor duration: `"offline"`
 * (default: an estimator learned per market, no network), `"empirical"` (learned from each
 * market's trip records), or `{ osrm: baseUrl }` (an OSRM-compatible routing server, falling
 * back to the offline estimator when it does not answer in time). The same choice as
 * `RoutesChoice` of `@ridequote/compose`.
 */
export type RoutesChoice = "offline" | "empirical" | { readonly osrm: string }

/** Options every SQL storage shares. */
export interface SqlStorageOptions {
  /** One fixed HS256 signing key (≥ 32 characters) instead of keys kept in the database. */
  readonly jwtSecret?: string | undefined
  /** Delete audit entries older than this many days; absent keeps them. */
  readonly auditRetentionDays?: number | undefined
  /**
   * The key-encryption key sealing the signing keys in the database (32 random bytes in base64,
   * from your secret store). Without it, the key is kept in `keyEncryptionKeyFile`.
   */
  readonly keyEncryptionKey?: string | undefined
  /**
   * Where the key-encryption key is kept when `keyEncryptionKey` is not given, created on first
   * use (owner-only): default `key-encryption-key` beside the SQLite file, `./data/…` for
   * PostgreSQL. Back it up apart from the database: a copy of the database alone mints nothing.
   */
  readonly keyEncryptionKeyFile?: string | undefined
}

/**
 * Where the state lives: `"memory"` (default; this process only, nothing kept after exit),
 * `{ sqlite: path }` (a file, created and migrated on start; needs the SQLite driver `libsql`
 * installed) or `{ postgres: url }` (many processes on one database; needs the PostgreSQL client
 * `pg` installed). The engine carries the storage adapters; the drivers are optional peer
 * dependencies, so that an engine in memory installs neither.
 */
export type StorageOption =
  | "memory"
  | ({ readonly sqlite: string } & SqlStorageOptions)
  | (
    & {
      readonly postgres: string
      /** Connections for queries, default 10. */
      readonly poolSize?: number | undefined
      /** Tables in this schema (created if missing), e.g. one per tenant or test run. */
      readonly schema?: string | undefined
    }
    & SqlStorageOptions
  )

/** `createRidequote`'s options; every one has a default. */
export interface RidequoteOptions {
  /** Default `"memory"`. */
  readonly storage?: StorageOption | undefined
  /** Default `"shipped"`: the market files shipped with the engine, the sample market elsewhere. */
  readonly markets?: MarketsChoice | undefined
  /** Default `"offline"`: routes estimated without network when a request sends no distance and duration. */
  readonly routes?: RoutesChoice | undefined
  /** How often revocations and account changes made by other processes are read (default 5, at most 60). */
  readonly refreshIntervalSeconds?: number | undefined
}

/** Operator actions on accounts. */
export interface RidequoteAccounts {
  /** Creates an account; its API secret is in the answer only (only a hash is kept). */
  readonly create: (input: NewAccount) => Promise<CreatedAccount>
  /** One account; `result:not-found` when there is none with this id. */
  readonly get: (accountId: string) => Promise<Account>
  readonly list: () => Promise<ReadonlyArray<Account>>
  /** Changes the status; with `revokeTokens` also revokes every token the account holds. */
  readonly setStatus: (
    accountId: string,
    status: AccountStatus,
    options?: { readonly revokeTokens?: boolean | undefined }
  ) => Promise<StatusChange>
  /** Lifetime of tokens issued from now on, 60 s to 366 days. */
  readonly setTokenTtl: (accountId: string, seconds: number) => Promise<Account>
  /** Prices another behavior alongside the default (shadow pricing, kept in the audit). */
  readonly enableBehavior: (accountId: string, behavior: string) => Promise<Account>
  /** The behavior whose recommendations quotes return. */
  readonly setDefaultBehavior: (accountId: string, behavior: string) => Promise<Account>
  /** A new secret for the same key; the old secret stops working at once. Shown only here. */
  readonly rotateSecret: (accountId: string) => Promise<{ readonly apiKey: string; readonly apiSecret: string }>
}

/** Bearer tokens (HS256 JWTs), as `POST /v1/auth/token` and `/v1/auth/revoke` handle them. */
export interface RidequoteTokens {
  /** Exchanges an API key and secret for a token; the account must be Active. */
  readonly issue: (apiKey: string, apiSecret: string) => Promise<IssuedToken>
  /** Verifies a token (signature, issuer, expiry, revocation) and says whose it is. */
  readonly verify: (token: string) => Promise<VerifiedToken>
  /** Revokes one token of the caller's account; `{revoked: 0}` when it already was. */
  readonly revoke: (caller: Caller, jti: string) => Promise<{ readonly revoked: number }>
  /** Revokes every token of the caller's account issued until now. */
  readonly revokeAll: (caller: Caller) => Promise<{ readonly revoked: number }>
}

/** The audit of quote requests, newest first. */
export interface RidequoteAudit {
  /** The caller's entries (one page: `limit`, default 50), as `GET /v1/audit/recent` answers. */
  readonly recent: (caller: Caller, query?: AuditQuery) => Promise<ReadonlyArray<AuditEntry>>
  /** The same with the cursor of the next page, when there is one. */
  readonly page: (caller: Caller, query?: AuditQuery) => Promise<AuditPage>
}

/** A running engine. Call `close()` once done: it waits for calls in flight and flushes the audit. */
export interface Ridequote {
  /** Operator actions on accounts (the `ridequote accounts …` commands). */
  readonly accounts: RidequoteAccounts
  /** Issue, verify and revoke bearer tokens. */
  readonly tokens: RidequoteTokens
  /**
   * Prices a ride for the caller and records the decision in the audit before answering;
   * a refused request (invalid, blocked account, …) is audited too. `request` is the JSON of
   * `POST /v1/quote`'s body.
   */
  readonly quote: (caller: Caller, request: QuoteRequest) => Promise<Quote>
  /** Read the caller's audit back. */
  readonly audit: RidequoteAudit
  /**
   * Every market the engine serves, with its area, clock and what each offer's prices rest on
   * at `at` (an ISO 8601 instant; default now), as `GET /v1/markets` answers. A market that does
   * not describe its coverage (an embedder's own, without `coverage`) is not listed.
   */
  readonly markets: (options?: { readonly at?: string | undefined }) => Promise<ReadonlyArray<MarketSummary>>
  /** Stops the engine: later calls reject with `result:unavailable`. Idempotent. */
  readonly close: () => Promise<void>
}
