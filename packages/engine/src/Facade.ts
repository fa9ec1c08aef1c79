/**
 * `createRidequote`: the engine for services that do not use Effect. Every method returns a
 * Promise of plain JSON-shaped values (the HTTP API's shapes) and rejects with a
 * `RidequoteError` carrying the contract's error body.
 *
 * It is not a second implementation: the options choose a one-call engine
 * (`RidequoteEngineLive`), a `ManagedRuntime` builds it once, and each method runs core's own
 * services (Accounts, Tokens, Quotes, the AuditLog port) on that runtime. Inputs are checked
 * with core's schemas, results encoded with core's schemas.
 */
import {
  Accounts,
  acceptPlainQuoteRequest,
  Account as AccountSchema,
  AuditLog,
  DEFAULT_AUDIT_PAGE_SIZE,
  IssuedToken as IssuedTokenSchema,
  MarketData,
  marketSummaries,
  MarketSummary as MarketSummarySchema,
  QuoteRequest as QuoteRequestSchema,
  QuoteResponse,
  Quotes,
  Randomness,
  RequestId,
  Tokens,
  transforms,
  trustedEncoder
} from "@ridequote/core"
import type {
  Account as CoreAccount,
  AccountNotFound,
  InvalidRequest,
  QuoteContext,
  QuoteRequest as CoreQuoteRequest,
  StorageUnavailable,
  VerifyError
} from "@ridequote/core"
import { Clock, DateTime, Duration, Effect, Either, Exit, ManagedRuntime, Redacted, Runtime } from "effect"
import type { RidequoteEngine } from "./Compose.js"
import { RidequoteEngineLive } from "./Engine.js"
import { fromCause, RidequoteError, toRidequoteError } from "./FacadeErrors.js"
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
import {
  AccountIdInput,
  AccountStatusInput,
  AuditQueryInput,
  CredentialsInput,
  MarketsQueryInput,
  decodeInput,
  invalidArgument,
  JtiInput,
  NewAccountInput,
  SetStatusOptions
} from "./internal/Inputs.js"
import { OptionsInput } from "./internal/Options.js"
import type { MarketsChoice, RoutesChoice } from "./Pricing.js"

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
 * `{ sqlite: path }` (a file, created and migrated on start; needs `@ridequote/storage-sqlite`)
 * or `{ postgres: url }` (many processes on one database; needs `@ridequote/storage-postgres`).
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
  /** Default `"shipped"`: the calibrated markets shipped with `@ridequote/markets`, the sample market elsewhere. */
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

const encodeAccount = trustedEncoder(AccountSchema)
const encodeIssuedToken = trustedEncoder(IssuedTokenSchema)
const encodeQuote = trustedEncoder(QuoteResponse)
const encodeMarketSummary = trustedEncoder(MarketSummarySchema)
const QUOTE_ENCODES_TO_ITSELF = !transforms(QuoteResponse.ast)

const decodeOptions = decodeInput(OptionsInput, "the options")
const decodeNewAccount = decodeInput(NewAccountInput, "the new account")
const decodeAccountId = decodeInput(AccountIdInput, "the account id")
const decodeStatus = decodeInput(AccountStatusInput, "the status")
const decodeSetStatusOptions = decodeInput(SetStatusOptions, "the options")
const decodeJti = decodeInput(JtiInput, "the jti")
const decodeCredentials = decodeInput(CredentialsInput, "the credentials")
const decodeAuditQuery = decodeInput(AuditQueryInput, "the audit query")
const decodeQuoteRequest = decodeInput(QuoteRequestSchema, "the quote request")
const decodeMarketsQuery = decodeInput(MarketsQueryInput, "the markets query")

const isoSeconds = (seconds: number): string => new Date(seconds * 1000).toISOString()

/**
 * Starts an engine and resolves once it is ready (storage open and migrated, markets loaded).
 * Rejects with a `RidequoteError`: `result:invalid-request` for bad options, `result:unavailable`
 * when the storage cannot be reached, `result:internal` when a storage adapter is not installed
 * or a market model is invalid (the message says which).
 *
 * @example
 * ```ts
 * import { createRidequote, isRidequoteError } from "@ridequote/engine"
 *
 * const ridequote = await createRidequote({ storage: { sqlite: "./data/ridequote.db" } })
 * const { apiKey, apiSecret } = await ridequote.accounts.create({ name: "Acme Rides" })
 * const { token } = await ridequote.tokens.issue(apiKey, apiSecret)
 * try {
 *   const quote = await ridequote.quote({ token }, {
 *     pickup: { latitude: 40.758, longitude: -73.9855 },
 *     destination: { latitude: 40.6413, longitude: -73.7781 }
 *   })
 *   console.log(quote.market.id, quote.marketPrices["yellow-taxi/Standard"]?.p50)
 * } catch (error) {
 *   if (isRidequoteError(error)) console.error(error.body.code, error.body.message)
 * } finally {
 *   await ridequote.close()
 * }
 * ```
 */
export const createRidequote = async (options: RidequoteOptions = {}): Promise<Ridequote> => {
  const decoded = decodeOptions(options)
  if (Either.isLeft(decoded)) throw toRidequoteError(decoded.left)
  const { markets, refreshIntervalSeconds, routes, storage } = decoded.right
  const managed = ManagedRuntime.make(RidequoteEngineLive({
    storage,
    markets,
    routes,
    refreshInterval: refreshIntervalSeconds === undefined ? undefined : Duration.seconds(refreshIntervalSeconds)
  }))
  const started = await Effect.runPromiseExit(managed.runtimeEffect)
  if (Exit.isFailure(started)) {
    await managed.dispose()
    throw fromCause(started.cause)
  }
  return facadeOn(started.value, () => managed.dispose())
}

/**
 * The facade over a built engine's runtime; `dispose` closes it. Exposed for hosts that build
 * the engine themselves (for example with TestClock in tests).
 */
export const facadeOn = (runtime: Runtime.Runtime<RidequoteEngine>, dispose: () => Promise<void>): Ridequote => {
  const services = Runtime.runSync(runtime)(
    Effect.all({
      accounts: Accounts,
      tokens: Tokens,
      quotes: Quotes,
      auditLog: AuditLog,
      randomness: Randomness,
      marketData: MarketData
    })
  )
  const { accounts, auditLog, marketData, quotes, randomness, tokens } = services
  // One callback per call and the caller's Promise: runPromiseExit would add a second promise hop.
  const runCallback = Runtime.runCallback(runtime)

  // Calls in flight, so that close() lets them finish before the storage closes.
  let inFlight = 0
  let drained: (() => void) | undefined
  let closing: Promise<void> | undefined

  const run = <A>(effect: Effect.Effect<A, unknown>, requestId?: string): Promise<A> => {
    if (closing !== undefined) {
      return Promise.reject(new RidequoteError({ code: "result:unavailable", message: "the engine is closed" }))
    }
    inFlight++
    return new Promise<A>((resolve, reject) => {
      runCallback(effect, {
        onExit: (exit) => {
          if (--inFlight === 0 && drained !== undefined) drained()
          if (Exit.isSuccess(exit)) resolve(exit.value)
          else reject(fromCause(exit.cause, requestId))
        }
      })
    })
  }
  const reject = (error: unknown): Promise<never> => Promise.reject(toRidequoteError(error))

  /**
   * Runs `f` for the account a caller stands for: its token verified, or the account id looked
   * up. (`f` is chained straight on: a step less per call than mapping to the account first.)
   */
  const withAccount = <A, E>(
    caller: unknown,
    f: (account: CoreAccount) => Effect.Effect<A, E>
  ): Effect.Effect<A, E | VerifyError | AccountNotFound | InvalidRequest | StorageUnavailable> => {
    if (typeof caller === "object" && caller !== null) {
      const hasToken = "token" in caller
      const hasId = "accountId" in caller
      if (hasToken && !hasId && typeof caller.token === "string") {
        return Effect.flatMap(tokens.verify(caller.token), (verified) => f(verified.account))
      }
      if (hasId && !hasToken) {
        const id = decodeAccountId(caller.accountId)
        return Either.isLeft(id) ? Effect.fail(id.left) : Effect.flatMap(accounts.get(id.right), f)
      }
    }
    return Effect.fail(invalidArgument("caller", "expected { token: string } or { accountId: string }"))
  }

  const accountsFacade: RidequoteAccounts = {
    create: (input) => {
      const decoded = decodeNewAccount(input)
      if (Either.isLeft(decoded)) return reject(decoded.left)
      return run(Effect.map(accounts.create(decoded.right), (created): CreatedAccount => ({
        account: encodeAccount(created.account),
        apiKey: created.apiKey,
        apiSecret: Redacted.value(created.apiSecret)
      })))
    },
    get: (accountId) => {
      const id = decodeAccountId(accountId)
      if (Either.isLeft(id)) return reject(id.left)
      return run(Effect.map(accounts.get(id.right), (account): Account => encodeAccount(account)))
    },
    list: () => run(Effect.map(accounts.list, (all) => all.map((account): Account => encodeAccount(account)))),
    setStatus: (accountId, status, options = {}) => {
      const id = decodeAccountId(accountId)
      if (Either.isLeft(id)) return reject(id.left)
      const to = decodeStatus(status)
      if (Either.isLeft(to)) return reject(to.left)
      const how = decodeSetStatusOptions(options)
      if (Either.isLeft(how)) return reject(how.left)
      const revokeTokens = how.right.revokeTokens === true
      return run(Effect.map(
        accounts.setStatus(id.right, to.right, { revokeTokens }),
        (change): StatusChange => ({ account: encodeAccount(change.account), revoked: change.revoked })
      ))
    },
    setTokenTtl: (accountId, seconds) => {
      const id = decodeAccountId(accountId)
      if (Either.isLeft(id)) return reject(id.left)
      // Core checks the bounds (60 s to 366 days) and names the field.
      if (typeof seconds !== "number") return reject(invalidArgument("tokenTtlSeconds", "expected a number"))
      return run(Effect.map(accounts.setTokenTtl(id.right, seconds), (account): Account => encodeAccount(account)))
    },
    enableBehavior: (accountId, behavior) => {
      const id = decodeAccountId(accountId)
      if (Either.isLeft(id)) return reject(id.left)
      if (typeof behavior !== "string") return reject(invalidArgument("behavior", "expected a string"))
      return run(Effect.map(accounts.enableBehavior(id.right, behavior), (account): Account => encodeAccount(account)))
    },
    setDefaultBehavior: (accountId, behavior) => {
      const id = decodeAccountId(accountId)
      if (Either.isLeft(id)) return reject(id.left)
      if (typeof behavior !== "string") return reject(invalidArgument("behavior", "expected a string"))
      return run(Effect.map(accounts.setDefaultBehavior(id.right, behavior), (account): Account => encodeAccount(account)))
    },
    rotateSecret: (accountId) => {
      const id = decodeAccountId(accountId)
      if (Either.isLeft(id)) return reject(id.left)
      return run(Effect.map(accounts.rotateSecret(id.right), (rotated) => ({
        apiKey: rotated.apiKey,
        apiSecret: Redacted.value(rotated.apiSecret)
      })))
    }
  }

  const tokensFacade: RidequoteTokens = {
    issue: (apiKey, apiSecret) => {
      const credentials = decodeCredentials({ apiKey, apiSecret })
      if (Either.isLeft(credentials)) return reject(credentials.left)
      return run(Effect.map(
        tokens.issue(credentials.right.apiKey, Redacted.make(credentials.right.apiSecret)),
        (issued): IssuedToken => encodeIssuedToken(issued)
      ))
    },
    verify: (token) => {
      if (typeof token !== "string") return reject(invalidArgument("token", "expected a string"))
      return run(Effect.map(tokens.verify(token), ({ account, claims }): VerifiedToken => ({
        accountId: claims.sub,
        jti: claims.jti,
        issuedAt: isoSeconds(claims.iat),
        expiresAt: isoSeconds(claims.exp),
        account: encodeAccount(account)
      })))
    },
    revoke: (caller, jti) => {
      const decoded = decodeJti(jti)
      if (Either.isLeft(decoded)) return reject(decoded.left)
      return run(withAccount(caller, (account) => tokens.revoke(account.id, { _tag: "Token", jti: decoded.right })))
    },
    revokeAll: (caller) =>
      run(withAccount(caller, (account) => tokens.revoke(account.id, { _tag: "AllTokens" })))
  }

  /** Prices a decoded request, or records the refusal of one that does not decode. */
  const answered = (account: CoreAccount, request: CoreQuoteRequest, context: QuoteContext) =>
    // A quote response has no transformation in it (it encodes to itself): answered as priced.
    QUOTE_ENCODES_TO_ITSELF
      ? quotes.quote(account, request, context)
      : Effect.map(quotes.quote(account, request, context), (q): Quote => encodeQuote(q))

  const priced = (account: CoreAccount, request: unknown, context: QuoteContext) => {
    const plain = acceptPlainQuoteRequest(request)
    if (plain !== undefined) return answered(account, plain, context)
    const decoded = decodeQuoteRequest(request)
    return Either.isRight(decoded)
      ? answered(account, decoded.right, context)
      // Decoded only once the caller is known, so that an undecodable request is audited too.
      : quotes.reject(account, decoded.left, context)
  }

  const quote = (caller: Caller, request: QuoteRequest): Promise<Quote> => {
    const requestId = RequestId.make(randomness.unsafeUuidV4(), { disableValidation: true })
    return run(
      withAccount(caller, (account) =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
          priced(account, request, { requestId, receivedAt: DateTime.unsafeMake(nowMs) }))),
      requestId
    )
  }

  const page = (caller: Caller, query: AuditQuery = {}): Promise<AuditPage> => {
    const decoded = decodeAuditQuery(query)
    if (Either.isLeft(decoded)) return reject(decoded.left)
    const { after, from, limit, to } = decoded.right
    return run(withAccount(caller, (account): Effect.Effect<AuditPage, StorageUnavailable> =>
      // The entries as the storage wrote them (the JSON of core's AuditEntry encoding, what
      // GET /v1/audit/recent sends): parsed here, so each is the caller's own copy.
      Effect.map(
        auditLog.pageJson({ accountId: account.id, limit: limit ?? DEFAULT_AUDIT_PAGE_SIZE, after, from, to }),
        ({ entries, next }): AuditPage => ({
          entries: entries.map((entry): AuditEntry => JSON.parse(entry)),
          ...(next === undefined ? {} : { next: { receivedAt: DateTime.formatIso(next.receivedAt), requestId: next.requestId } })
        })
      )))
  }

  const markets = (options: { readonly at?: string | undefined } = {}): Promise<ReadonlyArray<MarketSummary>> => {
    const decoded = decodeMarketsQuery(options)
    if (Either.isLeft(decoded)) return reject(decoded.left)
    const at = decoded.right.at
    return run(Effect.map(
      at === undefined ? DateTime.now : Effect.succeed(at),
      (moment) => marketSummaries(marketData.markets, moment).map((summary): MarketSummary => encodeMarketSummary(summary))
    ))
  }

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      if (inFlight === 0) resolve()
      else drained = resolve
    }).then(dispose)
    return closing
  }

  return {
    accounts: accountsFacade,
    tokens: tokensFacade,
    quote,
    audit: { recent: (caller, query) => page(caller, query).then((p) => p.entries), page },
    markets,
    close
  }
}
