/**
 * The facade's plain types are the JSON forms of core's schemas: what core encodes is
 * assignable to them (checked by the compiler, `pnpm typecheck`), and the error codes are
 * exactly core's (checked both ways, and at run time).
 */
import { describe, expect, it } from "@effect/vitest"
import type * as Compose from "@ridequote/compose"
import type * as Core from "@ridequote/core"
import { ErrorCode as CoreErrorCode } from "@ridequote/core"
import type {
  Account,
  AuditEntry,
  ErrorBody,
  ErrorCode,
  IssuedToken,
  MarketsChoice,
  MarketSummary,
  Quote,
  QuoteRequest,
  RidequoteOptions,
  RoutesChoice
} from "@ridequote/engine"

/** Compiles only when `A` is assignable to `B`. */
const assignable = <A, B>(_proof: A extends B ? true : false): void => undefined

describe("the facade's plain types", () => {
  it("are what core's schemas encode to", () => {
    assignable<typeof Core.Account.Encoded, Account>(true)
    assignable<typeof Core.IssuedToken.Encoded, IssuedToken>(true)
    assignable<typeof Core.QuoteResponse.Encoded, Quote>(true)
    assignable<typeof Core.MarketSummary.Encoded, MarketSummary>(true)
    // Both ways: a field core adds to the answer must be added here too.
    assignable<Quote, typeof Core.QuoteResponse.Encoded>(true)
    assignable<AuditEntry, typeof Core.AuditEntry.Encoded>(true)
    assignable<typeof Core.AuditEntry.Encoded, AuditEntry>(true)
    // A request written against the plain type is one core's schema accepts, and the reverse.
    assignable<QuoteRequest, typeof Core.QuoteRequest.Encoded>(true)
    assignable<typeof Core.QuoteRequest.Encoded, QuoteRequest>(true)
    // Every error body's code is one of the contract's.
    assignable<ErrorBody["code"], ErrorCode>(true)
    assignable<ErrorCode, ErrorBody["code"]>(true)
    // The options name no Effect type: a plain object literal is enough.
    const options: RidequoteOptions = { storage: { sqlite: "./data/ridequote.db" }, markets: "shipped", routes: "offline" }
    expect(options.storage).toBeDefined()
  })

  it("choose markets and routes exactly as @ridequote/compose's engines do (the published types restate them)", () => {
    assignable<MarketsChoice, Compose.MarketsChoice>(true)
    assignable<Compose.MarketsChoice, MarketsChoice>(true)
    assignable<RoutesChoice, Compose.RoutesChoice>(true)
    assignable<Compose.RoutesChoice, RoutesChoice>(true)
    // Every storage option is a storage choice of the engines.
    assignable<NonNullable<RidequoteOptions["storage"]>, Compose.StorageChoice>(true)
    expect(true).toBe(true)
  })

  it("list exactly core's error codes", () => {
    assignable<ErrorCode, Core.ErrorCode>(true)
    assignable<Core.ErrorCode, ErrorCode>(true)
    const codes: ReadonlyArray<ErrorCode> = CoreErrorCode.literals
    expect(codes).toContain("result:invalid-request")
  })
})
