/** Branded identifiers. A brand keeps an account id from being passed where a token id is expected. */
import { Schema } from "effect"

const Uuid = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i, {
    message: () => "expected a UUID"
  })
)

/** An account's id: a UUID. */
export const AccountId = Uuid.pipe(Schema.brand("AccountId")).annotations({ identifier: "AccountId" })
export type AccountId = typeof AccountId.Type

/** A quote request's id (X-Request-Id, the audit entry's key): a UUID. */
export const RequestId = Uuid.pipe(Schema.brand("RequestId")).annotations({ identifier: "RequestId" })
export type RequestId = typeof RequestId.Type

/** The `jti` claim: a UUID v4 naming one issued token. */
export const Jti = Uuid.pipe(Schema.brand("Jti")).annotations({ identifier: "Jti" })
export type Jti = typeof Jti.Type

/** Non-secret half of a credential pair: `rqk_` + 24 base64url characters (144 random bits). */
export const ApiKey = Schema.String.pipe(
  Schema.pattern(/^rqk_[A-Za-z0-9_-]{24}$/, { message: () => "expected an API key (rqk_…)" }),
  Schema.brand("ApiKey")
).annotations({ identifier: "ApiKey" })
export type ApiKey = typeof ApiKey.Type

/** Identifier of a JWT signing key (`kid` header). */
export const KeyId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/),
  Schema.brand("KeyId")
).annotations({ identifier: "KeyId" })
export type KeyId = typeof KeyId.Type

/** Identifier of a pricing behavior, e.g. `market-median`. */
export const BehaviorId = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9-]{0,63}$/, { message: () => "expected a behavior id such as market-median" }),
  Schema.brand("BehaviorId")
).annotations({ identifier: "BehaviorId" })
export type BehaviorId = typeof BehaviorId.Type

/** Identifier of a market, e.g. `nyc` or `global-sample`. */
export const MarketId = Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9-]{0,63}$/), Schema.brand("MarketId"))
  .annotations({ identifier: "MarketId" })
export type MarketId = typeof MarketId.Type
