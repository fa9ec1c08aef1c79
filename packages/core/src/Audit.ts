/** The audit: one entry per authenticated quote request, quoted or rejected (docs/api.md, "GET /v1/audit/recent"). */
import { Schema } from "effect"
import { AccountId, BehaviorId, MarketId, RequestId } from "./Ids.js"
import { Currency } from "./Money.js"
import { MarketPrices, Mode, QuoteRequest, Recommendations, Route } from "./Quote.js"
import { ErrorCode } from "./Errors.js"
import { Timestamp } from "./Timestamp.js"

/** The audit's record of a priced request: everything the answer held, plus the market, route and behavior behind it. */
export const QuotedDecision = Schema.Struct({
  outcome: Schema.Literal("quoted"),
  mode: Mode,
  currency: Currency,
  market: MarketId,
  /** Present (true) when the market was the built-in sample market: invented prices. */
  sampleData: Schema.optional(Schema.Literal(true)),
  route: Route,
  /** The account's default behavior, which produced `recommendations`. */
  behavior: BehaviorId,
  recommendations: Recommendations,
  marketPrices: MarketPrices,
  /** Recommendations of the account's other enabled behaviors, priced on the same inputs (shadow pricing). */
  shadow: Schema.optional(Schema.Record({ key: Schema.String, value: Recommendations }))
}).annotations({ identifier: "QuotedDecision" })
export type QuotedDecision = typeof QuotedDecision.Type

/** The audit's record of a refused request: the error code and message the caller got. */
export const RejectedDecision = Schema.Struct({
  outcome: Schema.Literal("rejected"),
  code: ErrorCode,
  message: Schema.String
}).annotations({ identifier: "RejectedDecision" })
export type RejectedDecision = typeof RejectedDecision.Type

/** What was decided for one quote request, quoted or rejected (`outcome` tells which). */
export const Decision = Schema.Union(QuotedDecision, RejectedDecision).annotations({ identifier: "Decision" })
export type Decision = typeof Decision.Type

/** One entry of `GET /v1/audit/recent`. */
export const AuditEntry = Schema.Struct({
  requestId: RequestId,
  receivedAt: Timestamp,
  /** The request as decoded; absent when the body could not be decoded. */
  request: Schema.optional(QuoteRequest),
  decision: Decision
}).annotations({ identifier: "AuditEntry" })
export type AuditEntry = typeof AuditEntry.Type

/** An entry as stored: the wire entry plus its owner. */
export const AuditRecord = Schema.Struct({ accountId: AccountId, ...AuditEntry.fields }).annotations({
  identifier: "AuditRecord"
})
export type AuditRecord = typeof AuditRecord.Type

/** Entries per audit page when the caller names no limit. */
export const DEFAULT_AUDIT_PAGE_SIZE = 50
/** The largest audit page a caller may ask for. */
export const MAX_AUDIT_PAGE_SIZE = 500

/** Keyset position: the last entry of the previous page. Order is receivedAt desc, then requestId desc. */
export interface AuditCursor {
  readonly receivedAt: AuditEntry["receivedAt"]
  readonly requestId: RequestId
}

/** One page's worth of one account's audit: how many entries, after which one, within which window. */
export interface AuditQuery {
  readonly accountId: AccountId
  readonly limit: number
  readonly after?: AuditCursor | undefined
  /** Inclusive lower bound on receivedAt. */
  readonly from?: AuditEntry["receivedAt"] | undefined
  /** Exclusive upper bound on receivedAt. */
  readonly to?: AuditEntry["receivedAt"] | undefined
}

/** One page of the audit, newest first. */
export interface AuditPage {
  readonly entries: ReadonlyArray<AuditEntry>
  /** Present when more entries follow: the cursor of the last entry on this page. */
  readonly next: AuditCursor | undefined
}

/**
 * The same page as its wire form: each entry the JSON text of `AuditEntry`'s encoding, ready to
 * be written into a response body. Serving a page is "read rows, write them out"; parsing and
 * re-encoding 50 entries cost ten times the indexed read itself.
 */
export interface AuditPageJson {
  readonly entries: ReadonlyArray<string>
  readonly next: AuditCursor | undefined
}
