/**
 * Every failure core can report, as typed errors. Each class carries its wire `code` as a
 * field (`code: resultCode("result:…")`): the `result:*` codes are domain outcomes — the audit
 * records them with every rejected quote — so the code lives with the error. An error's
 * encoded form (without `_tag`) is its JSON error body; `@ridequote/http` derives its error
 * table from `CoreErrors` below and decides the HTTP status of each code (docs/api.md,
 * "Errors"). Adding an error: define its class here and add it to `CoreErrors`.
 */
import { Schema, SchemaAST } from "effect"
import { AccountStatus } from "./Account.js"
import { MarketId } from "./Ids.js"

/** The wire codes of the service: the `code` of every error body (docs/api.md, "Errors"). */
export const ErrorCode = Schema.Literal(
  "result:invalid-request",
  "result:route-metadata-incomplete",
  "result:market-not-served",
  "result:invalid-credentials",
  "result:unauthorized",
  "result:token-invalid",
  "result:token-expired",
  "result:token-revoked",
  "result:account-blocked",
  "result:not-found",
  "result:method-not-allowed",
  "result:payload-too-large",
  "result:unsupported-media-type",
  "result:rate-limited",
  "result:internal",
  "result:unavailable"
).annotations({ identifier: "ErrorCode" })
export type ErrorCode = typeof ErrorCode.Type
const isErrorCode = Schema.is(ErrorCode)

/**
 * The `code` field of an error class: a literal the constructor fills in (so
 * `new InvalidRequest({ message })` has `code: "result:invalid-request"`), restricted to
 * `ErrorCode`.
 */
export const resultCode = <const Code extends ErrorCode>(code: Code): Schema.tag<Code> => Schema.tag(code)

/** The code an error class carries, read from its `code` field (see `resultCode`). */
export const errorCodeOf = (errorClass: { readonly fields: Schema.Struct.Fields }): ErrorCode => {
  const ast = errorClass.fields["code"]?.ast
  if (ast !== undefined && ast._tag === "PropertySignatureDeclaration" && SchemaAST.isLiteral(ast.type)) {
    const code = ast.type.literal
    if (isErrorCode(code)) return code
  }
  throw new Error("not an error class with a code field (resultCode)")
}

/** A field-level problem in a request (`details` of the error body). */
export const FieldIssue = Schema.Struct({
  path: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
  message: Schema.String
}).annotations({ identifier: "FieldIssue" })
export type FieldIssue = typeof FieldIssue.Type

/** Malformed or out-of-bounds input (also a resolved route out of bounds). */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  code: resultCode("result:invalid-request"),
  message: Schema.String,
  details: Schema.optional(Schema.Array(FieldIssue).annotations({ description: "One entry per offending field" }))
}) {}

/**
 * Exactly one of distanceKm and durationMinutes was sent: the interface prices a trip on both
 * figures or infers both, never one sent and one guessed (docs/api.md, "POST /v1/quote").
 */
export class RouteMetadataIncomplete extends Schema.TaggedError<RouteMetadataIncomplete>()("RouteMetadataIncomplete", {
  code: resultCode("result:route-metadata-incomplete"),
  message: Schema.String
}) {}

/** A market near a point no market serves, and how far its area is (`MarketNotServed.nearest`). */
export const NearestMarket = Schema.Struct({
  id: MarketId,
  name: Schema.String,
  distanceKm: Schema.Number.annotations({
    description: "Great-circle km from the point to the market's area (its bounding box), whole km"
  })
}).annotations({ identifier: "NearestMarket" })
export type NearestMarket = typeof NearestMarket.Type

/**
 * Why a trip is not served: its pickup lies in no market, its destination beyond the pickup
 * market's reach, or the market has no published rule for it.
 */
export const NotServedReason = Schema.Literal("pickup-outside-markets", "destination-beyond-reach", "no-rule-for-trip", "no-rule-for-date").annotations({
  identifier: "NotServedReason",
  description: "pickup-outside-markets: no market serves the pickup point; destination-beyond-reach: the pickup's market " +
    "serves it, but the destination lies farther from that market's area than its reach; no-rule-for-trip: the market's " +
    "published rules price none of its offers for this trip (a market of an airport's fixed fares alone, asked for a " +
    "trip that none of them covers, or a pick-up at a place whose pick-ups another rule governs, not shipped: Mexico " +
    "City's airport); no-rule-for-date: the trip's local date is before the earliest rule the market " +
    "knows, and the rule in force then is known to differ from it but not known itself (Dallas before 2026-01-25), or " +
    "the date falls where the rule changed on a day not known and only one of the two rules prices the trip, or " +
    "on or after the day the market's last known rule was replaced by one whose amounts were not read (Dublin from 2024-12-01)"
})
export type NotServedReason = typeof NotServedReason.Type

/** The pickup market's reach and how far beyond it a destination lies (`MarketNotServed.reach`). */
export const MarketReachExceeded = Schema.Struct({
  market: MarketId,
  reachKm: Schema.Number.annotations({
    description: "How far beyond the market's area (its bounding box, and the airport zones it also serves) a destination may lie, km"
  }),
  distanceKm: Schema.Number.annotations({
    description: "Great-circle km from the destination to the market's area, whole km"
  })
}).annotations({ identifier: "MarketReachExceeded" })
export type MarketReachExceeded = typeof MarketReachExceeded.Type

/**
 * A well-formed request the deployment cannot price (not a malformed one, hence a code of its
 * own). `reason` says which end: no market serves the pickup (`nearest` then names the closest
 * markets, nearest first, at most 3, so a caller can tell a typo'd coordinate from a city not
 * served), or the destination lies beyond the pickup market's reach (`reach` names the market,
 * its reach and the destination's distance): a New York pickup with a destination in Asia is
 * refused, not priced as a short New York ride, whatever distance the request supplies.
 */
export class MarketNotServed extends Schema.TaggedError<MarketNotServed>()("MarketNotServed", {
  code: resultCode("result:market-not-served"),
  message: Schema.String,
  reason: Schema.optional(NotServedReason),
  nearest: Schema.optional(
    Schema.Array(NearestMarket).annotations({ description: "The markets nearest the point, nearest first (at most 3)" })
  ),
  reach: Schema.optional(MarketReachExceeded)
}) {}

/** How many markets `MarketNotServed` names. */
export const NEAREST_MARKETS_NAMED = 3

const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * The refusal of a point no market serves, naming the nearest markets (any number given; the
 * nearest `NEAREST_MARKETS_NAMED` are kept): "no market serves (51.5, -0.12); nearest: boston
 * (5,261 km), nyc (5,535 km)". The message names markets by id (as quotes and `GET /v1/markets`
 * do): names carry commas and parentheses of their own; `nearest` has both. Distances are
 * rounded to whole km.
 */
export const marketNotServed = (
  point: { readonly latitude: number; readonly longitude: number },
  candidates: ReadonlyArray<NearestMarket>
): MarketNotServed => {
  const nearest = [...candidates]
    .map((m) => ({ ...m, distanceKm: Math.round(m.distanceKm) }))
    .sort((a, b) => a.distanceKm - b.distanceKm || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, NEAREST_MARKETS_NAMED)
  const where = `no market serves (${point.latitude}, ${point.longitude})`
  return new MarketNotServed({
    message: nearest.length === 0
      ? where
      : `${where}; nearest: ${nearest.map((m) => `${m.id} (${thousands(m.distanceKm)} km)`).join(", ")}`,
    reason: "pickup-outside-markets",
    nearest
  })
}

/**
 * The refusal of a destination beyond the pickup market's reach: "destination (35.68, 139.77)
 * is 10,834 km from market nyc, beyond its reach of 150 km". Distances are rounded to whole km.
 */
export const destinationBeyondReach = (
  destination: { readonly latitude: number; readonly longitude: number },
  market: MarketId,
  distanceKm: number,
  reachKm: number
): MarketNotServed => {
  const km = Math.round(distanceKm)
  return new MarketNotServed({
    message: `destination (${destination.latitude}, ${destination.longitude}) is ${thousands(km)} km from market ${market}, ` +
      `beyond its reach of ${thousands(reachKm)} km`,
    reason: "destination-beyond-reach",
    reach: { market, reachKm, distanceKm: km }
  })
}

/**
 * The refusal of a trip its market has no rule for: a market of an airport's published fixed
 * fares alone (no meter is known for the city) prices the trips they cover and no other. The
 * message names the market and, where it has any, its airports: "market paris publishes no
 * price for this trip: its rules price only the trips they name (airports CDG, ORY)".
 */
export const noRuleForTrip = (market: MarketId, airports: ReadonlyArray<string>): MarketNotServed =>
  new MarketNotServed({
    message: `market ${market} publishes no price for this trip: its rules price only the trips they name` +
      (airports.length === 0 ? "" : ` (airports ${airports.join(", ")})`),
    reason: "no-rule-for-trip"
  })

/**
 * The refusal of a trip dated before the earliest rule its market knows, where the rule then is
 * known to have differed (a market whose file says so; most price such a trip on their earliest
 * rule, with a note): "market dallas knows no rule in force on 2024-01-01: its earliest known rule
 * is in force from 2026-01-25".
 */
export const noRuleForDate = (market: MarketId, tripDate: string, knownFrom: string): MarketNotServed =>
  new MarketNotServed({
    message: `market ${market} knows no rule in force on ${tripDate}: its earliest known rule is in force from ${knownFrom}`,
    reason: "no-rule-for-date"
  })

/**
 * The refusal of a trip picked up where its market's area holds the place but another rule,
 * not shipped, governs pick-ups there: "market mexico-city does not price pick-ups at aicm: only
 * the airport's authorised taxis load at AICM, …".
 */
export const pickupNotServed = (market: MarketId, zone: string, why: string): MarketNotServed =>
  new MarketNotServed({
    message: `market ${market} does not price pick-ups at ${zone}: ${why}`,
    reason: "no-rule-for-trip"
  })

/**
 * The refusal of a trip dated on or after the day its market's last known rule was replaced by
 * one whose amounts were not read: "market dublin knows no rule in force on 2026-12-08: its rule
 * of 2022-09-01 was replaced on 2024-12-01 by one whose amounts were not read".
 */
export const noRuleSinceReplaced = (
  market: MarketId,
  tripDate: string,
  replaced: { readonly effectiveFrom: string; readonly replacedFrom: string }
): MarketNotServed =>
  new MarketNotServed({
    message: `market ${market} knows no rule in force on ${tripDate}: its rule of ${replaced.effectiveFrom} was replaced on ` +
      `${replaced.replacedFrom} by one whose amounts were not read`,
    reason: "no-rule-for-date"
  })

/**
 * The refusal of a trip dated where its market's rule changed on a day not known, when only one
 * of the two rules prices it (the other's fare for it was not read, or it has none): either
 * could have been in force that day, so one side's price would be a guess for part of the
 * window. "market rome knows no rule for this trip on 2025-01-10: its rule changed between
 * 2024-07-16 and 2025-07-31 on a day not known, and only the rule of before prices the trip".
 */
export const noRuleInChangeWindow = (
  market: MarketId,
  tripDate: string,
  window: { readonly from: string; readonly until: string; readonly pricedBy: "earlier" | "later" }
): MarketNotServed =>
  new MarketNotServed({
    message: `market ${market} knows no rule for this trip on ${tripDate}: its rule changed between ${window.from} and ${window.until} on a day not known, ` +
      `and only the rule of ${window.pricedBy === "earlier" ? "before" : "after"} prices the trip`,
    reason: "no-rule-for-date"
  })

/** Token issue with a missing, unknown or wrong key/secret; one message for every case. */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {
  code: resultCode("result:invalid-credentials"),
  message: Schema.String
}) {}

/** No bearer token, or a string that is not a well-formed JWT. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  code: resultCode("result:unauthorized"),
  message: Schema.String
}) {}

/** Bad signature, an alg other than HS256, wrong issuer, unknown kid, malformed claims. */
export class TokenInvalid extends Schema.TaggedError<TokenInvalid>()("TokenInvalid", {
  code: resultCode("result:token-invalid"),
  message: Schema.String
}) {}

/** The token's `exp` has passed. */
export class TokenExpired extends Schema.TaggedError<TokenExpired>()("TokenExpired", {
  code: resultCode("result:token-expired"),
  message: Schema.String
}) {}

/** The token was revoked, by its jti or by a revoke-all of its account. */
export class TokenRevoked extends Schema.TaggedError<TokenRevoked>()("TokenRevoked", {
  code: resultCode("result:token-revoked"),
  message: Schema.String
}) {}

/**
 * The account is Pending or Blocked: only Active accounts may issue tokens or quote. On the
 * wire its `status` is `accountStatus`, so it cannot be mistaken for an HTTP status.
 */
export class AccountBlocked extends Schema.TaggedError<AccountBlocked>()("AccountBlocked", {
  code: resultCode("result:account-blocked"),
  message: Schema.String,
  status: Schema.propertySignature(
    AccountStatus.annotations({ description: "The caller's own account status (Pending or Blocked)" })
  ).pipe(Schema.fromKey("accountStatus"))
}) {}

/** Revoke of a jti that does not exist or belongs to another account (indistinguishable on purpose). */
export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()("TokenNotFound", {
  code: resultCode("result:not-found"),
  message: Schema.String
}) {}

/** Operator commands naming an account that does not exist. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  code: resultCode("result:not-found"),
  message: Schema.String
}) {}

/** A behavior id that the registry does not know. */
export class BehaviorNotFound extends Schema.TaggedError<BehaviorNotFound>()("BehaviorNotFound", {
  code: resultCode("result:invalid-request"),
  message: Schema.String
}) {}

/** Storage could not be reached or failed; the operation did not take effect. */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()("StorageUnavailable", {
  code: resultCode("result:unavailable"),
  message: Schema.String
}) {}

/**
 * Fail closed: this instance's view of revocations and account status is older than the
 * limit (60 s), so it refuses to honour tokens that may have been revoked elsewhere
 * (docs/architecture.md, "Revocation and account status across instances").
 */
export class AccessViewStale extends Schema.TaggedError<AccessViewStale>()("AccessViewStale", {
  code: resultCode("result:unavailable"),
  message: Schema.String
}) {}

/** The route resolver could not infer distance and duration. */
export class RouteUnavailable extends Schema.TaggedError<RouteUnavailable>()("RouteUnavailable", {
  code: resultCode("result:unavailable"),
  message: Schema.String
}) {}

/**
 * Every error class of core, once. `@ridequote/http` renders each of them (its error table,
 * the `RenderableError` union and the body encoder are derived from this list); a test checks
 * that every error class exported here is listed.
 */
export const CoreErrors = [
  InvalidRequest,
  RouteMetadataIncomplete,
  MarketNotServed,
  InvalidCredentials,
  Unauthorized,
  TokenInvalid,
  TokenExpired,
  TokenRevoked,
  AccountBlocked,
  TokenNotFound,
  AccountNotFound,
  BehaviorNotFound,
  StorageUnavailable,
  AccessViewStale,
  RouteUnavailable
] as const

/** Any error of core. */
export type CoreError = InstanceType<(typeof CoreErrors)[number]>

/** Errors of token verification, as the bearer middleware sees them. */
export type VerifyError = Unauthorized | TokenInvalid | TokenExpired | TokenRevoked | AccessViewStale

/** Errors a quote can end in; each is recorded in the audit as a rejected decision. */
export type QuoteError =
  | InvalidRequest
  | RouteMetadataIncomplete
  | MarketNotServed
  | AccountBlocked
  | RouteUnavailable
