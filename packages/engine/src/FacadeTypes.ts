/**
 * The Promise facade's types: plain TypeScript, each the JSON form the HTTP API uses for the
 * same thing (timestamps are ISO 8601 strings, ids are strings). A consumer needs no Effect
 * type to call `createRidequote`; the tests check that core's schemas encode to these shapes.
 */

/** The wire codes of the HTTP contract: every error the facade rejects with carries one. */
export type ErrorCode =
  | "result:invalid-request"
  | "result:route-metadata-incomplete"
  | "result:market-not-served"
  | "result:invalid-credentials"
  | "result:unauthorized"
  | "result:token-invalid"
  | "result:token-expired"
  | "result:token-revoked"
  | "result:account-blocked"
  | "result:not-found"
  | "result:method-not-allowed"
  | "result:payload-too-large"
  | "result:unsupported-media-type"
  | "result:rate-limited"
  | "result:internal"
  | "result:unavailable"

/** Only Active accounts may obtain tokens and quote. */
export type AccountStatus = "Active" | "Pending" | "Blocked"

/** An account, as `GET /v1/customer/me` shows it. */
export interface Account {
  readonly id: string
  readonly name: string
  readonly status: AccountStatus
  readonly tokenTtlSeconds: number
  readonly pricing: {
    /** The behavior whose recommendations a quote returns (e.g. `market-median`). */
    readonly defaultBehavior: string
    /** Further behaviors priced alongside and kept in the audit (shadow pricing). */
    readonly enabledBehaviors: ReadonlyArray<string>
  }
  /** ISO 8601 UTC. */
  readonly createdAt: string
}

/** A new account; everything but the name has a default. */
export interface NewAccount {
  /** 1 to 200 characters, trimmed. */
  readonly name: string
  /** Default `"Active"`. */
  readonly status?: AccountStatus | undefined
  /** Lifetime of the account's tokens, 60 s to 366 days; default 86400. */
  readonly tokenTtlSeconds?: number | undefined
  /** Default `market-median`. */
  readonly defaultBehavior?: string | undefined
}

/** A created account with its credentials. The secret is shown only here: only its hash is kept. */
export interface CreatedAccount {
  readonly account: Account
  readonly apiKey: string
  readonly apiSecret: string
}

/** A status change; `revoked` counts the tokens revoked with it (`revokeTokens`). */
export interface StatusChange {
  readonly account: Account
  readonly revoked: number
}

/** An issued token (`POST /v1/auth/token`'s answer). */
export interface IssuedToken {
  /** The HS256 JWT. */
  readonly token: string
  readonly jti: string
  /** Exactly the token's `exp`, ISO 8601 UTC. */
  readonly expiresAt: string
  readonly ttlSeconds: number
}

/** A token that verified: whose it is, and the account as this engine currently knows it. */
export interface VerifiedToken {
  readonly accountId: string
  readonly jti: string
  /** ISO 8601 UTC, whole seconds (the token's `iat` and `exp`). */
  readonly issuedAt: string
  readonly expiresAt: string
  readonly account: Account
}

/**
 * Who a call is made for: a bearer token (verified as the HTTP API verifies it: signature,
 * expiry, revocation, the account's status for quotes), or an account id, when the embedding
 * service has authenticated its caller itself.
 */
export type Caller = { readonly token: string } | { readonly accountId: string }

/** A point on Earth, in degrees. */
export interface Coordinates {
  readonly latitude: number
  readonly longitude: number
}

/** A quote request (`POST /v1/quote`'s body). */
export interface QuoteRequest {
  readonly pickup: Coordinates
  readonly destination: Coordinates
  /** Send both or neither: with neither, the route resolver infers both. */
  readonly distanceKm?: number | undefined
  readonly durationMinutes?: number | undefined
  /** ISO 8601 with a time zone, at most 90 days ahead; 30 minutes or more ahead is `Scheduled`. */
  readonly scheduledAt?: string | undefined
}

/** One recommended price point. */
export interface Recommendation {
  readonly price: number
  readonly label: "saver" | "balanced" | "priority"
}

/** Market price percentiles, non-decreasing. */
export interface Percentiles {
  readonly p5: number
  readonly p25: number
  readonly p50: number
  readonly p75: number
  readonly p95: number
}

/** A quote (`POST /v1/quote`'s answer). */
export interface Quote {
  /** Also the audit entry's id. */
  readonly requestId: string
  readonly mode: "Realtime" | "Scheduled"
  readonly currency: string
  readonly distanceKm: number
  readonly durationMinutes: number
  /** Service level (Shared, Economy, Standard, Comfort, XL, Premium, PremiumXL, Accessible) → its points saver, balanced, priority. */
  readonly recommendations: { readonly [serviceLevel: string]: ReadonlyArray<Recommendation> }
  /** `"<provider>/<serviceLevel>"` → percentiles. */
  readonly marketPrices: { readonly [providerAndLevel: string]: Percentiles }
  /** The market that priced the quote; `sampleData` is true for the built-in sample market (invented prices). */
  readonly market: PricingMarket
  /** Per `marketPrices` key: the provider's product name and the records behind its prices. */
  readonly offers: { readonly [providerAndLevel: string]: OfferSource }
}

/** The market that priced a quote. */
export interface PricingMarket {
  readonly id: string
  readonly name: string
  /** True for the built-in sample market: its providers and prices are invented, not market data. */
  readonly sampleData: boolean
}

/** What stands behind one `marketPrices` entry. */
export interface OfferSource {
  /** The provider's own name for the product (UberX, Lyft XL, Yellow taxi). */
  readonly product?: string | undefined
  /** The completed trips or price quotes its prices were fitted on, first and last local date. */
  readonly records?: { readonly kind: "trips" | "quotes"; readonly from: string; readonly to: string } | undefined
  /** The flat or fixed fare that replaced the meter, where one did (e.g. "JFK–Manhattan flat fare"). */
  readonly fare?: string | undefined
  /** The published rule that set the money: its version, the date it took effect, who publishes it and where. */
  readonly tariff?: TariffBasis | undefined
  /** How current the price level is (`asOf`), and any factor that brought the records' level forward. */
  readonly level?: LevelBasis | undefined
}

/** The published rule behind an offer. */
export interface TariffBasis {
  readonly name: string
  readonly effectiveFrom: string
  readonly authority: string
  readonly rule: string
  readonly url: string
  /** The surcharges and fees of the rule that this trip pays. */
  readonly charges?: ReadonlyArray<string> | undefined
}

/** How current an offer's price level is. */
export interface LevelBasis {
  /** The local date of the newest evidence the level rests on. */
  readonly asOf: string
  readonly factor?: number | undefined
  readonly low?: number | undefined
  readonly high?: number | undefined
  readonly evidence?: string | undefined
}

/**
 * An airport of a market (`GET /v1/markets`' `airports`). A trip is at the airport when an end
 * lies in the zone its market's rules draw around the terminals (docs/airports.md).
 */
export interface MarketAirport {
  /** IATA code, e.g. "JFK". */
  readonly iata: string
  readonly name: string
  readonly latitude: number
  readonly longitude: number
}

/** A market the engine serves (`GET /v1/markets`' items): its area, clock and each offer's basis at a moment. */
export interface MarketSummary {
  readonly id: string
  readonly name: string
  /** True for the built-in sample market: its providers and prices are invented. */
  readonly sampleData: boolean
  readonly currency: string
  /** IANA time zone of the market's clock; `solar` for the sample market. */
  readonly timeZone: string
  /** Bounding box of the area served, in degrees. */
  readonly area: { readonly south: number; readonly west: number; readonly north: number; readonly east: number }
  /** The market's airports: IATA code, name, a reference point among the terminals (empty where none). */
  readonly airports: ReadonlyArray<MarketAirport>
  /** How far (km) beyond the area a destination may lie; absent: no limit. */
  readonly reachKm?: number | undefined
  readonly offers: ReadonlyArray<{
    /** `"<provider>/<serviceLevel>"`, as in a quote's `marketPrices`. */
    readonly key: string
    readonly provider: string
    readonly serviceLevel: string
    readonly source: OfferSource
  }>
}

/** Where the distance and duration priced came from. */
export interface Route {
  readonly source: "supplied" | "resolved"
  readonly distanceKm: number
  readonly durationMinutes: number
}

/** A quoted request, as the audit keeps it. */
export interface QuotedDecision {
  readonly outcome: "quoted"
  readonly mode: "Realtime" | "Scheduled"
  readonly currency: string
  readonly market: string
  /** Present (true) when the market was the built-in sample market: invented prices. */
  readonly sampleData?: true | undefined
  readonly route: Route
  readonly behavior: string
  readonly recommendations: Quote["recommendations"]
  readonly marketPrices: Quote["marketPrices"]
  /** Recommendations of the account's other enabled behaviors. */
  readonly shadow?: { readonly [behavior: string]: Quote["recommendations"] } | undefined
}

/** A refused request, as the audit keeps it. */
export interface RejectedDecision {
  readonly outcome: "rejected"
  readonly code: ErrorCode
  readonly message: string
}

/** One audit entry (`GET /v1/audit/recent`'s items). */
export interface AuditEntry {
  readonly requestId: string
  /** ISO 8601 UTC. */
  readonly receivedAt: string
  /** The request as decoded; absent when it could not be decoded. */
  readonly request?: QuoteRequest | undefined
  readonly decision: QuotedDecision | RejectedDecision
}

/** A position in the audit: the last entry of the previous page. */
export interface AuditCursor {
  readonly receivedAt: string
  readonly requestId: string
}

/** Which audit entries to read; newest first (receivedAt desc, then requestId desc). */
export interface AuditQuery {
  /** 1..500, default 50. */
  readonly limit?: number | undefined
  /** The previous page's `next`. */
  readonly after?: AuditCursor | undefined
  /** Entries received at or after this time (ISO 8601). */
  readonly from?: string | undefined
  /** Entries received before this time (ISO 8601). */
  readonly to?: string | undefined
}

/** One page of the audit. */
export interface AuditPage {
  readonly entries: ReadonlyArray<AuditEntry>
  /** Present when more entries follow: pass it as `after` for the next page. */
  readonly next?: AuditCursor | undefined
}

/** A field-level problem of an invalid request. */
export interface FieldIssue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

/** A market near a point no market serves (`result:market-not-served`'s `nearest`). */
export interface NearestMarket {
  readonly id: string
  readonly name: string
  /** Whole km from the point to the market's area. */
  readonly distanceKm: number
}

/**
 * The body of an error, exactly as the HTTP API would answer it, discriminated by `code`.
 * `requestId` is set on errors of `quote` (the audit entry's id).
 */
export type ErrorBody =
  | {
    readonly code: "result:invalid-request"
    readonly message: string
    readonly details?: ReadonlyArray<FieldIssue> | undefined
    readonly requestId?: string | undefined
  }
  | {
    readonly code: "result:account-blocked"
    readonly message: string
    /** The account's own status (Pending or Blocked). */
    readonly accountStatus: AccountStatus
    readonly requestId?: string | undefined
  }
  | {
    readonly code: "result:market-not-served"
    readonly message: string
    /** Which end is not served: the pickup lies in no market, or the destination beyond the pickup market's reach. */
    readonly reason?: "pickup-outside-markets" | "destination-beyond-reach" | undefined
    /** The markets nearest the point, nearest first (at most 3); with reason pickup-outside-markets. */
    readonly nearest?: ReadonlyArray<NearestMarket> | undefined
    /** The pickup market, its reach and the destination's distance from its area; with reason destination-beyond-reach. */
    readonly reach?: { readonly market: string; readonly reachKm: number; readonly distanceKm: number } | undefined
    readonly requestId?: string | undefined
  }
  | {
    readonly code: Exclude<ErrorCode, "result:invalid-request" | "result:account-blocked" | "result:market-not-served">
    readonly message: string
    readonly requestId?: string | undefined
  }
