/** Quotes: the orchestration of one quote request, audited whatever its outcome. */
import { Context } from "effect"
import type { DateTime, Effect } from "effect"
import type { Account } from "../Account.js"
import type { InvalidRequest, QuoteError, StorageUnavailable } from "../Errors.js"
import type { RequestId } from "../Ids.js"
import type { QuoteRequest, QuoteResponse } from "../Quote.js"

/** Assigned by the host before the request is handled; also the audit entry's key. */
export interface QuoteContext {
  readonly requestId: RequestId
  readonly receivedAt: DateTime.Utc
}

export interface Quotes {
  /**
   * Prices a request for an authenticated account and records the decision (quoted or
   * rejected) in the audit before it returns. If the audit cannot be written the quote fails
   * with StorageUnavailable: an answer is never given without its record.
   */
  readonly quote: (
    account: Account,
    request: QuoteRequest,
    context: QuoteContext
  ) => Effect.Effect<QuoteResponse, QuoteError | StorageUnavailable>
  /** Records a request whose body could not be decoded, then fails with the same error. */
  readonly reject: (
    account: Account,
    error: InvalidRequest,
    context: QuoteContext
  ) => Effect.Effect<never, InvalidRequest | StorageUnavailable>
}

export const Quotes = Context.GenericTag<Quotes>("@ridequote/core/Quotes")
