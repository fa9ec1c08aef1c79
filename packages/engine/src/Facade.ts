/**
 * The Promise facade over a built engine's runtime (`facadeOn`): every method of `Ridequote`
 * runs core's own services (Accounts, Tokens, Quotes, the AuditLog port) on that runtime and
 * answers plain JSON-shaped values, rejecting with a `RidequoteError`. Inputs are checked with
 * core's schemas, results encoded with core's schemas.
 *
 * Not part of the published API: its argument is an Effect runtime, and the published
 * `@ridequote/engine` carries an Effect of its own, which a caller's runtime is not made of.
 * `createRidequote` (CreateRidequote.ts) builds the runtime; the tests pass one with TestClock.
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
import type { RidequoteEngine } from "@ridequote/compose"
import { Clock, DateTime, Effect, Either, Exit, Redacted, Runtime } from "effect"
import { fromCause, toRidequoteError } from "./FacadeErrors.js"
import type {
  Account,
  AuditEntry,
  AuditPage,
  AuditQuery,
  Caller,
  CreatedAccount,
  IssuedToken,
  MarketSummary,
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
import type { Ridequote, RidequoteAccounts, RidequoteTokens } from "./Ridequote.js"
import { RidequoteError } from "./RidequoteError.js"

const encodeAccount = trustedEncoder(AccountSchema)
const encodeIssuedToken = trustedEncoder(IssuedTokenSchema)
const encodeQuote = trustedEncoder(QuoteResponse)
const encodeMarketSummary = trustedEncoder(MarketSummarySchema)
const QUOTE_ENCODES_TO_ITSELF = !transforms(QuoteResponse.ast)

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
 * The facade over a built engine's runtime; `dispose` closes it. `createRidequote` uses it on the
 * runtime it builds; the tests on one with TestClock.
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
